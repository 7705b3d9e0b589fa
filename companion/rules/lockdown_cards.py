"""Lockdown's cards: ids, names, values, the deck, and what a hand must lock (full mode).

A card is an int: ``rank * 4 + suit`` for the 52 ordinary cards (rank 0 = Ace .. 12 = King,
suits S, H, D, C) and 52, 53 for the two Jokers. Names are what players read ("7H", "10S",
"AS", "JK1"); *values* ("7", "A", "Joker") are what the public state shows, since a pair's
or a hand's cards are secret but a triplet's value and an eliminated player's four are not.

Without Jokers (the rulebook's variant) the deck loses AS and AH and the two Aces left act
as Jokers: each one alone is a Clear.
"""

from __future__ import annotations

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
JOKER = "Joker"
ACE = "A"
ACE_RANK, JOKER_RANK = 0, 13
VALUES = RANKS + (JOKER,)
# The values that lock, in rank order (Aces and Jokers never lock).
LOCKABLE = RANKS[1:]
_LOCKABLE_SET = frozenset(LOCKABLE)

_NAMES = tuple(r + s for r in RANKS for s in SUITS) + ("JK1", "JK2")
_IDS = {n: i for i, n in enumerate(_NAMES)}


# Lookups by card id: the simulations call these millions of times.
RANK_OF = tuple(c >> 2 for c in range(52)) + (JOKER_RANK, JOKER_RANK)
VALUE_OF = tuple(VALUES[r] for r in RANK_OF)


def rank(card: int) -> int:
    return RANK_OF[card]


def value(card: int) -> str:
    return VALUE_OF[card]


def name(card: int) -> str:
    return _NAMES[card]


def card_id(card_name: str) -> int:
    """The id of a card named like ``"7H"``, ``"10s"``, ``"JK1"`` (KeyError if none)."""
    return _IDS[card_name.strip().upper()]


def lockable(v: str) -> bool:
    return v in _LOCKABLE_SET


def full_deck(with_jokers: bool) -> list[int]:
    """The deck in a fixed order: 54 cards, or 50 (no Jokers, AS and AH taken out)."""
    return list(range(54)) if with_jokers else list(range(2, 52))


def copies(v: str, with_jokers: bool) -> int:
    """How many cards of value ``v`` the deck holds."""
    if v == JOKER:
        return 2 if with_jokers else 0
    if v == ACE and not with_jokers:
        return 2
    return 4


def lock_steps(mobile: list[int], pair_values: list[str], triplet_values: list[str],
               got: list[int]) -> list[tuple[str, str]]:
    """What a player must do after the cards ``got`` joined their mobile hand ``mobile``.

    ``mobile`` already holds ``got``. Returns ``[("out", v)]`` if some value now makes four
    (the lowest such value: the player is out either way), else a list of ``("pair", v)``
    and ``("triplet", v)`` steps in rank order; a triplet made of three new cards is a pair
    step then a triplet step, exactly as a table would report it.
    """
    if len(got) == 1:  # the common case (a draw, give, take or force), without the sort
        r = RANK_OF[got[0]]
        if not 1 <= r <= 12:
            return []
        new_values: list[int] | tuple[int] = (r,)
    else:
        new_values = sorted({RANK_OF[c] for c in got if 1 <= RANK_OF[c] <= 12})
        if not new_values:
            return []
    ranks = list(map(RANK_OF.__getitem__, mobile))
    held = {r: ranks.count(r) for r in new_values}
    for r in new_values:
        v = RANKS[r]
        if held[r] + 2 * (v in pair_values) + 3 * (v in triplet_values) >= 4:
            return [("out", v)]
    steps: list[tuple[str, str]] = []
    for r in new_values:
        v, n = RANKS[r], held[r]
        has_pair = v in pair_values
        if n >= 2:
            steps.append(("pair", v))
            n -= 2
            has_pair = True
        if n and has_pair:
            steps.append(("triplet", v))
    return steps
