"""Simple bot players: answer any prompt with a legal-looking input from a seeded RNG.

Chance (dice, coins, shuffles) comes from the same RNG, so a seed fixes a whole game.
Used by ``companion simulate``, the demo and the tests; the rules themselves stay pure.
"""

from __future__ import annotations

import random

from companion.rules.core import (CHOICE, COINS, DICE, HEADS, NUMBER, SHUFFLE, TAILS, TIMER,
                                  Game, Input, Prompt)


def bot_input(game: Game, prompt: Prompt, rng: random.Random) -> Input:
    """The game's own bot answer if it has one, else a uniform pick of what the prompt allows."""
    inp = game.bot_input(prompt, rng)
    if inp is not None:
        return inp
    return uniform_input(prompt, rng)


def uniform_input(prompt: Prompt, rng: random.Random) -> Input:
    kind = prompt.kind
    if kind == DICE:
        n = prompt.count if prompt.fewest == prompt.count else rng.randint(prompt.fewest, prompt.count)
        # One random() per die: randint costs several Python calls, and bots roll a lot.
        rnd = rng.random
        return Input(DICE, tuple(int(rnd() * 6) + 1 for _ in range(n)))
    if kind == COINS:
        return Input(COINS, tuple(HEADS if rng.random() < 0.5 else TAILS for _ in range(prompt.count)))
    if kind == SHUFFLE:
        order = list(range(prompt.count))
        rng.shuffle(order)
        return Input(SHUFFLE, tuple(order))
    if kind == CHOICE:
        return Input(CHOICE, rng.choice(prompt.options).key, prompt.player)
    if kind in (NUMBER, TIMER):
        return Input(kind, rng.randint(prompt.low, prompt.high))
    raise ValueError(f"no bot for prompt kind {kind!r}")


def step_rng(seed: int, game_index: int, step: int) -> random.Random:
    """An RNG for one step of one game, independent of the steps before it.

    The demo uses it so that a game interrupted at any step and resumed from its journal
    makes exactly the choices an uninterrupted run would have made.
    """
    return random.Random((seed * 1_000_003 + game_index) * 1_000_033 + step)
