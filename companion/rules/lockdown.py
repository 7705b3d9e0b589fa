"""Lockdown (rulebook ``lockdown.txt``): avoid four of a kind, eliminate everyone else.

2 to 8 players, a 52-card deck and 2 Jokers. Two modes (game option ``mode``):

* **table** (physical cards): the companion never sees a face. It referees the PUBLIC state
  (``lockdown_ledger``): who acts next, each player's mobile-hand size, locked pairs (a
  count: their value is secret), face-up triplets and their values, eliminations and their
  four cards, the cards Outside the Game, the Clear cards left, the deck's size and the
  No-Give-Backs rule. Players report what a card did ("did it lock?") by choice prompts,
  and the companion rejects whatever the public state proves impossible.
* **full** (simulation, bots, tests): every card is known (``lockdown_cards``); the deck is
  dealt from SHUFFLE inputs and locking is automatic. The ledger moves exactly as in table
  mode, so public views are the same, and the invariants check it against the cards.

As implemented:

* The group names the dealer; the deal is 4 cards each, locking at once; the dealer goes
  first. A turn is one action: draw (face-down), give a card from your mobile hand, take a
  card from another's mobile hand, force another to draw (the card is shown), shuffle the
  mobile hands and deal back the same number to each, or Clear.
* Two cards of a value in a mobile hand lock face-down at once; a third joins them face-up
  (a triplet); a fourth eliminates: the four go Outside the Game, the player's other cards go
  back into the deck, which is reshuffled. Aces and Jokers never lock.
* Clear: a single Joker or a pair of Aces (without Jokers: a single Ace of the two left).
  The player's mobile hand and locked sets go back into the deck, the deck is shuffled, the
  player draws 4; the Clear cards go Outside the Game; the player names who goes next.
* Next player: the one an action affected (the receiver of a give, the one taken from, the
  one forced to draw). After a draw, a shuffle or a Clear, the acting player names the next
  player, never themselves; by the Rule of 3 they must name a player showing a triplet (any
  of them if several), unless only they show one. Whoever eliminates another player takes
  another turn at once. The last player standing wins.

Readings where the rulebook is silent or loose (each tested in ``tests/test_lockdown.py``):

* Reading: the deal goes in blocks of 4, starting left of the dealer (seat order). A player
  dealt four of a kind is a misdeal: the deck is gathered and shuffled again (nobody loses
  before the first turn). In table mode, reporting "four of a kind" at the deal restarts it.
* Reading: a SHUFFLE input orders the cards it shuffles (the deck as it lies, or the mobile
  hands gathered in seat order); the first card of the order is the top of the deck. After a
  mobile-hand shuffle, the cards are dealt back in seat order, each player's count as a block.
* Reading (full mode): which card is taken from a mobile hand is a blind pick: a NUMBER input,
  1 to the hand's size, its position in the victim's hand as held (the taker cannot see it).
* Reading: a player who eliminates THEMSELVES (their own draw, take or Clear) does not get
  the eliminator's extra turn: after a draw or a Clear they still name the next player (Rule of
  3 applies); after a take, the player taken from goes next. After a shuffle that eliminates
  others, the shuffler goes again if still in. One elimination reshuffle follows an action,
  even when a shuffle put out several players.
* Reading (No-Give-Backs): a card received (drawn, given, taken, force-drawn) may not be given
  during the receiver's next turn; it may be given from the turn after ("their second turn
  after getting the card"); a turn that starts with an eliminator's extra turn counts. Cards
  dealt (at the start, back after a Shuffle, or drawn after a Clear) are a fresh hand, not
  "just got", and a Shuffle frees every just-received card (the rulebook's own way out).
* Reading (table mode, No-Give-Backs): the companion counts just-received cards, not which
  they are. When a give might involve one, it asks "the card I just got, or another?"; the
  first answer is refused with the rule, the second is trusted. When an unseen card leaves a
  hand (taken, or paired off by a lock) the count becomes a range; a give is refused only when
  every mobile card is surely just-received.
* Reading (table mode, reports): after a card arrives, its receiver reports "nothing", "locked
  a pair", "a pair became a triplet" (then its value) or "four of a kind: out" (value asked
  when it is not known). After several cards (deal, Shuffle, Clear) the report repeats until
  "no more locks"; three of a kind at once is "locked a pair" then "a pair became a
  triplet". Reports are skipped when the public state allows nothing but "nothing", and
  deduced when it forces an elimination (a force-drawn 7 to a player showing three 7s).
* Reading: a Clear draws only the cards the deck holds when it has fewer than 4; four of a kind
  among them eliminates the player (no extra turn: nobody else caused it).
* Reading: when only one player can be chosen (the next player with two players left, or the
  Rule of 3 with one triplet showing; the only possible target of a give, take or force), the
  companion does not ask: it names that player ("Bob goes next").
* Reading: a Shuffle that puts out every player still in (the shuffler too) ends the game with
  those players sharing the win ("all out").
* Reading (table mode): a mobile hand holds at most one card of each value that locks, plus the
  Aces and Jokers not yet Outside the Game; a report that would leave more is refused.
* Reading (the deck runs out): Draw and Force-draw are refused while the deck is empty; play
  goes on with give, take, Shuffle and Clear. The game ends in a draw shared by everyone still
  in when nothing can move any more (deck empty, every mobile hand empty), or when the deck
  has stayed empty for 5 rounds (5 turns per player still in) with no elimination, since
  locked pairs split between players can make an elimination impossible.

Simulation: the option ``mode`` is picked at random per game like any option, so
``companion simulate lockdown`` plays both modes. Table-mode bots report any outcome the
public state allows (rarely a misdeal). Full-mode bots (``bot_input``) play to put others
out, and peek at the deck's top card and the others' hands to choose whom to force to draw:
whole games in half the turns, with every rule still checked.
"""

from __future__ import annotations

import operator

from companion.rules import lockdown_cards as cards
from companion.rules import lockdown_ledger as ledger
from companion.rules.core import (
    CHOICE,
    NUMBER,
    SHUFFLE,
    Event,
    Game,
    GameOption,
    IllegalInput,
    Input,
    Option,
    Prompt,
    choice,
)

DRY_ROUNDS = 5  # rounds the deck may stay empty with no elimination before a draw is declared

ACTION_OPTIONS = (Option("draw", "Draw a card"), Option("give", "Give a card"),
                  Option("take", "Take a card"), Option("force", "Force a draw"),
                  Option("shuffle", "Shuffle hands"), Option("clear", "Clear"))
REPORT_OPTIONS = (Option("none", "Nothing (more)"), Option("pair", "Locked a pair"),
                  Option("triplet", "Pair became triplet"), Option("out", "Four of a kind: out"))
GIVE_TABLE_OPTIONS = (Option("just_got", "The card I just got"), Option("other", "Another card"))
CLEAR_OPTIONS = {True: (Option("joker", "A Joker"), Option("aces", "Two Aces")),
                 False: (Option("ace", "An Ace"),)}
CLEAR_USES = {"joker": (cards.JOKER,), "aces": (cards.ACE, cards.ACE), "ace": (cards.ACE,)}
CLEAR_WORDS = {"joker": "a Joker", "aces": "two Aces", "ace": "an Ace"}
VALUE_OPTIONS = tuple(Option(v, v) for v in cards.LOCKABLE)
SHOWN_OPTIONS = {True: tuple(Option(v, v) for v in cards.VALUES),
                 False: tuple(Option(v, v) for v in cards.RANKS)}
# Full-mode bots' taste in actions. With the peeking force (see bot_input), games take about
# a third of the turns uniform picks take (measured over 200 games of 2 to 8 players).
BOT_ACTION_WEIGHTS = {"draw": 4, "give": 1, "take": 0.2, "force": 1, "shuffle": 1, "clear": 0.2}
# Table-mode bots' reports: four of a kind at the deal (a misdeal) is rare at a real table,
# and an uniform pick restarted most 8-player deals; "out" when allowed shortens games.
BOT_DEAL_REPORT_WEIGHTS = {"none": 4, "pair": 2, "triplet": 1, "out": 0.02}
BOT_REPORT_WEIGHTS = {"none": 1, "pair": 1, "triplet": 1, "out": 3}
_VALUE_OF = cards.VALUE_OF
_COPIES = {j: {v: cards.copies(v, j) for v in cards.VALUES} for j in (True, False)}
# One player's ledger entry in one call (the checks read it for every player after every input).
_LEDGER_ROW = operator.itemgetter("in", "mobile", "pairs", "trips", "blocked", "new", "four")
_TRIPS_OF = operator.itemgetter("trips")
_ACTING_STEPS = frozenset(("action", "target", "give_card", "take_pick", "clear_with"))
# A card's key in the audit of what should have locked: its rank if it locks, else a key
# of its own (Aces and Jokers never lock).
_LOCK_KEY = tuple(x >> 2 if 4 <= x < 52 else 16 + x for x in range(54))
_CARDS_OF_VALUE = {v: frozenset(x for x in range(54) if _VALUE_OF[x] == v) for v in cards.VALUES}
_DECKS = {True: cards.full_deck(True), False: cards.full_deck(False)}
_PROMPTS: dict[tuple, Prompt] = {}  # see Lockdown._prompt
_TARGET_TEXT = {"give": "give a card to?", "take": "take a card from?", "force": "who must draw?"}


# Inputs and events are immutable, and built for every simulated input: build them cheaply.
_CHOICES: dict[tuple, Input] = {}


def _choice(key: str, player: int | None) -> Input:
    """``Input(CHOICE, key, player)``, each one built once."""
    inp = _CHOICES.get((key, player))
    if inp is None:
        inp = _CHOICES[key, player] = Input(CHOICE, key, player)
    return inp


def _a(v: str) -> str:
    return ("an " if v in ("A", "8") else "a ") + v


class Lockdown(Game):
    game_id = "lockdown"
    title = "Lockdown"
    min_players = 2
    max_players = 8
    options = (
        GameOption("mode", "choice", "table",
                   "table: physical cards, the companion referees what is public; "
                   "full: every card known, dealt from shuffle inputs",
                   choices=("table", "full")),
        GameOption("jokers", "bool", True,
                   "the deck has 2 Jokers; without, two Aces are taken out and Aces act as Jokers"),
    )

    # ------------------------------------------------------------------ setup

    def start(self) -> None:
        full = self.setup.options["mode"] == "full"
        jokers = self.setup.options["jokers"]
        deck = cards.full_deck(jokers)
        self.s = {
            "mode": self.setup.options["mode"],
            "size": len(deck),
            "pub": {"with_jokers": jokers, "deck": len(deck), "outside": [],
                    "players": [ledger.new_player() for _ in range(self.n)]},
            "ins": list(range(self.n)),
            "dealer": None, "active": None, "turns": 0, "dry": 0, "clears": 0, "elims": 0,
            "step": {"t": "dealer"}, "todo": [], "ctx": None, "over": None,
            "cards": None if not full else {
                "deck": deck, "outside": [],
                "hands": [[] for _ in range(self.n)], "pairs": [[] for _ in range(self.n)],
                "trips": [[] for _ in range(self.n)], "new": [[] for _ in range(self.n)],
                "blocked": [[] for _ in range(self.n)]},
        }

    @property
    def full(self) -> bool:
        return self.s["cards"] is not None

    def _pl(self, i: int) -> dict:
        return self.s["pub"]["players"][i]

    def _ins(self) -> list[int]:
        return self.s["ins"]  # kept in step with the ledger's "in" flags (see check_invariants)

    # ------------------------------------------------------------------ prompts

    def _prompt(self) -> Prompt | None:
        # Prompts are immutable and depend on few things: build each once (a Prompt costs
        # more than the rest of a simulated input).
        st = self.s["step"]
        t = st["t"]
        if t == "over":
            return None
        key = self._prompt_key(st, t)
        p = _PROMPTS.get(key)
        if p is None:
            if len(_PROMPTS) > 50_000:
                _PROMPTS.clear()
            p = _PROMPTS[key] = self._build_prompt(st, t)
        return p

    def _prompt_key(self, st: dict, t: str) -> tuple:
        s = self.s
        if t == "action":
            return (self.setup.players, t, s["active"])
        if t in ("target", "next"):
            return (self.setup.players, t, s["active"], st.get("a"), st.get("p"), tuple(self._ins()))
        if t in ("report", "report_value"):
            return (self.setup.players, t, st["p"], st["kind"] == "single", st.get("what"))
        if t in ("deal_shuffle", "clear_shuffle", "reshuffle"):
            return (t, len(s["cards"]["deck"]))
        if t == "redeal_shuffle":
            return (t, sum(map(len, s["cards"]["hands"])))
        if t == "give_card" and self.full:
            return (self.setup.players, t, s["active"], tuple(s["cards"]["hands"][s["active"]]))
        if t == "take_pick":
            return (self.setup.players, t, s["active"], len(s["cards"]["hands"][st["x"]]))
        return (self.setup.players, t, s["active"], st.get("x"), s["pub"]["with_jokers"])

    def _build_prompt(self, st: dict, t: str) -> Prompt:
        name = self.name
        if t == "action":
            a = self.s["active"]
            return Prompt(CHOICE, f"{name(a)}: your action?", player=a, options=ACTION_OPTIONS,
                          tag="action")
        if t in ("target", "next"):
            p = self.s["active"] if t == "target" else st["p"]
            text = _TARGET_TEXT[st["a"]] if t == "target" else "who goes next?"
            return Prompt(CHOICE, f"{name(p)}: {text}", player=p, options=self._in_options(), tag=t)
        if t == "report":
            p = st["p"]
            text = "did it lock?" if st["kind"] == "single" else "any (more) locks?"
            return Prompt(CHOICE, f"{name(p)}: {text}", player=p, options=REPORT_OPTIONS, tag="report")
        if t == "report_value":
            p = st["p"]
            text = "triplet of which value?" if st["what"] == "triplet" else "four of which value?"
            return Prompt(CHOICE, f"{name(p)}: {text}", player=p, options=VALUE_OPTIONS, tag="value")
        if t in ("deal_shuffle", "clear_shuffle", "reshuffle"):
            # secret: in full mode the order tells every hidden card
            n = len(self.s["cards"]["deck"])
            return Prompt(SHUFFLE, f"Shuffle the deck ({n} cards)", count=n, secret=True, tag=t)
        if t == "redeal_shuffle":
            n = sum(len(h) for h in self.s["cards"]["hands"])
            return Prompt(SHUFFLE, f"Shuffle the {n} mobile cards", count=n, secret=True, tag=t)
        if t == "give_card":
            a = self.s["active"]
            if self.full:
                opts = tuple(Option(cards.name(c), cards.name(c)) for c in self.s["cards"]["hands"][a])
                return Prompt(CHOICE, f"{name(a)}: give which card?", player=a, options=opts,
                              secret=True, tag=t)
            return Prompt(CHOICE, f"{name(a)}: give which card?", player=a,
                          options=GIVE_TABLE_OPTIONS, tag=t)
        if t == "take_pick":
            a, k = self.s["active"], len(self.s["cards"]["hands"][st["x"]])
            return Prompt(NUMBER, f"{name(a)}: pick a card, 1-{k}", player=a, low=1, high=k, tag=t)
        if t == "force_value":
            return Prompt(CHOICE, f"{name(st['x'])}: card shown?", player=st["x"],
                          options=SHOWN_OPTIONS[self.s["pub"]["with_jokers"]], tag=t)
        if t == "clear_with":
            a = self.s["active"]
            return Prompt(CHOICE, f"{name(a)}: clear with?", player=a,
                          options=CLEAR_OPTIONS[self.s["pub"]["with_jokers"]], tag=t)
        if t == "dealer":
            return choice("Who deals?", [(str(i), p) for i, p in enumerate(self.players)], tag=t)
        raise AssertionError(f"unknown step {t!r}")  # pragma: no cover

    def _in_options(self) -> tuple[Option, ...]:
        return tuple(Option(str(i), self.players[i]) for i in self._ins())

    # ------------------------------------------------------------------ checks

    # (step, {key: problem}): the bot's legal filter and _apply ask the same questions of the
    # same state; _apply drops it before changing anything (see _apply).
    _memo: tuple = (None, {})
    _victim_memo: tuple = (None, None, None)  # (state, turn, victim): see _top_card_victim

    def _problem(self, key: str) -> str | None:
        """Why the choice ``key`` is not allowed at the current step (None: allowed)."""
        st = self.s["step"]
        step, known = self._memo
        if step is not st:
            known = {}
            self._memo = (st, known)
        elif key in known:
            return known[key]
        t = st["t"]
        if t == "action":
            why = self._action_problem(key)
        elif t == "target":
            why = self._target_problem(st["a"], int(key))
        elif t == "report":
            why = self._report_problem(st, key)
        elif t == "next":
            why = self._next_problem(st["p"], int(key))
        elif t == "report_value":
            why = self._value_problem(st, key)
        elif t == "give_card":
            why = self._give_card_problem(key)
        elif t == "force_value":
            why = self._force_value_problem(st, key)
        elif t == "clear_with":
            why = self._clear_problem(key)
        else:
            why = None
        known[key] = why
        return why

    def _action_problem(self, a: str) -> str | None:
        s = self.s
        pub, me = s["pub"], s["active"]
        players = pub["players"]
        pl = players[me]
        if a == "draw" or a == "force":
            if pub["deck"] == 0:
                return "The deck is empty: nobody can draw. Give, take, Shuffle or Clear."
            return None
        if a == "give":
            if pl["mobile"] == 0:
                return "Your mobile hand is empty: there is nothing to give."
            c = s["cards"]
            if c is not None:
                free = len(c["hands"][me]) - len(c["blocked"][me])
            else:
                free = pl["mobile"] - pl["blocked"][0]
            if free < 1:
                return ("No-Give-Backs: every card in your mobile hand was just received. "
                        "Choose another action (a Shuffle gets rid of it).")
        if a == "take":
            for i in s["ins"]:
                if i != me and players[i]["mobile"]:
                    return None
            return "Nobody else has a card in their mobile hand: there is nothing to take."
        if a == "shuffle":
            for i in s["ins"]:
                if players[i]["mobile"]:
                    return None
            return "Every mobile hand is empty: there is nothing to shuffle."
        if a == "clear":
            kinds = CLEAR_OPTIONS[pub["with_jokers"]]
            problems = [self._clear_problem(o.key) for o in kinds]
            if all(problems):
                return problems[0] if len(problems) == 1 else " ".join(problems)
        return None

    def _clear_problem(self, kind: str) -> str | None:
        me = self.s["active"]
        uses = CLEAR_USES[kind]
        v, need = uses[0], len(uses)
        what = CLEAR_WORDS[kind]
        if self.s["cards"] is not None:  # holding them proves they are not Outside the Game
            if sum(map(_CARDS_OF_VALUE[v].__contains__, self.s["cards"]["hands"][me])) < need:
                return f"No Clear with {what}: you do not hold {what}."
            return None
        left = ledger.clear_cards_left(self.s["pub"])["jokers" if v == cards.JOKER else "aces"]
        if left < need:
            return f"No Clear with {what}: not enough left, the rest are Outside the Game."
        if self._pl(me)["mobile"] < need:
            return f"No Clear with {what}: your mobile hand is too small."
        return None

    def _target_problem(self, a: str, x: int) -> str | None:
        if x == self.s["active"]:
            return "You cannot choose yourself: choose another player."
        if a == "take" and self._pl(x)["mobile"] == 0:
            return f"{self.players[x]}'s mobile hand is empty: there is nothing to take."
        return None

    def _next_choices(self, chooser: int) -> list[int]:
        """Whom ``chooser`` may name to go next: anyone else, or by the Rule of 3 only
        another player showing a triplet."""
        players = self.s["pub"]["players"]
        others = [i for i in self._ins() if i != chooser]
        return [i for i in others if players[i]["trips"]] or others

    def _next_problem(self, chooser: int, x: int) -> str | None:
        if x == chooser:
            return "You cannot choose yourself: choose another player."
        showing = [i for i in self._ins() if i != chooser and self._pl(i)["trips"]]
        if showing and x not in showing:
            names = " or ".join(self.players[i] for i in showing)
            return f"Rule of 3: you must choose {names} (a triplet is showing)."
        return None

    def _give_card_problem(self, key: str) -> str | None:
        if not self.full:
            if key == "just_got":
                return ("No-Give-Backs: you cannot give a card you just received. "
                        "Give another card, or undo and choose another action.")
            return None
        card = cards.card_id(key)
        if card in self.s["cards"]["blocked"][self.s["active"]]:
            return (f"No-Give-Backs: you just got {key}; you may give it from your next turn "
                    "on. Give another card.")
        return None

    def _report_problem(self, st: dict, key: str) -> str | None:
        p, kind, v = st["p"], st["kind"], st.get("v")
        pl, who = self._pl(p), self.players[p]
        if key == "none":
            if v is not None and v in pl["trips"]:
                return f"{who} shows three {v}s: a fourth puts {who} out."
            most = len(cards.LOCKABLE)
            if pl["mobile"] > most:
                most += sum(ledger.clear_cards_left(self.s["pub"]).values())
            if pl["mobile"] > most:
                return (f"{who}'s mobile hand has {pl['mobile']} cards, but at most {most} can stay "
                        "unlocked (one of each value, Aces and Jokers): report the locks.")
            return None
        if v is not None and not cards.lockable(v):
            return "Aces and Jokers never lock."
        if key == "pair":
            if pl["mobile"] < 2:
                return f"{who} has fewer than two mobile cards: no pair can lock."
            if pl["pairs"] + len(pl["trips"]) >= len(cards.LOCKABLE):
                return f"{who} already has a locked set of every value."
            if v is not None and ledger.on_table(self.s["pub"], v) > 2:
                return f"Not two {v}s left: the others are face-up or Outside the Game."
            return None
        if key == "triplet":
            if pl["pairs"] < 1:
                return f"{who} has no locked pair to turn into a triplet."
            if pl["mobile"] < 1:
                return f"{who} has no mobile card left to join a pair."
            if v is not None:
                return self._value_problem({**st, "what": "triplet"}, v)
            return None
        # key == "out"
        if kind == "deal":
            if pl["pairs"] or pl["trips"]:
                return "Four of a kind is reported before any lock: undo the locks first."
            return None
        if kind == "single":
            if not pl["trips"]:
                return f"{who} shows no triplet: one card cannot make four of a kind."
            if v is not None and v not in pl["trips"]:
                return f"{who} shows no three {v}s: this {v} cannot make four."
            return None
        if ledger.held(pl) < 4:
            return f"{who} holds fewer than four cards."
        return None

    def _force_value_problem(self, st: dict, v: str, seen: int | None = None) -> str | None:
        """``seen``: the cards of ``v`` the table shows, when already counted."""
        if seen is None:
            seen = ledger.on_table(self.s["pub"], v)
        if cards.copies(v, self.s["pub"]["with_jokers"]) <= seen:
            return f"No {v} can be drawn: every {v} is face-up or Outside the Game."
        return None

    def _value_problem(self, st: dict, v: str, seen: int | None = None) -> str | None:
        """``seen``: the cards of ``v`` the table shows but ``st["p"]``'s, when already counted."""
        p = st["p"]
        pl, who = self._pl(p), self.players[p]
        if seen is None:
            seen = ledger.on_table(self.s["pub"], v, but=p)
        if st["what"] == "triplet":
            if v in pl["trips"]:
                return f"{who} already shows three {v}s: a fourth would put {who} out."
            if seen > 1:
                return f"Three {v}s cannot show: {seen} are face-up elsewhere or Outside the Game."
            return None
        if st["kind"] == "single":
            if v not in pl["trips"]:
                shown = ", ".join(pl["trips"])
                return f"{who} shows no three {v}s: only a triplet ({shown}) can make four."
            return None
        if seen:
            return f"Four {v}s cannot be {who}'s: {seen} are face-up elsewhere or Outside the Game."
        return None

    # ------------------------------------------------------------------ applying

    def _apply(self, inp: Input) -> list[Event]:
        st = self.s["step"]
        t = st["t"]
        if inp.kind == CHOICE:
            why = self._problem(inp.value)
            if why:
                raise IllegalInput(why)
        self._events: list[Event] = []
        try:
            getattr(self, "_on_" + t)(st, inp.value)
        finally:  # the state changes: what was allowed must be asked again
            self._memo = Lockdown._memo
        return self._events

    def _say(self, kind: str, text: str, player: int | None = None, private: bool = False,
             **data) -> None:
        self._events.append(Event(kind, text, player, private, data))

    # -- the deal

    def _on_dealer(self, st: dict, key: str) -> None:
        self.s["dealer"] = d = int(key)
        self._say("dealer", f"{self.players[d]} deals")
        if self.full:
            self.s["step"] = {"t": "deal_shuffle"}
        else:
            self._deal_table()

    def _deal_order(self) -> list[int]:
        d = self.s["dealer"]
        return [(d + 1 + k) % self.n for k in range(self.n)]

    def _deal_table(self) -> None:
        pub = self.s["pub"]
        pub["deck"] = self.s["size"]
        for p in range(self.n):
            pub["players"][p] = ledger.new_player()
            self._deal_to(p, 4)
        self.s["todo"] = [{"t": "report", "p": p, "left": 4, "kind": "deal"} for p in self._deal_order()]
        self.s["todo"].append({"t": "first"})
        self._run()

    def _deal_to(self, p: int, k: int) -> None:
        self.s["pub"]["deck"] -= k
        ledger.receive(self._pl(p), k, marked=False)

    def _on_deal_shuffle(self, st: dict, order: tuple) -> None:
        c = self.s["cards"]
        deck = c["deck"] = [c["deck"][i] for i in order]
        for p in self._deal_order():
            c["hands"][p], deck[:4] = deck[:4], []
            self._deal_to(p, 4)
        for p in range(self.n):
            hand = c["hands"][p]
            ranks = {cards.rank(x) for x in hand}
            if len(ranks) == 1 and 1 <= cards.rank(hand[0]) <= 12:
                self._say("misdeal", f"Misdeal: four {cards.value(hand[0])}s. Shuffle again")
                c["deck"] = [x for h in c["hands"] for x in h] + deck
                c["hands"] = [[] for _ in range(self.n)]
                self.s["pub"]["deck"] = self.s["size"]
                for pl in self.s["pub"]["players"]:
                    pl["mobile"] = 0
                return
        self.s["todo"] = []
        for p in self._deal_order():
            self._settle(p, list(c["hands"][p]), single=False)
        self.s["todo"].append({"t": "first"})
        self._run()

    # -- the turn

    def _on_action(self, st: dict, a: str) -> None:
        me = self.s["active"]
        self.s["ctx"] = {"actor": me, "affected": None, "elim": False, "ins": list(self._ins())}
        self.s["todo"] = []
        if a in _TARGET_TEXT:
            st = self.s["step"] = {"t": "target", "a": a}
            ins = self.s["ins"]
            if a == "take" or len(ins) == 2:  # else anyone of two or more others may be chosen
                legal = [i for i in ins if self._target_problem(a, i) is None]
                if len(legal) == 1:  # nothing to choose
                    self._on_target(st, str(legal[0]))
        elif a == "draw":
            self._say("draw", f"{self.players[me]} drew a card", me)
            self._draw(me)
            self._after_action()
        elif a == "shuffle":
            if self.full:
                self.s["step"] = {"t": "redeal_shuffle"}
            else:
                self._redeal(None)
        else:  # clear
            kinds = [o.key for o in CLEAR_OPTIONS[self.s["pub"]["with_jokers"]]
                     if self._clear_problem(o.key) is None]
            if len(kinds) == 1:
                self._clear(kinds[0])
            else:
                self.s["step"] = {"t": "clear_with"}

    def _on_target(self, st: dict, key: str) -> None:
        me, x, a = self.s["active"], int(key), st["a"]
        self.s["ctx"]["affected"] = x
        if a == "give":
            pl = self._pl(me)
            if self.full or pl["blocked"][1] > 0:
                self.s["step"] = {"t": "give_card", "x": x}
            else:
                self._give(x, None)
        elif a == "take":
            if self.full:
                self.s["step"] = {"t": "take_pick", "x": x}
            else:
                self._take(x, None)
        elif self.full:  # force: the top card, shown to all
            card = self.s["cards"]["deck"].pop(0)
            self._forced_draw(x, cards.value(card), card)
        else:
            self.s["step"] = {"t": "force_value", "x": x}

    def _on_give_card(self, st: dict, key: str) -> None:
        self._give(st["x"], cards.card_id(key) if self.full else None)

    def _give(self, x: int, card: int | None) -> None:
        me = self.s["active"]
        self._say("give", f"{self.players[me]} gave {self.players[x]} a card", me, to=x)
        ledger.give_unblocked(self._pl(me))
        if card is not None:
            self._drop(me, card)
        self._receive(x, card, marked=True)
        self._after_action()

    def _on_take_pick(self, st: dict, k: int) -> None:
        x = st["x"]
        self._take(x, self.s["cards"]["hands"][x][k - 1])

    def _take(self, x: int, card: int | None) -> None:
        me = self.s["active"]
        self._say("take", f"{self.players[me]} took a card from {self.players[x]}", me, source=x)
        ledger.lose_unseen(self._pl(x))
        if card is not None:
            self._drop(x, card)
            self._say("got", f"You took {cards.name(card)}", me, private=True, card=cards.name(card))
        self._receive(me, card, marked=True)
        self._after_action()

    def _on_force_value(self, st: dict, v: str) -> None:
        self._forced_draw(st["x"], v, None)

    def _forced_draw(self, x: int, v: str, card: int | None) -> None:
        """``x`` draws the top card (``card`` in full mode) and shows it: a ``v``."""
        me = self.s["active"]
        self._say("force", f"{self.players[me]} makes {self.players[x]} draw", me)
        self._say("shown", f"{self.players[x]} drew {_a(v)} (shown)", x, value=v)
        self.s["pub"]["deck"] -= 1
        self._receive(x, card, marked=True, shown=v)
        self._after_action()

    def _draw(self, p: int) -> None:
        """``p`` draws the top card face-down (full mode: only ``p`` is told which)."""
        self.s["pub"]["deck"] -= 1
        card = None
        if self.full:
            card = self.s["cards"]["deck"].pop(0)
            n = cards.name(card)
            self._say("got", f"You drew {n}", p, private=True, card=n)
        self._receive(p, card, marked=True)

    def _drop(self, p: int, card: int) -> None:
        c = self.s["cards"]
        c["hands"][p].remove(card)
        for lst in (c["new"][p], c["blocked"][p]):
            if card in lst:
                lst.remove(card)

    def _receive(self, p: int, card: int | None, marked: bool, shown: str | None = None) -> None:
        """One card reaches ``p``'s mobile hand (an unknown one in table mode)."""
        pl = self.s["pub"]["players"][p]
        ledger.receive(pl, 1, marked)
        if card is not None:
            c = self.s["cards"]
            c["hands"][p].append(card)
            if marked:
                c["new"][p].append(card)
            self._settle(p, [card], single=True)
        elif shown is not None and shown in pl["trips"]:
            self._eliminate(p, shown)  # a shown card completing a triplet: nothing to ask
        else:
            self.s["todo"].append({"t": "report", "p": p, "left": 1, "kind": "single", "v": shown})

    # -- shuffle, Clear

    def _on_redeal_shuffle(self, st: dict, order: tuple) -> None:
        self._redeal(order)

    def _redeal(self, order: tuple | None) -> None:
        me = self.s["active"]
        ins = self._ins()
        total = sum(self._pl(i)["mobile"] for i in ins)
        self._say("shuffle", f"{self.players[me]} shuffled {total} mobile cards", me)
        for i in ins:
            pl = self._pl(i)
            pl["blocked"], pl["new"] = [0, 0], [0, 0]
        if order is None:
            for i in ins:
                if self._pl(i)["mobile"]:
                    self.s["todo"].append({"t": "report", "p": i, "left": self._pl(i)["mobile"],
                                           "kind": "batch"})
        else:
            c = self.s["cards"]
            pool = [x for i in ins for x in c["hands"][i]]
            pool = [pool[k] for k in order]
            for i in ins:
                k = len(c["hands"][i])
                c["hands"][i], pool[:k] = pool[:k], []
                c["new"][i], c["blocked"][i] = [], []
            for i in ins:
                if c["hands"][i]:
                    self._settle(i, list(c["hands"][i]), single=False)
        self._after_action()

    def _on_clear_with(self, st: dict, kind: str) -> None:
        self._clear(kind)

    def _clear(self, kind: str) -> None:
        me, pub = self.s["active"], self.s["pub"]
        pl = self._pl(me)
        used = CLEAR_USES[kind]
        pub["outside"].extend(used)
        back = ledger.held(pl) - len(used)
        pub["deck"] += back
        ledger.empty(pl)
        self.s["clears"] += 1
        self._say("clear", f"{self.players[me]} cleared with {CLEAR_WORDS[kind]}", me,
                  used=list(used))
        if self.full:
            c = self.s["cards"]
            hand = c["hands"][me]
            for v in used:
                card = next(x for x in hand if cards.value(x) == v)
                hand.remove(card)
                c["outside"].append(card)
            c["deck"].extend(hand)
            for pair in c["pairs"][me]:
                c["deck"].extend(pair)
            for trip in c["trips"][me]:
                c["deck"].extend(trip)
            c["hands"][me], c["pairs"][me], c["trips"][me] = [], [], []
            c["new"][me], c["blocked"][me] = [], []
            if c["deck"]:
                self.s["step"] = {"t": "clear_shuffle"}
                return
        self._clear_draw(me)

    def _on_clear_shuffle(self, st: dict, order: tuple) -> None:
        c = self.s["cards"]
        c["deck"] = [c["deck"][i] for i in order]
        self._clear_draw(self.s["active"])

    def _clear_draw(self, me: int) -> None:
        k = min(4, self.s["pub"]["deck"])
        self._deal_to(me, k)
        self._say("redraw", f"{self.players[me]} drew {k} new cards", me)
        if self.full:
            c = self.s["cards"]
            got, c["deck"][:k] = c["deck"][:k], []
            c["hands"][me] = list(got)
            self._say("got", "You drew " + " ".join(map(cards.name, got)), me, private=True,
                      cards=[cards.name(x) for x in got])
            self._settle(me, got, single=False)
        elif k:
            self.s["todo"].append({"t": "report", "p": me, "left": k, "kind": "clear"})
        self._after_action()

    # -- locking and elimination

    def _settle(self, p: int, got: list[int], single: bool) -> None:
        """Full mode: lock what the cards ``got`` make lock in ``p``'s hand."""
        if len(got) == 1 and not 4 <= got[0] < 52:
            return  # an Ace or a Joker: it never locks
        c, value_of = self.s["cards"], cards.VALUE_OF
        hand, pairs, trips = c["hands"][p], c["pairs"][p], c["trips"][p]
        steps = cards.lock_steps(hand, [value_of[x[0]] for x in pairs] if pairs else (),
                                 [value_of[x[0]] for x in trips] if trips else (), got)
        for what, v in steps:
            if what == "out":
                self._eliminate(p, v)
                return
            if what == "pair":
                two = [x for x in hand if value_of[x] == v][:2]
                for x in two:
                    self._drop(p, x)
                pairs.append(two)
                self._lock(p, "pair", v, single)
            else:
                one = next(x for x in hand if value_of[x] == v)
                self._drop(p, one)
                pair = next(x for x in pairs if value_of[x[0]] == v)
                pairs.remove(pair)
                trips.append(pair + [one])
                self._lock(p, "triplet", v, single)

    def _lock(self, p: int, what: str, v: str, single: bool) -> None:
        pl, who = self._pl(p), self.players[p]
        if what == "pair":
            ledger.lock_pair(pl, single)
            self._say("pair", f"{who} locked a pair", p)
        else:
            ledger.reveal_triplet(pl, v, single)
            self._say("triplet", f"{who} shows three {v}s", p, value=v)

    def _eliminate(self, p: int, v: str) -> None:
        pub, pl = self.s["pub"], self._pl(p)
        back = ledger.held(pl) - 4
        pub["deck"] += back
        pub["outside"].extend([v] * 4)
        ledger.empty(pl)
        pl["in"], pl["four"] = False, v
        self.s["ins"] = [i for i in self.s["ins"] if i != p]
        self.s["elims"] += 1
        self.s["dry"] = 0
        ctx = self.s["ctx"]
        if ctx is not None and p != ctx["actor"]:
            ctx["elim"] = True
        self._say("out", f"{self.players[p]} is out: four {v}s", p, value=v)
        if self.full:
            c = self.s["cards"]
            held = c["hands"][p] + [x for s in c["pairs"][p] + c["trips"][p] for x in s]
            c["outside"].extend(x for x in held if cards.value(x) == v)
            c["deck"].extend(x for x in held if cards.value(x) != v)
            c["hands"][p], c["pairs"][p], c["trips"][p] = [], [], []
            c["new"][p], c["blocked"][p] = [], []
            if back and len(self._ins()) > 1 and {"t": "reshuffle"} not in self.s["todo"]:
                self.s["todo"].append({"t": "reshuffle"})

    def _on_reshuffle(self, st: dict, order: tuple) -> None:
        c = self.s["cards"]
        c["deck"] = [c["deck"][i] for i in order]
        self._run()

    # -- table reports

    def _on_report(self, st: dict, key: str) -> None:
        p, v = st["p"], st.get("v")
        single = st["kind"] == "single"
        if key == "none":
            self._run()
        elif key == "pair":
            self._lock(p, "pair", v, single)
            self._report_next(st)
        elif key == "triplet":
            if v is None:
                self.s["step"] = {**st, "t": "report_value", "what": "triplet"}
            else:
                self._lock(p, "triplet", v, single)
                self._report_next(st)
        elif st["kind"] == "deal":
            self._say("misdeal", f"Misdeal: {self.players[p]} got four of a kind. Deal again")
            self._deal_table()
        else:
            pl = self._pl(p)
            if v is None and single and len(pl["trips"]) == 1:
                v = pl["trips"][0]
            if v is None:
                self.s["step"] = {**st, "t": "report_value", "what": "out"}
            else:
                self._eliminate(p, v)
                self._run()

    def _on_report_value(self, st: dict, v: str) -> None:
        p = st["p"]
        if st["what"] == "out":
            self._eliminate(p, v)
            self._run()
        else:
            self._lock(p, "triplet", v, st["kind"] == "single")
            back = {k: x for k, x in st.items() if k != "what"}
            self._report_next({**back, "t": "report"})

    def _report_next(self, st: dict) -> None:
        if st["left"] > 1:
            self.s["todo"].insert(0, {**st, "left": st["left"] - 1})
        self._run()

    def _report_needed(self, st: dict) -> bool:
        self.s["step"] = st
        return any(self._report_problem(st, k) is None for k in ("pair", "triplet", "out"))

    # -- who goes next

    def _after_action(self) -> None:
        self.s["todo"].append({"t": "after"})
        self._run()

    def _run(self) -> None:
        """Move on to the next step that needs an input, doing the automatic ones."""
        s = self.s
        ins = self._ins()
        if len(ins) <= 1:  # whatever was still to do, the game is over
            s["todo"] = []
            if ins:
                self._end(ins, "last")
            else:  # one action put out everyone left: they share the game
                self._end(s["ctx"]["ins"], "all out")
            return
        while True:
            st = s["todo"].pop(0)
            t = st["t"]
            if t == "after":
                self._after()
            elif t == "first":
                self._start_turn(s["dealer"])
            elif t == "report" and not self._report_needed(st):
                continue
            else:
                s["step"] = st
            return

    def _after(self) -> None:
        s = self.s
        ins = s["ins"]
        if len(ins) <= 1:
            self._end(ins, "last")
            return
        ctx, players = s["ctx"], s["pub"]["players"]
        a, x = ctx["actor"], ctx["affected"]
        if ctx["elim"] and players[a]["in"]:
            self._say("again", f"{self.players[a]} goes again", a)
            self._start_turn(a)
        elif x is not None and players[x]["in"]:
            self._start_turn(x)
        else:
            legal = self._next_choices(a)
            if len(legal) == 1:  # nothing to choose (two players left, or the Rule of 3)
                self._say("next", f"{self.players[legal[0]]} goes next", legal[0])
                self._start_turn(legal[0])
            else:
                self.s["step"] = {"t": "next", "p": a}

    def _on_next(self, st: dict, key: str) -> None:
        self._start_turn(int(key))

    def _start_turn(self, p: int) -> None:
        s, pub = self.s, self.s["pub"]
        ins = s["ins"]
        if pub["deck"] == 0:
            if not any(pub["players"][i]["mobile"] for i in ins):
                self._end(ins, "stalemate")
                return
            s["dry"] += 1
            if s["dry"] > DRY_ROUNDS * len(ins):
                self._end(ins, "stalemate")
                return
        else:
            s["dry"] = 0
        ledger.start_turn(pub["players"][p])
        c = s["cards"]
        if c is not None:
            c["blocked"][p], c["new"][p] = c["new"][p], []
        s["active"], s["ctx"] = p, None
        s["turns"] += 1
        s["step"] = {"t": "action"}

    def _end(self, ins: list[int], why: str) -> None:
        self.s["over"] = {"winners": list(ins), "why": why}
        self.s["step"] = {"t": "over"}
        self.s["active"] = None
        names = [self.players[i] for i in ins]
        if why == "last":
            self._say("win", f"{names[0]} wins!", ins[0])
        elif why == "stalemate":
            self._say("draw", "Stalemate: " + ", ".join(names) + " share the win")
        else:
            self._say("draw", "All out at once: " + ", ".join(names) + " share the win")

    # ------------------------------------------------------------------ views

    def score(self) -> dict:
        pub, over = self.s["pub"], self.s["over"]
        ins = self._ins()
        points = {self.players[i]: int(pl["in"]) for i, pl in enumerate(pub["players"])}
        if over is None:
            return {"text": f"{len(ins)} in, deck {pub['deck']}", "points": points, "winners": []}
        winners = [self.players[i] for i in over["winners"]]
        text = f"{winners[0]} wins" if over["why"] == "last" else f"Draw: {len(winners)} share"
        return {"text": text[:20], "points": points, "winners": winners, "why": over["why"]}

    def public_view(self) -> dict:
        s, pub = self.s, self.s["pub"]
        p = self.prompt()
        players = []
        for i, pl in enumerate(pub["players"]):
            players.append({"name": self.players[i], "in": pl["in"], "mobile": pl["mobile"],
                            "pairs": pl["pairs"], "triplets": list(pl["trips"]),
                            "out_with": pl["four"],
                            "just_received": {"blocked": list(pl["blocked"]), "new": list(pl["new"])}})
        showing = [self.players[i] for i in self._ins() if self._pl(i)["trips"]]
        return {
            "mode": s["mode"], "jokers": pub["with_jokers"],
            "dealer": None if s["dealer"] is None else self.players[s["dealer"]],
            "active": None if s["active"] is None else self.players[s["active"]],
            "to_act": None if p is None or p.player is None else self.players[p.player],
            "step": s["step"]["t"], "turns": s["turns"],
            "deck": pub["deck"], "outside": list(pub["outside"]),
            "clear_cards_left": ledger.clear_cards_left(pub),
            "rule_of_3": showing, "players": players,
            "deck_empty_turns": s["dry"],
            "winners": None if s["over"] is None else [self.players[i] for i in s["over"]["winners"]],
        }

    def private_view(self, player: int) -> dict:
        if not self.full:
            return {}
        c = self.s["cards"]
        def names(xs: list[int]) -> list[str]:
            return [cards.name(x) for x in xs]

        return {"mobile": names(c["hands"][player]),
                "pairs": [names(x) for x in c["pairs"][player]],
                "triplets": [names(x) for x in c["trips"][player]],
                "cannot_give": names(c["blocked"][player]),
                "just_received": names(c["new"][player])}

    def stats(self) -> dict[str, float]:
        over = self.s["over"]
        return {"score": 1.0, "turns": float(self.s["turns"]), "eliminations": float(self.s["elims"]),
                "clears": float(self.s["clears"]),
                "stalemate": float(over is not None and over["why"] == "stalemate")}

    # ------------------------------------------------------------------ checks

    def check_invariants(self) -> None:
        s, pub = self.s, self.s["pub"]
        deck = pub["deck"]
        assert deck >= 0, "the deck is negative"
        # One pass over the players; in table mode it also counts every card the ledger knows
        # of (deck, Outside the Game, each hand as ledger.held counts it: the total must stay
        # the deck's size) and the values of the face-up triplets.
        table = s["cards"] is None
        total, shown, ins, i = deck + len(pub["outside"]), [], [], -1
        for is_in, m, pairs, trips, b, n, four in map(_LEDGER_ROW, pub["players"]):
            i += 1
            if not is_in:
                assert not (m or pairs or trips) and four, f"player {i} is out but holds cards"
                continue
            ins.append(i)
            # (0 <= b[0] <= m also proves the mobile count is not negative)
            assert 0 <= b[0] <= b[1] <= m and 0 <= n[0] <= n[1] <= m and pairs >= 0, \
                f"player {i}: a negative count or a bad No-Give-Backs range {b} {n}"
            if table:
                total += m + 2 * pairs + 3 * len(trips)
                if trips:
                    shown += trips
        if table:  # full mode: _check_cards proves these and more
            assert total == s["size"], "cards are not conserved"
            outside = pub["outside"]
            if shown or outside:
                copies = _COPIES[pub["with_jokers"]]
                for v in set(shown).union(outside):
                    assert outside.count(v) + 3 * shown.count(v) <= copies[v], \
                        f"too many {v}s on the table"
        assert s["ins"] == ins, "the list of players still in is stale"
        if s["over"] is None:
            assert len(ins) >= 2, "one player left but the game goes on"
            if s["step"]["t"] in _ACTING_STEPS:
                assert pub["players"][s["active"]]["in"], "an eliminated player is acting"
        else:
            assert s["over"]["winners"] == ins or (not ins and s["over"]["why"] == "all out")
        if s["cards"] is not None and (s["step"]["t"] == "action" or s["over"] is not None):
            # The full card audit at every turn's start and at the end: every card movement
            # is proven before anyone acts again (the cheap ledger checks above run always).
            self._check_cards()

    def _check_cards(self) -> None:
        """Full mode: the ledger says what the cards say, and every card is somewhere once."""
        c, pub = self.s["cards"], self.s["pub"]
        deck, outside = c["deck"], c["outside"]
        assert len(deck) == pub["deck"], "deck size differs from the cards"
        every = deck + outside
        p = -1
        for (_, m, npairs, shown, rb, rn, _), hand, pairs, trips, b, n in zip(
                map(_LEDGER_ROW, pub["players"]), c["hands"], c["pairs"], c["trips"], c["blocked"],
                c["new"]):
            p += 1
            assert (len(hand) == m and len(pairs) == npairs
                    and rb[0] <= len(b) <= rb[1] and rn[0] <= len(n) <= rn[1]), \
                f"player {p}: the ledger's counts or just-received range differ from the cards"
            if b or n:
                assert set(hand).issuperset(b + n), f"player {p}: a just-received card not in hand"
            if not (hand or pairs or trips or shown):
                continue  # an empty seat: nothing more to prove
            every += hand
            # The rank of each lockable mobile card and locked set: all must differ.
            keys = list(map(_LOCK_KEY.__getitem__, hand))
            for x, y in pairs:
                assert x >> 2 == y >> 2 and 4 <= x < 52, f"player {p}: a pair that is no pair"
                keys.append(x >> 2)
                every += (x, y)
            if trips or shown:
                assert [_VALUE_OF[t[0]] for t in trips] == shown, f"player {p}: triplets differ"
                for x, y, z in trips:
                    assert x >> 2 == y >> 2 == z >> 2, f"player {p}: a triplet that is no triplet"
                    keys.append(x >> 2)
                    every += (x, y, z)
            assert len(set(keys)) == len(keys), \
                f"player {p}: a hand holds cards that should have locked (or a card twice)"
        every.sort()
        assert every == _DECKS[pub["with_jokers"]], "cards lost or duplicated"
        if outside or pub["outside"]:
            assert sorted(map(_VALUE_OF.__getitem__, outside)) == sorted(pub["outside"]), \
                "outside differs"

    # ------------------------------------------------------------------ bots

    def bot_input(self, prompt: Prompt, rng) -> Input | None:
        """A legal choice, weighted like a player who wants the others out: hand a player
        showing a triplet its fourth card when holding it (full mode), force a draw on whom
        the top card hurts most, give cards to and force draws on players with locked cards.
        Table-mode reports rarely claim a misdeal. Uniform picks make games several times
        longer without testing anything more."""
        if prompt.kind != CHOICE:
            return None
        st = self.s["step"]
        t = st["t"]
        if t == "next":
            return _choice(str(rng.choice(self._next_choices(st["p"]))), prompt.player)
        if t in ("action", "target", "give_card") and self.full:
            key = self._killer_move(t, st, rng)
            if key is not None and self._problem(key) is None:
                return _choice(key, prompt.player)
        legal = self._legal_keys(prompt, st, t)
        if not legal:
            return None
        if t == "action":
            weights = [BOT_ACTION_WEIGHTS[k] for k in legal]
        elif t == "report":
            table = BOT_DEAL_REPORT_WEIGHTS if st["kind"] == "deal" else BOT_REPORT_WEIGHTS
            weights = [table[k] for k in legal]
        elif t == "target" and st["a"] != "take":
            weights = [1 + 4 * len(self._pl(int(k))["trips"]) + self._pl(int(k))["pairs"] for k in legal]
        else:
            return _choice(rng.choice(legal), prompt.player)
        return _choice(rng.choices(legal, weights)[0], prompt.player)

    def _legal_keys(self, prompt: Prompt, st: dict, t: str) -> list[str]:
        """The options allowed now (each answer kept for _apply, see _problem)."""
        if t not in ("report_value", "force_value"):
            return [o.key for o in prompt.options if self._problem(o.key) is None]
        # 12 to 14 values to check: count what the table shows once, not once a value.
        counts = ledger.table_counts(self.s["pub"], but=st["p"] if t == "report_value" else None)
        check = self._value_problem if t == "report_value" else self._force_value_problem
        if self._memo[0] is not st:
            self._memo = (st, {})
        known = self._memo[1]
        legal = []
        for o in prompt.options:
            why = known[o.key] = check(st, o.key, counts.get(o.key, 0))
            if why is None:
                legal.append(o.key)
        return legal

    def _killer_move(self, t: str, st: dict, rng) -> str | None:
        """Full-mode bots: the choice that hurts another player most, if one does."""
        gift = self._fourth_card_gift() if t != "target" or st["a"] == "give" else None
        if gift is not None and (t != "action" or rng.random() < 0.9):
            return {"action": "give", "target": str(gift[1]), "give_card": cards.name(gift[0])}[t]
        if t == "action" or (t == "target" and st["a"] == "force"):
            victim = self._top_card_victim()
            if victim is not None:
                return "force" if t == "action" else str(victim)
        return None

    def _top_card_victim(self) -> int | None:
        """The player (not the active one) the deck's top card hurts most, if any.

        The bots peek at hidden cards: they are there to drive whole games through the
        rules, and peeking bots end them in half the turns of bots that only see their
        own hand."""
        s = self.s
        deck = s["cards"]["deck"]
        if not deck:
            return None
        # Asked at a turn's action step and again at its target step, and no card moves in
        # between (every action step starts a new turn): work it out once a turn.
        key = (s["turns"], s["active"], len(deck), deck[0])
        memo = self._victim_memo
        if memo[0] is s and memo[1] == key:
            return memo[2]
        victim, held = self._most_hurt(_VALUE_OF[deck[0]])
        victim = victim if held else None
        self._victim_memo = (s, key, victim)
        return victim

    def _most_hurt(self, v: str) -> tuple[int | None, int]:
        """(player, how many ``v`` they hold): another player holding the most cards of ``v``."""
        s = self.s
        c, me, players = s["cards"], s["active"], s["pub"]["players"]
        hands, all_pairs = c["hands"], c["pairs"]
        is_v = _CARDS_OF_VALUE[v].__contains__
        best, victim = 0, None
        for i in s["ins"]:
            if i != me:
                n = sum(map(is_v, hands[i]))
                if v in players[i]["trips"]:
                    n += 3
                elif any(is_v(x[0]) for x in all_pairs[i]):
                    n += 2
                if n > best:
                    best, victim = n, i
        return victim, best

    def _fourth_card_gift(self) -> tuple[int, int] | None:
        """(card, player): a card the active player may give that completes a triplet."""
        s = self.s
        me, c, players = s["active"], s["cards"], s["pub"]["players"]
        if not any(map(_TRIPS_OF, players)):
            return None  # no triplet shows (the common case): no fourth card to give
        showing = {v: i for i in s["ins"] if i != me for v in players[i]["trips"]}
        if showing:
            blocked = c["blocked"][me]
            for card in c["hands"][me]:
                v = _VALUE_OF[card]
                if v in showing and card not in blocked:
                    return card, showing[v]
        return None


GAME = Lockdown
