"""The shared vocabulary of every rulebook: prompts, inputs, events, and the Game base.

A game is a pure state machine in the spirit of OpenSpiel:

* ``game.prompt()`` says what it expects next (roll N dice, flip N coins, player P picks
  one of these options, a number within bounds, a shuffle of a deck...), or ``None`` when
  the game is over.
* ``game.apply(input)`` takes one typed :class:`Input`, returns a list of :class:`Event`,
  or raises :class:`IllegalInput` with a message a player understands and leaves the state
  exactly as it was.
* Chance never happens inside the rules: dice, coins and shuffles are inputs. A game is
  therefore fully determined by its setup and its list of inputs, so it can be replayed,
  simulated at speed and undone.

State lives in ``self.s``, a tree of plain JSON values (dict, list, str, int, float, bool,
None), so a snapshot is just a copy of it. ``prompt()``, ``public_view()`` and scores are
computed from ``self.s`` alone.

Rules import nothing but the standard library.
"""

from __future__ import annotations

import json
import pickle
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar, Iterable, Sequence

# --------------------------------------------------------------------------- errors


class IllegalInput(ValueError):
    """An input that does not answer the prompt or breaks a rule.

    The message is shown to players as it is: say what was wrong and what is allowed.
    """


class BadSetup(ValueError):
    """A game cannot start with these players or options; the message says why."""


# --------------------------------------------------------------------------- prompts

DICE = "dice"          # roll `count` dice (fewer allowed down to `min_count`)
COINS = "coins"        # flip `count` coins
SHUFFLE = "shuffle"    # a shuffle of a deck of `count` cards: a permutation of 0..count-1
CHOICE = "choice"      # pick one of `options` (by key)
NUMBER = "number"      # a whole number from `low` to `high`
TIMER = "timer"        # elapsed seconds measured by the companion's clock, `low`..`high`

CHANCE_KINDS = frozenset({DICE, COINS, SHUFFLE})
PROMPT_KINDS = frozenset({DICE, COINS, SHUFFLE, CHOICE, NUMBER, TIMER})

HEADS, TAILS = "heads", "tails"


@dataclass(frozen=True)
class Option:
    """One choice a player may make: ``key`` is what an input carries, ``label`` is shown."""

    key: str
    label: str

    def to_json(self) -> dict:
        return {"key": self.key, "label": self.label}


@dataclass(frozen=True)
class Prompt:
    """What a game expects next.

    ``player`` is the index of the player who acts (``None``: the group or the table).
    ``secret`` marks a hidden choice: screens hand the device to ``player`` and never show
    the answer in public. ``text`` is plain words for the LCD ("Ann: roll 1 die").
    ``tag`` names the step for bots, screens and tests ("planning", "cover-up"...).
    """

    kind: str
    text: str
    player: int | None = None
    count: int = 0
    min_count: int | None = None
    options: tuple[Option, ...] = ()
    low: int = 0
    high: int = 0
    secret: bool = False
    tag: str = ""

    def __post_init__(self) -> None:
        if self.kind not in PROMPT_KINDS:
            raise ValueError(f"unknown prompt kind {self.kind!r}")

    @property
    def chance(self) -> bool:
        return self.kind in CHANCE_KINDS

    @property
    def fewest(self) -> int:
        """The fewest dice/coins an input may carry (``count`` unless ``min_count`` says)."""
        return self.count if self.min_count is None else self.min_count

    def option_keys(self) -> list[str]:
        return [o.key for o in self.options]

    @cached_property
    def _keys(self) -> frozenset:
        # Membership of a choice is checked for every input: build the set once per prompt.
        return frozenset(o.key for o in self.options)

    def label_of(self, key: str) -> str:
        for o in self.options:
            if o.key == key:
                return o.label
        return key

    def to_json(self) -> dict:
        d: dict[str, Any] = {"kind": self.kind, "text": self.text, "player": self.player}
        if self.kind in (DICE, COINS, SHUFFLE):
            d["count"] = self.count
            if self.min_count is not None:
                d["min_count"] = self.min_count
        if self.options:
            d["options"] = [o.to_json() for o in self.options]
        if self.kind in (NUMBER, TIMER):
            d["low"], d["high"] = self.low, self.high
        if self.secret:
            d["secret"] = True
        if self.tag:
            d["tag"] = self.tag
        return d


def choice(text: str, options: Iterable[tuple[str, str] | Option], *, player: int | None = None,
           secret: bool = False, tag: str = "") -> Prompt:
    """Build a choice prompt from ``(key, label)`` pairs."""
    opts = tuple(o if isinstance(o, Option) else Option(*o) for o in options)
    return Prompt(CHOICE, text, player=player, options=opts, secret=secret, tag=tag)


# --------------------------------------------------------------------------- inputs

# Playing cards as dice (Down-in-one Street's substitute): Ace..6 as they are, 7..Queen
# minus 6; Kings and Jokers are discarded and so are not a valid reading.
_CARD_VALUES = {"A": 1, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6,
                "7": 1, "8": 2, "9": 3, "10": 4, "T": 4, "J": 5, "Q": 6}


def card_to_die(card: str) -> int:
    """The die value a playing card stands for, e.g. ``"9"`` -> 3, ``"Q"`` -> 6."""
    rank = str(card).strip().upper()
    # Accept a suit letter or symbol after the rank ("QH", "10♠").
    for suffix in ("H", "D", "C", "S", "♥", "♦", "♣", "♠"):
        if len(rank) > 1 and rank.endswith(suffix) and rank[:-1] in _CARD_VALUES:
            rank = rank[:-1]
            break
    if rank in ("K", "JOKER", "JK", "X"):
        raise IllegalInput(f"{card}: Kings and Jokers are discarded when cards stand in for dice; "
                           "draw another card.")
    if rank not in _CARD_VALUES:
        raise IllegalInput(f"{card!r} is not a playing card (use A, 2-10, J or Q).")
    return _CARD_VALUES[rank]


@dataclass(frozen=True)
class Input:
    """One thing that happened at the table.

    kinds and values:
      ``dice``     value: tuple of ints 1..6
      ``cards``    value: tuple of card ranks standing in for dice ("A", "7", "Q"...)
      ``coins``    value: tuple of "heads"/"tails"
      ``shuffle``  value: tuple, a permutation of 0..n-1
      ``choice``   value: an option key (str)
      ``number``   value: int
      ``timer``    value: int seconds
    ``player``: who entered it, when it matters (a secret choice); informational otherwise.
    """

    kind: str
    value: Any
    player: int | None = None

    def to_json(self) -> dict:
        d = {"kind": self.kind, "value": list(self.value) if isinstance(self.value, tuple) else self.value}
        if self.player is not None:
            d["player"] = self.player
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Input":
        try:
            kind, value = d["kind"], d["value"]
        except (KeyError, TypeError):
            raise IllegalInput(f"not an input: {d!r}") from None
        if isinstance(value, list):
            value = tuple(value)
        return cls(kind, value, d.get("player"))

    def describe(self) -> str:
        if isinstance(self.value, tuple):
            return f"{self.kind} {' '.join(str(v) for v in self.value)}"
        return f"{self.kind} {self.value}"


def dice(*values: int) -> Input:
    return Input("dice", tuple(values))


def cards(*ranks: str) -> Input:
    return Input("cards", tuple(ranks))


def coins(*faces: str) -> Input:
    return Input("coins", tuple(faces))


def pick(key: str, player: int | None = None) -> Input:
    return Input("choice", key, player)


def number(n: int) -> Input:
    return Input("number", n)


def timer(seconds: int) -> Input:
    return Input("timer", seconds)


def shuffle(order: Sequence[int]) -> Input:
    return Input("shuffle", tuple(order))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def normalise(prompt: Prompt, inp: Input) -> Input:
    """Check that ``inp`` answers ``prompt`` in form, and return it in canonical form.

    Only the form is checked here (kind, count, ranges, option keys); each game checks its
    own rules. Cards standing in for dice become dice.
    """
    kind = inp.kind
    if prompt.kind == DICE and kind == "cards":
        vals = tuple(card_to_die(c) for c in _as_tuple(inp.value, "cards"))
        inp, kind = Input(DICE, vals, inp.player), DICE
    if kind != prompt.kind:
        raise IllegalInput(f"Expected {_expectation(prompt)}, not {kind}.")
    if kind == DICE:
        vals = _as_tuple(inp.value, "dice")
        if not prompt.fewest <= len(vals) <= prompt.count:
            raise IllegalInput(f"Expected {_expectation(prompt)}, got {_plural(len(vals), 'die')}."
                               .replace("dies", "dice"))
        for v in vals:
            if type(v) is not int or not 1 <= v <= 6:
                raise IllegalInput(f"A die shows 1 to 6, not {v!r}.")
        return inp if vals is inp.value else Input(DICE, vals, inp.player)
    if kind == COINS:
        vals = _as_tuple(inp.value, "coins")
        if not prompt.fewest <= len(vals) <= prompt.count:
            raise IllegalInput(f"Expected {_expectation(prompt)}, got {_plural(len(vals), 'coin')}.")
        faces = []
        for v in vals:
            f = {"h": HEADS, "heads": HEADS, "t": TAILS, "tails": TAILS}.get(str(v).lower())
            if f is None:
                raise IllegalInput(f"A coin lands heads or tails, not {v!r}.")
            faces.append(f)
        return Input(COINS, tuple(faces), inp.player)
    if kind == SHUFFLE:
        vals = _as_tuple(inp.value, "shuffle")
        if sorted(vals) != list(range(prompt.count)):
            raise IllegalInput(f"A shuffle of {prompt.count} cards must list each of 0..{prompt.count - 1} once.")
        return Input(SHUFFLE, vals, inp.player)
    if kind == CHOICE:
        try:
            known = inp.value in prompt._keys
        except TypeError:  # an unhashable value is no option key either
            known = False
        if not known:
            allowed = ", ".join(o.label for o in prompt.options)
            raise IllegalInput(f"{inp.value!r} is not allowed here. Choose one of: {allowed}.")
        if inp.player is None:
            return inp if prompt.player is None else Input(CHOICE, inp.value, prompt.player)
        if prompt.player is not None and inp.player != prompt.player:
            raise IllegalInput("It is not that player's choice to make.")
        return inp
    if kind in (NUMBER, TIMER):
        v = inp.value
        if type(v) is not int:
            raise IllegalInput(f"Expected a whole number, not {v!r}.")
        if not prompt.low <= v <= prompt.high:
            raise IllegalInput(f"Expected a number from {prompt.low} to {prompt.high}, not {v}.")
        return Input(kind, v, inp.player)
    raise IllegalInput(f"Unknown input kind {kind!r}.")  # pragma: no cover - guarded above


def _as_tuple(value: Any, what: str) -> tuple:
    if type(value) is tuple:
        return value
    if isinstance(value, (list, tuple)):
        return tuple(value)
    raise IllegalInput(f"{what} must be a list of values, not {value!r}.")


def _expectation(prompt: Prompt) -> str:
    if prompt.kind == DICE:
        if prompt.fewest != prompt.count:
            return f"{prompt.fewest} to {prompt.count} dice"
        return _plural(prompt.count, "die").replace("dies", "dice")
    if prompt.kind == COINS:
        return _plural(prompt.count, "coin")
    if prompt.kind == SHUFFLE:
        return f"a shuffle of {prompt.count} cards"
    if prompt.kind == CHOICE:
        return "a choice of " + ", ".join(o.label for o in prompt.options)
    if prompt.kind == TIMER:
        return "the story's time"
    return f"a number from {prompt.low} to {prompt.high}"


# --------------------------------------------------------------------------- events


@dataclass
class Event:
    """Something that happened because of an input, for screens, LEDs and the log.

    ``text`` is plain words for the LCD. ``private``: only ``player`` may see it (a secret
    reveal); a public view never carries a private event. Treat it as read-only; it is not
    frozen because a frozen dataclass costs several times more to build, and games emit
    an event or more per input.
    """

    kind: str
    text: str
    player: int | None = None
    private: bool = False
    data: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        d: dict[str, Any] = {"kind": self.kind, "text": self.text}
        if self.player is not None:
            d["player"] = self.player
        if self.private:
            d["private"] = True
        if self.data:
            d["data"] = self.data
        return d


# --------------------------------------------------------------------------- setup


@dataclass(frozen=True)
class GameOption:
    """An optional rule or setting chosen before the game (shown in the daemon's menu).

    ``kind`` is "bool" or "choice" (``choices`` lists keys) or "int" (``low``..``high``).
    """

    name: str
    kind: str
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 0

    def check(self, value: Any) -> Any:
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise BadSetup(f"option {self.name} is true or false, not {value!r}")
        elif self.kind == "choice":
            if value not in self.choices:
                raise BadSetup(f"option {self.name} is one of {', '.join(self.choices)}, not {value!r}")
        elif self.kind == "int":
            if type(value) is not int or not self.low <= value <= self.high:
                raise BadSetup(f"option {self.name} is a whole number from {self.low} to {self.high}, not {value!r}")
        return value


@dataclass(frozen=True)
class Setup:
    """Who plays (names in seating order, clockwise/left) and the options chosen."""

    players: tuple[str, ...]
    options: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"players": list(self.players), "options": dict(self.options)}

    @classmethod
    def from_json(cls, d: dict) -> "Setup":
        return cls(tuple(d["players"]), dict(d.get("options", {})))

    @classmethod
    def numbered(cls, n: int, **options: Any) -> "Setup":
        return cls(tuple(f"Player {i + 1}" for i in range(n)), options)


# --------------------------------------------------------------------------- the game


_UNSET = object()


def clone(tree: Any) -> Any:
    """A deep copy of a JSON tree; pickle is several times faster than copy.deepcopy."""
    return pickle.loads(pickle.dumps(tree, pickle.HIGHEST_PROTOCOL))


class Game:
    """Base of every rulebook. Subclasses set the class attributes and implement:

    * ``start(self) -> None``: fill ``self.s`` for a new game from ``self.setup``.
    * ``_prompt(self) -> Prompt | None``: what is expected next, from ``self.s`` alone
      (``prompt()`` caches it until the state changes).
    * ``_apply(self, inp) -> list[Event]``: apply an input already checked in form by
      :func:`normalise`. Raise :class:`IllegalInput` for a rule it breaks; it should raise
      before touching ``self.s`` (the fast simulation path relies on it, and the random
      simulations check it), though ``apply`` restores the state either way when atomic.
    * ``score(self) -> dict``: ``{"text": "...", "points": {name: n}, "winners": [names]}``;
      ``text`` fits a 20-character LCD line where it can.
    * ``public_view(self) -> dict`` (nothing a player may not see) and
      ``private_view(self, player) -> dict`` (what that player alone may also see).
    * optionally ``check_invariants(self)`` (raise AssertionError) and ``stats(self)``
      (numeric figures for simulation summaries).
    """

    game_id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    options: ClassVar[tuple[GameOption, ...]] = ()

    def __init__(self, setup: Setup, *, _state: dict | None = None):
        self.setup = self.check_setup(setup)
        self.s: dict = {}
        self._prompt_cache: Prompt | None | object = _UNSET
        if _state is None:
            self.start()
        else:
            self.s = _state

    # -- setup -------------------------------------------------------------------

    @classmethod
    def check_setup(cls, setup: Setup) -> Setup:
        n = len(setup.players)
        if not cls.min_players <= n <= cls.max_players:
            raise BadSetup(f"{cls.title or cls.game_id} is for {cls.min_players} to {cls.max_players} "
                           f"players, not {n}.")
        if len(set(setup.players)) != n or any(not str(p).strip() for p in setup.players):
            raise BadSetup("Every player needs a different, non-empty name.")
        known = {o.name: o for o in cls.options}
        opts = {}
        for name, value in setup.options.items():
            if name not in known:
                allowed = ", ".join(known) or "none"
                raise BadSetup(f"{cls.game_id} has no option {name!r} (options: {allowed}).")
            opts[name] = known[name].check(value)
        for o in cls.options:
            opts.setdefault(o.name, o.default)
        return Setup(tuple(setup.players), opts)

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def n(self) -> int:
        return len(self.setup.players)

    def name(self, i: int | None) -> str:
        return "The table" if i is None else self.setup.players[i]

    # -- the state machine -------------------------------------------------------

    def start(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _prompt(self) -> Prompt | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def prompt(self) -> Prompt | None:
        if self._prompt_cache is _UNSET:
            self._prompt_cache = self._prompt()
        return self._prompt_cache  # type: ignore[return-value]

    def _apply(self, inp: Input) -> list[Event]:  # pragma: no cover - abstract
        raise NotImplementedError

    def is_over(self) -> bool:
        return self.prompt() is None

    def apply(self, inp: Input, *, atomic: bool = True) -> list[Event]:
        """Apply one input; on :class:`IllegalInput` the state is exactly as before.

        ``atomic=False`` skips the safety copy (for fast simulation of correct games).
        """
        p = self.prompt()
        if p is None:
            raise IllegalInput("The game is over; start a new one.")
        inp = normalise(p, inp)
        saved = clone(self.s) if atomic else None
        try:
            return self._apply(inp)
        except BaseException:
            if saved is not None:
                self.s = saved
            raise
        finally:
            self._prompt_cache = _UNSET

    # -- views and snapshots -----------------------------------------------------

    def score(self) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError

    def public_view(self) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError

    def private_view(self, player: int) -> dict:
        return {}

    def check_invariants(self) -> None:
        """Raise AssertionError if the state breaks a rule that must always hold."""

    def stats(self) -> dict[str, float]:
        """Numeric figures of a finished game for simulation summaries."""
        return {}

    def bot_input(self, prompt: Prompt, rng: Any) -> Input | None:
        """A simple bot's answer to ``prompt`` using ``rng`` (a ``random.Random``), or
        ``None`` to let the generic bot pick uniformly among what the prompt allows.
        Override only where uniform picks make no sense (e.g. a sensible party length)."""
        return None

    def snapshot(self) -> dict:
        return {"game": self.game_id, "setup": self.setup.to_json(), "state": clone(self.s)}

    @classmethod
    def from_snapshot(cls, snap: dict) -> "Game":
        if snap.get("game") != cls.game_id:
            raise ValueError(f"snapshot is of {snap.get('game')!r}, not {cls.game_id!r}")
        return cls(Setup.from_json(snap["setup"]), _state=clone(snap["state"]))

    def to_json_text(self) -> str:
        return json.dumps(self.snapshot(), sort_keys=True, separators=(",", ":"))


def replay(cls: type[Game], setup: Setup, inputs: Iterable[Input]) -> Game:
    """Rebuild a game from its setup and inputs (raises IllegalInput if one no longer fits)."""
    g = cls(setup)
    for inp in inputs:
        g.apply(inp, atomic=False)
    return g
