"""Lockdown's public ledger: what the whole table can see, kept the same way in both modes.

Table mode knows nothing else; full mode keeps the cards too (``lockdown.py``) and moves
this ledger with the very same functions, so both modes show identical public views and
the full mode's invariants check the ledger against the real cards.

One player's entry (plain JSON)::

    {"in": true, "mobile": 3, "pairs": 1, "trips": ["7"], "four": null,
     "blocked": [lo, hi], "new": [lo, hi]}

``blocked`` bounds how many mobile cards the player received too recently to give this turn
(No-Give-Backs); ``new`` bounds how many arrived since their turn began (blocked on their
next turn). Bounds, because when an unseen card leaves a hand (taken, or paired off) the
table cannot know whether it was a just-received one: a give is refused only when the
bounds PROVE that every mobile card is blocked.
"""

from __future__ import annotations

from companion.rules.lockdown_cards import ACE, JOKER, copies


def new_player() -> dict:
    return {"in": True, "mobile": 0, "pairs": 0, "trips": [], "four": None,
            "blocked": [0, 0], "new": [0, 0]}


def held(pl: dict) -> int:
    """Cards a player holds in all (mobile hand and locked sets)."""
    return pl["mobile"] + 2 * pl["pairs"] + 3 * len(pl["trips"])


def receive(pl: dict, k: int, marked: bool) -> None:
    """``k`` cards join the mobile hand; ``marked``: they fall under No-Give-Backs."""
    pl["mobile"] += k
    if marked:
        pl["new"][0] += k
        pl["new"][1] += k


def _unseen_leave(pl: dict, j: int) -> None:
    # j cards nobody saw left the mobile hand: each could have been a just-received one.
    m = pl["mobile"] = pl["mobile"] - j
    for b in (pl["blocked"], pl["new"]):
        b[0] = max(0, b[0] - j)
        b[1] = min(b[1], m)


def lose_unseen(pl: dict) -> None:
    """A card was taken from this mobile hand (unseen which)."""
    _unseen_leave(pl, 1)


def give_unblocked(pl: dict) -> None:
    """The player gave a card that was not a just-received one."""
    m = pl["mobile"] = pl["mobile"] - 1
    for b in (pl["blocked"], pl["new"]):
        b[0] = min(b[0], m)
        b[1] = min(b[1], m)


def lock_pair(pl: dict, single: bool) -> None:
    """Two mobile cards lock face-down. ``single``: one of them is the card just received
    (marked), so it surely leaves the ``new`` count."""
    if single:
        pl["new"][0] = max(0, pl["new"][0] - 1)
        pl["new"][1] -= 1
        pl["mobile"] -= 1
        _unseen_leave(pl, 1)
    else:
        _unseen_leave(pl, 2)
    pl["pairs"] += 1


def reveal_triplet(pl: dict, v: str, single: bool) -> None:
    """A mobile card joins a locked pair: the three go face-up."""
    if single:
        pl["new"][0] = max(0, pl["new"][0] - 1)
        pl["new"][1] -= 1
        pl["mobile"] -= 1
        for b in (pl["blocked"], pl["new"]):
            b[1] = min(b[1], pl["mobile"])
    else:
        _unseen_leave(pl, 1)
    pl["pairs"] -= 1
    pl["trips"].append(v)


def empty(pl: dict) -> None:
    """The player's hand and locked sets are gone (Clear, elimination)."""
    pl.update(mobile=0, pairs=0, trips=[], blocked=[0, 0], new=[0, 0])


def start_turn(pl: dict) -> None:
    """What arrived since the player's last turn began may not be given during this one."""
    pl["blocked"] = pl["new"]
    pl["new"] = [0, 0]


def on_table(pub: dict, v: str, but: int | None = None) -> int:
    """Cards of value ``v`` the table can see (triplets, Outside the Game), but player ``but``'s."""
    n = pub["outside"].count(v)
    for i, pl in enumerate(pub["players"]):
        if i != but and pl["in"]:
            n += 3 * pl["trips"].count(v)
    return n


def table_counts(pub: dict, but: int | None = None) -> dict:
    """Cards of each value the table can see (triplets and Outside the Game), but player
    ``but``'s: ``on_table`` for every value at once."""
    n: dict = {}
    for v in pub["outside"]:
        n[v] = n.get(v, 0) + 1
    for i, pl in enumerate(pub["players"]):
        if pl["in"] and i != but:
            for v in pl["trips"]:
                n[v] = n.get(v, 0) + 3
    return n


def clear_cards_left(pub: dict) -> dict:
    """Jokers and Aces not yet sent Outside the Game."""
    jokers = pub["with_jokers"]
    return {"jokers": copies(JOKER, jokers) - pub["outside"].count(JOKER),
            "aces": copies(ACE, jokers) - pub["outside"].count(ACE)}
