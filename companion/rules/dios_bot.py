"""Bot answers for Down-in-one Street where uniform random picks make a silly game.

Uniform picks would set a 1-person limit or a 1400-minute party as often as a sensible
one, and invite eight guests per action (every game over at the first party). These
answers keep simulated games realistic: limits like the real rules of six or fifteen,
lengths of an evening, a planner who mostly invites a few, a reroll that has a chance.
Everything else (venue, masks, partying, chance) stays uniform in :mod:`companion.bots`.
"""

from __future__ import annotations

from companion.rules.core import CHOICE, NUMBER, Input, Prompt
from companion.rules.dios_cards import (ANYWHERE_MAX, CARD_ORDER, CARDS, INDOOR_MAX, MAX_LENGTH,
                                        PLAN_ACTIONS, SKIP)

# A bag to draw from: Invite 1 four times as likely as Invite 8, and so on.
_PLAN_WEIGHTS = (3, 3, 2, 1, 2, 2, 2)  # Invite 1, 2, 4, 8, drinks, karaoke, work
_PLAN_BAG = [k for (k, _), w in zip(PLAN_ACTIONS, _PLAN_WEIGHTS) for _ in range(w)]


def bot_answer(game, prompt: Prompt, rng) -> Input | None:
    """A sensible answer to ``prompt`` in ``game`` (a DownInOneStreet), or None: uniform."""
    s = game.s
    ph = s["phase"]
    if ph == "plan":
        return Input(CHOICE, _PLAN_BAG[int(rng.random() * len(_PLAN_BAG))], prompt.player)
    if ph == "card":
        return _card_answer(s, rng)
    if ph == "length":
        limit = s["cards"].get(MAX_LENGTH)
        if limit is None:
            return Input(NUMBER, 0 if rng.random() < 0.3 else rng.choice((60, 120, 180, 240)))
        if rng.random() < 0.2:  # now and then the host plans a long one on purpose
            return Input(NUMBER, limit + rng.choice((10, 30, 60)))
        return Input(NUMBER, rng.randint(max(1, limit // 2), limit))
    if ph == "reroll-choice":
        now = s["party"]["dice"]
        low = min(range(len(now)), key=now.__getitem__)
        short = game.target() - sum(now)
        if len(now) == 1 or short > 6 - now[low]:
            return Input(CHOICE, "all")  # one die cannot make up the shortfall
        return Input(CHOICE, f"d{low + 1}")
    return None


def _card_answer(s: dict, rng) -> Input:
    key = CARD_ORDER[s["card_i"]]
    must = s["card_i"] == len(CARD_ORDER) - 1 and not s["cards"]  # a lockdown needs one card
    use = must or rng.random() < 0.5
    card = CARDS[key]
    if card.setting != "number":
        if not use:
            return Input(CHOICE, SKIP)
        return Input(CHOICE, rng.choice(card.choices).key if card.choices else "use")
    if not use:
        return Input(NUMBER, 0)
    if key == INDOOR_MAX:
        return Input(NUMBER, rng.randint(2, 15))
    if key == ANYWHERE_MAX:
        low = 2 * s["cards"].get(INDOOR_MAX, 2)
        return Input(NUMBER, rng.randint(low, low + 20))
    return Input(NUMBER, rng.choice((60, 90, 120, 180, 240)))
