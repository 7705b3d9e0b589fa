"""The Game of 2020's board and its three decks, as validated data.

The reference board (``game_of_2020_board.json``) and the Yay, Nay and Oy Vey decks
(``game_of_2020_cards.json``) are package data, read and checked once at import. A group
whose printed board differs passes its own board as the game's ``board`` option: a JSON
object of the same shape, checked by :func:`parse_board` (a :class:`BoardError` says what
is wrong in plain words). Rules never read files at run time.

Board shape::

    {"name": "...",                      # optional
     "notes": "...",                     # optional, ignored
     "spaces": ["green", "red", ...],    # space 1 .. last, from the "2020" start
     "halfway": 32,                      # the halfway sign stands after this space
     "zones": {"bubble-1": {"colour": "blue", "exit": 14},
               "bubble-2": {"colour": "blue", "exit": 46},
               "pit":      {"colour": "purple", "exit": 29}}}

Space 0 is the "2020" start (not a playing space); the last space is the green "2021!".
A zone's ``exit`` is the space of the zone's colour that connects to it: landing there
does nothing, and a piece leaving the zone is put there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

LCD_WIDTH = 20
REGULAR = ("green", "red", "yellow")
DECK_OF_COLOUR = {"green": "yay", "red": "nay", "yellow": "oy-vey"}
DECKS = ("yay", "nay", "oy-vey")
DECK_NAMES = {"yay": "Yay", "nay": "Nay", "oy-vey": "Oy Vey"}
ACTIONS = {"yay": ("forward-3", "forward-5"), "nay": ("back-4", "pit"),
           "oy-vey": ("last-yellow", "quarantine")}
ACTION_LABELS = {"forward-3": "Forward 3 spaces", "forward-5": "Forward 5 spaces",
                 "back-4": "Back 4 spaces", "pit": "Into the Pit!",
                 "last-yellow": "Back to last yellow", "quarantine": "Go to quarantine"}
ZONES = ("bubble-1", "bubble-2", "pit")
ZONE_NAMES = {"bubble-1": "Quarantine Bubble 1", "bubble-2": "Quarantine Bubble 2",
              "pit": "Pit of Despair"}
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
MIN_SPACES, MAX_SPACES = 8, 200


class BoardError(ValueError):
    """A board description that cannot be played; the message says what to fix."""


class CardError(ValueError):
    """A deck description that cannot be played (only our own package data)."""


# --------------------------------------------------------------------------- board


@dataclass(frozen=True)
class Board:
    """A checked board. ``colours[p]`` is space p's colour (``colours[0]`` is the start)."""

    name: str
    colours: tuple[str, ...]
    halfway: int
    exits: dict          # zone -> exit space
    zone_colours: dict   # zone -> colour
    prev_yellow: tuple   # prev_yellow[p]: the nearest yellow space before p, or None
    last: int            # the last space, "2021!"

    @property
    def first_yellow(self) -> int | None:
        return next((p for p, c in enumerate(self.colours) if c == "yellow"), None)

    def bubble_for(self, space: int) -> str:
        """The nearest bubble by the halfway sign: on or before the sign's space, the first."""
        return "bubble-1" if space <= self.halfway else "bubble-2"

    def to_json(self) -> dict:
        return {"name": self.name, "spaces": list(self.colours[1:]), "halfway": self.halfway,
                "zones": {z: {"colour": self.zone_colours[z], "exit": self.exits[z]} for z in ZONES}}


def _whole(value: Any) -> bool:
    return type(value) is int


def parse_board(data: Any) -> Board:
    """Check a board description and build a :class:`Board`, or raise :class:`BoardError`."""
    if not isinstance(data, dict):
        raise BoardError("Board: give the board itself as a JSON object (spaces, halfway, zones), "
                         f"not {type(data).__name__}.")
    known = ("name", "notes", "spaces", "halfway", "zones")
    for key in data:
        if key not in known:
            raise BoardError(f"Board: unknown entry {key!r} (entries: {', '.join(known)}).")
    for key in ("spaces", "halfway", "zones"):
        if key not in data:
            raise BoardError(f"Board: {key!r} is missing.")
    name = data.get("name", "Custom board")
    if not isinstance(name, str):
        raise BoardError("Board: 'name' is text.")

    zones = data["zones"]
    if not isinstance(zones, dict):
        raise BoardError("Board: 'zones' maps bubble-1, bubble-2 and pit to their colour and exit.")
    for z in zones:
        if z not in ZONES:
            raise BoardError(f"Board: unknown zone {z!r} (zones: {', '.join(ZONES)}).")
    spaces = data["spaces"]
    if not isinstance(spaces, list) or not all(isinstance(c, str) for c in spaces):
        raise BoardError("Board: 'spaces' is a list of colours, one per space from space 1 to the last.")
    if not MIN_SPACES <= len(spaces) <= MAX_SPACES:
        raise BoardError(f"Board: {len(spaces)} spaces; a board has {MIN_SPACES} to {MAX_SPACES}.")
    last = len(spaces)

    exits: dict[str, int] = {}
    zone_colours: dict[str, str] = {}
    for z in ZONES:
        zone = zones.get(z)
        label = ZONE_NAMES[z]
        if not isinstance(zone, dict) or set(zone) != {"colour", "exit"}:
            raise BoardError(f"Board: zone {z!r} ({label}) needs exactly a colour and an exit, "
                             'e.g. {"colour": "blue", "exit": 14}.')
        colour, exit_ = zone["colour"], zone["exit"]
        if not isinstance(colour, str) or not colour or colour in REGULAR:
            raise BoardError(f"Board: the {label}'s colour must be its own, not {colour!r} "
                             "(green, red and yellow are card spaces).")
        if not _whole(exit_) or not 1 <= exit_ < last:
            raise BoardError(f"Board: the {label}'s exit must be a space from 1 to {last - 1}, "
                             f"not {exit_!r}.")
        if spaces[exit_ - 1] != colour:
            raise BoardError(f"Board: the {label}'s exit, space {exit_}, is {spaces[exit_ - 1]}; "
                             f"it must be {colour}, the zone's colour.")
        for other, where in exits.items():
            if where == exit_:
                raise BoardError(f"Board: the {ZONE_NAMES[other]} and the {label} both exit onto "
                                 f"space {exit_}; each zone has its own exit.")
        exits[z], zone_colours[z] = exit_, colour

    for p, colour in enumerate(spaces, 1):
        if colour in REGULAR or p in exits.values():
            continue
        if colour in zone_colours.values():
            raise BoardError(f"Board: space {p} is {colour}, but no zone exits onto it; "
                             "list it as a zone's exit or give it a card colour.")
        allowed = ", ".join(dict.fromkeys(REGULAR + tuple(zone_colours.values())))
        raise BoardError(f"Board: space {p} is {colour!r}; a space is one of {allowed}.")
    if spaces[-1] != "green":
        raise BoardError(f"Board: the last space ({last}, \"2021!\") must be green, not {spaces[-1]}.")

    halfway = data["halfway"]
    if not _whole(halfway) or not 1 <= halfway < last:
        raise BoardError(f"Board: 'halfway' is the space the halfway sign stands after, "
                         f"from 1 to {last - 1}, not {halfway!r}.")
    if not exits["bubble-1"] <= halfway < exits["bubble-2"]:
        raise BoardError(f"Board: the halfway sign (after space {halfway}) must stand between the "
                         f"first bubble's exit ({exits['bubble-1']}) and the second's "
                         f"({exits['bubble-2']}).")

    colours = ("start",) + tuple(spaces)
    prev: list[int | None] = []
    latest = None
    for p, c in enumerate(colours):
        prev.append(latest)
        if c == "yellow":
            latest = p
    return Board(name, colours, halfway, exits, zone_colours, tuple(prev), last)


# --------------------------------------------------------------------------- cards


def wrap(text: str, width: int = LCD_WIDTH) -> list[str]:
    """Greedy word wrap; a word longer than ``width`` is an error (it would be cut)."""
    lines: list[str] = []
    for word in text.split():
        if len(word) > width:
            raise CardError(f"the word {word!r} does not fit a {width}-character line")
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


@dataclass(frozen=True)
class Card:
    """One card; its LCD lines and spoken text are worked out once, when the deck loads."""

    deck: str
    index: int      # position in the deck's file order; shuffles list these
    month: str
    text: str
    action: str
    lcd: tuple[str, str, str, str]   # deck and month, the text on two lines, the action
    spoken: str                      # the text for reading aloud

    def to_json(self) -> dict:
        return {"deck": self.deck, "index": self.index, "month": self.month, "text": self.text,
                "action": self.action, "action_text": ACTION_LABELS[self.action],
                "lcd": list(self.lcd), "read_aloud": self.spoken}


def make_card(deck: str, index: int, month: str, text: str, action: str) -> Card:
    """A card with its 20x4 LCD face; :class:`CardError` if the text does not fit."""
    where = f"{DECK_NAMES[deck]} card {index + 1}"
    try:
        lines = wrap(text)
    except CardError as e:
        raise CardError(f"{where}: {e}") from None
    if not lines or len(lines) > 2:
        raise CardError(f"{where}: the text must fit two {LCD_WIDTH}-character lines")
    heading, label = f"{DECK_NAMES[deck]}: {month}", ACTION_LABELS[action]
    if len(heading) > LCD_WIDTH:
        raise CardError(f"{where}: the heading is too long for the LCD")
    lcd = (heading, lines[0], lines[1] if len(lines) > 1 else "", label)
    return Card(deck, index, month, text, action, lcd, f"{DECK_NAMES[deck]}, {month}: {text} {label}.")


def parse_decks(data: Any) -> dict[str, tuple[Card, ...]]:
    """Check the three decks: every month at least once, allowed actions, LCD-sized texts."""
    if not isinstance(data, dict):
        raise CardError("the decks are a JSON object of yay, nay and oy-vey")
    decks = {}
    for deck in DECKS:
        entries = data.get(deck)
        if not isinstance(entries, list) or not entries:
            raise CardError(f"deck {deck!r} is missing or empty")
        cards = []
        for i, e in enumerate(entries):
            where = f"{DECK_NAMES[deck]} card {i + 1}"
            if not isinstance(e, dict) or set(e) != {"month", "text", "action"}:
                raise CardError(f"{where}: needs exactly month, text and action")
            if e["month"] not in MONTHS:
                raise CardError(f"{where}: {e['month']!r} is not a month")
            if e["action"] not in ACTIONS[deck]:
                raise CardError(f"{where}: action {e['action']!r}; a {DECK_NAMES[deck]} card does "
                                f"one of {', '.join(ACTIONS[deck])}")
            if not isinstance(e["text"], str):
                raise CardError(f"{where}: the text is text")
            cards.append(make_card(deck, i, e["month"], e["text"], e["action"]))
        missing = [m for m in MONTHS if m not in {c.month for c in cards}]
        if missing:
            raise CardError(f"deck {deck!r} has no card for {', '.join(missing)}")
        decks[deck] = tuple(cards)
    return decks


def _package_json(name: str) -> Any:
    return json.loads(resources.files("companion.rules").joinpath(name).read_text(encoding="utf-8"))


REFERENCE_BOARD_DATA = _package_json("game_of_2020_board.json")
REFERENCE_BOARD = parse_board(REFERENCE_BOARD_DATA)
CARDS = parse_decks(_package_json("game_of_2020_cards.json"))


def board_for(option: Any) -> Board:
    """The board a game's ``board`` option names: ``None`` is the reference board."""
    return REFERENCE_BOARD if option is None else parse_board(option)
