"""Helpers for the Down-in-one Street tests: play a game to a given stage by feeding inputs.

Every helper goes through ``Game.apply`` with real inputs, exactly as the Table would.
"""

from __future__ import annotations

import pytest

from companion.rules.core import IllegalInput, Input, Setup, dice, number, pick
from companion.rules.dios_cards import CARD_ORDER, CARDS
from companion.rules.down_in_one_street import DownInOneStreet

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


def new_game(n: int = 4) -> DownInOneStreet:
    return DownInOneStreet(Setup(NAMES[:n]))


def feed(g: DownInOneStreet, *inputs: Input) -> list:
    """Apply the inputs in turn; return all their events."""
    events = []
    for inp in inputs:
        events += g.apply(inp)
    return events


def texts(events) -> list[str]:
    return [e.text for e in events]


def tag(g) -> str | None:
    p = g.prompt()
    return None if p is None else p.tag


def rejected(g, inp: Input, match: str) -> IllegalInput:
    """Assert ``inp`` is refused with a message matching ``match`` and nothing changed."""
    before, prompt = g.snapshot(), g.prompt()
    with pytest.raises(IllegalInput, match=match) as err:
        g.apply(inp)
    assert g.snapshot() == before
    assert g.prompt() == prompt
    return err.value


def card_inputs(**cards) -> list[Input]:
    """The group's answers for the seven cards: ``indoor_max=6, masks="everywhere",
    distancing=True``...; every card not named is left out (0 or "Not used")."""
    out = []
    for key in CARD_ORDER:
        setting = CARDS[key].setting
        if setting == "number":
            out.append(number(cards.get(key, 0)))
        elif setting == "choice":
            out.append(pick(cards.get(key, "skip")))
        else:
            out.append(pick("use" if cards.get(key) else "skip"))
    return out


def choose_cards(g, **cards) -> list:
    assert tag(g) == "restrictions"
    return feed(g, *card_inputs(**cards))


def start(g, first_host: str = "Ann", **cards) -> list:
    """Name the first host and choose the first lockdown's cards."""
    events = g.apply(pick(str(g.players.index(first_host))))
    return events + choose_cards(g, **cards)


def host_party(g, venue: str = "indoor", size: str = "medium", length: int = 0) -> list:
    return feed(g, pick(venue), pick(size), number(length))


def extra(g, *names: str) -> list:
    return feed(g, *(pick(str(g.players.index(nm))) for nm in names))


def plan(g, **plans: list[str]) -> list:
    """Each player's planned actions, by name; fed in the order the game asks."""
    events, used = [], {nm: 0 for nm in plans}
    while tag(g) == "planning":
        p = g.prompt().player
        nm = g.players[p]
        events += g.apply(pick(plans[nm][used[nm]], p))
        used[nm] += 1
    assert all(used[nm] == len(plans[nm]) for nm in plans), "a planned action was not asked for"
    return events


def masks(g, **on: bool) -> list:
    events = []
    while tag(g) == "masks":
        p = g.prompt().player
        events += g.apply(pick("on" if on[g.players[p]] else "off", p))
    return events


def partying(g, **acts: str) -> list:
    """Each player's Partying action by name (default: nothing)."""
    events = []
    while tag(g) == "partying":
        p = g.prompt().player
        events += g.apply(pick(acts.get(g.players[p], "none"), p))
    return events


def simple_party(g, venue="indoor", length=0, plans=None, acts=None, mask=None) -> list:
    """Host, plan (default: everyone Get drinks in), masks, partying: up to Guest Behaviour."""
    events = host_party(g, venue, "medium", length)
    if tag(g) == "extra-action":
        k = 8 % g.n
        events += extra(g, *g.players[:k])
    plans = plans or {}
    slots = g.s["party"]["slots"]
    full = {nm: plans.get(nm, ["drinks"] * slots[i]) for i, nm in enumerate(g.players)}
    events += plan(g, **full)
    if tag(g) == "masks":
        events += masks(g, **{nm: (mask or {}).get(nm, True) for nm in g.players})
    events += partying(g, **(acts or {}))
    return events


def roll(g, *values: int) -> list:
    return g.apply(dice(*values))
