"""The cards of Down-in-one Street: the seven Restriction cards as this companion reads
them, and the Planning card's actions.

The printed cards are not in the rulebook's text; the rules name seven restrictions
(matching the game's seven dice and seven coins: one Case Numbers coin per card used,
and 8 minus 7 leaves at least one cover-up die). Each card here says what the group sets
when choosing it (one question per card, in this order; 0 or "Not used" leaves it out)
and exactly when it is broken at a party:

=================  ====================================  =======================================
card               set when chosen                       broken when
=================  ====================================  =======================================
indoor_max         a number N (1..50)                    an INDOOR party has more than N
                                                         attendees (checked whenever the count
                                                         changes; outdoor parties never break it)
anywhere_max       a number N (1..100), at least double  any party has more than N attendees
                   the indoor figure if both are used
masks              "indoors" (indoor parties only) or    at least half the players go unmasked
                   "everywhere"                          (Stage 4) where the card applies
distancing         -                                     a player dances (with 5+ players: two
                                                         players), or guests dance (die + 1 per
                                                         five guests >= 6)
no_singing         -                                     a player sings (karaoke needed), or
                                                         guests sing (die + 1 per drinks >= 5)
windows            - (applies to indoor parties only)    the windows are closed at the end of
                                                         Partying (an even number of toggles)
max_length         a number of minutes (1..1440)         the party's length exceeds it (as set
                                                         by the host, or after overstaying)
=================  ====================================  =======================================
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.core import CHOICE, NUMBER, Option, Prompt

INDOOR_MAX = "indoor_max"
ANYWHERE_MAX = "anywhere_max"
MASKS = "masks"
DISTANCING = "distancing"
NO_SINGING = "no_singing"
WINDOWS = "windows"
MAX_LENGTH = "max_length"

# The order in which the group is asked about the cards. The indoor limit comes before the
# anywhere limit so that "at least double" can be checked when the second is entered.
CARD_ORDER = (INDOOR_MAX, ANYWHERE_MAX, MASKS, DISTANCING, NO_SINGING, WINDOWS, MAX_LENGTH)

# The Planning card: what each of the team's eight actions can be.
PLAN_ACTIONS = (("invite1", "Invite 1"), ("invite2", "Invite 2"), ("invite4", "Invite 4"),
                ("invite8", "Invite 8"), ("drinks", "Get drinks in"), ("karaoke", "Arrange karaoke"),
                ("work", "Bring a work thing"))
INVITES = {"invite1": 1, "invite2": 2, "invite4": 4, "invite8": 8}

MASKS_INDOORS, MASKS_EVERYWHERE = "indoors", "everywhere"
MAX_MINUTES = 1440  # a day: the longest length or limit the companion accepts


SKIP = "skip"  # the answer that leaves a card out ("Not used"; 0 for a number card)


@dataclass(frozen=True)
class RestrictionCard:
    """One printed Restriction card.

    ``setting`` is "" (nothing to fill in), "number" (``low``..``high``) or "choice"
    (``choices``). ``name`` is how events name it ("Broken: no singing").
    """

    key: str
    title: str
    name: str
    setting: str = ""
    low: int = 0
    high: int = 0
    choices: tuple[Option, ...] = ()

    def prompt(self) -> Prompt:
        """The group's one question about this card: leave it out, or use it (as set)."""
        if self.setting == "number":
            return Prompt(NUMBER, f"{self.title}? (0 = not used)", low=0, high=self.high,
                          tag="restrictions")
        opts = self.choices or (Option("use", "Use it"),)
        return Prompt(CHOICE, f"{self.title}?" if self.choices else f"Use card: {self.title}?",
                      options=opts + (Option(SKIP, "Not used"),), tag="restrictions")


CARDS: dict[str, RestrictionCard] = {c.key: c for c in (
    RestrictionCard(INDOOR_MAX, "Max people indoors", "max people indoors", "number", 1, 50),
    RestrictionCard(ANYWHERE_MAX, "Max people anywhere", "max people anywhere", "number", 1, 100),
    RestrictionCard(MASKS, "Masks must be worn", "masks must be worn", "choice",
                    choices=(Option(MASKS_INDOORS, "Indoors only"), Option(MASKS_EVERYWHERE, "Everywhere"))),
    RestrictionCard(DISTANCING, "Social distancing", "social distancing"),
    RestrictionCard(NO_SINGING, "No singing", "no singing"),
    RestrictionCard(WINDOWS, "Windows must be open", "windows must be open"),
    RestrictionCard(MAX_LENGTH, "Max length (min)", "max length", "number", 1, MAX_MINUTES),
)}

assert tuple(CARDS) == CARD_ORDER

# Built once: asked at every lockdown.
CARD_PROMPTS = tuple(CARDS[k].prompt() for k in CARD_ORDER)


def card_label(key: str, value) -> str:
    """The card as filled in, e.g. ``"Max 6 people indoors"``, ``"Masks everywhere"``."""
    if key == INDOOR_MAX:
        return f"Max {value} people indoors"
    if key == ANYWHERE_MAX:
        return f"Max {value} people anywhere"
    if key == MASKS:
        return "Masks indoors" if value == MASKS_INDOORS else "Masks everywhere"
    if key == MAX_LENGTH:
        return f"Max length {value} min"
    return CARDS[key].title
