"""The five rulebooks, one module each, and the shared types in :mod:`companion.rules.core`.

Pure: no I/O, no clocks, no global randomness. Chance arrives as inputs.
"""

from __future__ import annotations

import importlib

from companion.rules.core import Game

# game id -> module holding ``GAME`` (its Game subclass). Imported on demand so that
# start-up does not pay for games nobody is playing.
GAME_MODULES = {
    "down-in-one-street": "companion.rules.down_in_one_street",
    "all-fall-down": "companion.rules.all_fall_down",
    "sneak": "companion.rules.sneak",
    "game-of-2020": "companion.rules.game_of_2020",
    "lockdown": "companion.rules.lockdown",
}


def game_class(game_id: str) -> type[Game]:
    """The Game subclass for ``game_id``; ValueError naming the known games otherwise."""
    try:
        module = GAME_MODULES[game_id]
    except KeyError:
        raise ValueError(f"unknown game {game_id!r}; choose one of: {', '.join(GAME_MODULES)}") from None
    return importlib.import_module(module).GAME


def available_games() -> list[str]:
    """Game ids whose module exists (all five once every rulebook has landed)."""
    out = []
    for gid, module in GAME_MODULES.items():
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name != module:
                raise
            continue
        out.append(gid)
    return out
