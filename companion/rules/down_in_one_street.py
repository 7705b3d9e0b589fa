"""Down-in-one Street (rulebook v1.0), enforced in full: a cooperative party game.

The game as implemented, stage by stage (the Restriction cards are defined and read in
:mod:`companion.rules.dios_cards`):

0. The group names the player who most recently observed a COVID restriction: they host
   first; hosting then passes to the left (the next seat) after every party.
1. New Lockdown: the group goes through the seven Restriction cards in a fixed order, one
   question each: its number or option for a customisable card (0 / "Not used" leaves it
   out), "Use it" / "Not used" for the others. The "anywhere" limit must be at least
   double the "indoor" one when both are used. One coin per card used goes into the Case
   Numbers pile; a new lockdown builds a new pile.
2. Invitation: the host sets venue (indoor/outdoor), size (small/medium/large, which has
   no effect) and length in minutes (0 = omitted, allowed only when the max-length card is
   not in force). Attendees start at the number of players.
3. Planning: eight actions split evenly (2p: 4 each; 3p: 2/3; 4p: 2; 5-7p: 1/2; 8p: 1); the
   host picks, one at a time, which players do a remainder action (at most one extra
   each). Each player then secretly picks each of their actions (repeats allowed): Invite
   1/2/4/8, Get drinks in, Arrange karaoke, Bring a work thing. When the last one is in,
   the plans are revealed from the host leftwards and each Invite adds to the attendees.
4. Masking Up, only when a masks card applies to this party (everywhere, or indoors and
   the party is indoors): each player secretly picks mask on/off; when all have picked,
   the masks are revealed; if at least half the players are unmasked the card is broken.
5. Partying, from the host leftwards, each player openly picks at most one action: Dance,
   Sing (only offered if karaoke was arranged), Open/Close windows (closed at first, each
   use toggles them), Destroy some evidence, Do a work thing, or nothing. Dancing breaks
   social distancing at the first dancer (5+ players: the second). Singing breaks no
   singing. Then, at an indoor party with the windows card, closed windows break it.
6. Guest Behaviour, in the rulebook's order, each only when it applies:
   uninvited guests (one die per player who planned any Invite; 1-3 adds that many),
   overstaying (max-length card in force and not broken: +10 min per Get drinks in, then
   one die per work thing added as minutes; broken if the length exceeds the limit),
   dancing (social distancing in force and not broken: die + 1 per five guests, 6+ breaks),
   singing (no singing in force and not broken and karaoke arranged: die + 1 per Get drinks
   in, 5+ breaks).
7. Cover Up: no restriction broken: no points, no roll. Otherwise roll 8 minus the number
   broken; success if the total >= attendees minus evidence destroyed, scoring attendees x
   restrictions broken. On failure, each work thing gives one reroll, "one die (which)" or
   "all dice", chosen by the group, until the roll succeeds or the rerolls run out; still
   failing: the party scores its attendees (no multiplier) and the game is over, shown as
   "X points in Y lockdowns".
8. Case Numbers: flip every coin in the pile, remove the tails. Two or more left: the
   lockdown continues with the next host; fewer: a new lockdown (Stage 1) with the next
   player hosting its first party.

Readings where the rulebook is silent or ambiguous (each is tested):

* Reading: the first host is asked of the group as one choice among the players, before
  the first lockdown's cards are chosen.
* Reading: a new lockdown builds a new Case Numbers pile: the coin (or none) left from the
  last lockdown is set aside, and one coin is placed per card used in the new one.
* Reading: a lockdown needs at least one Restriction card (with none, nothing can be
  broken, no cover up is ever rolled and the game could never end); leaving out the last
  card when none is used is refused.
* Reading: the "maximum number of people" cards are checked whenever the attendee count
  changes and once the venue is known: when the host sets the venue (attendees = players),
  after each revealed Invite action (in reveal order), and after each uninvited-guests die.
  The first moment the count exceeds a limit breaks that card, with an event.
* Reading: a length set by the host above the max-length limit breaks that card at once
  (the rulebook flips a card as soon as it is broken); overstaying is then skipped, as the
  card is already broken. A length may be 0 (omitted) only without the max-length card.
* Reading: the host's remainder picks are open (not secret) and give at most one extra
  action per player, as the printed "2/3" and "1/2" splits say.
* Reading: secret planning is asked one action slot at a time, players in order from the
  host; nothing a player planned appears in public (view or events) until all plans are
  in, then they are revealed in order from the host. Masks likewise.
* Reading: "Do a work thing" is always on the Partying card; it has effect only with 5+
  players, where the work things that count for the rest of the party (overstay dice and
  cover-up rerolls) are min(brought, done). With 2-4 players every brought one counts.
* Reading: the uninvited-guests dice may be rolled one at a time or several at once; they
  are assigned to the inviting players in order from the host.
* Reading: "guests" for the dancing roll are attendees minus players, uninvited included.
* Reading: a roll whose outcome is already certain (e.g. singing with 4 drinks) is still
  rolled, as the rulebook says to roll.
* Reading: the party's score is its full attendee count (evidence only lowers the cover-up
  target). A failed party's attendees are added to the total before the game ends.
* Reading: a reroll of "one die" when only one die is rolled is the same as "all"; only
  "reroll the die" is offered then.
* Reading: the coins are flipped even when the outcome cannot matter (one coin left).
* Reading: the game is cooperative: ``score()`` gives ``{"team": X}`` and, once it is over,
  ``winners == ["team"]``; ``result`` is the rulebook's "X points in Y lockdowns".
"""

from __future__ import annotations

from functools import cached_property

from companion.rules.core import (COINS, DICE, HEADS, NUMBER, Event, Game, IllegalInput, Input,
                                  Option, Prompt, choice)
from companion.rules.dios_bot import bot_answer
from companion.rules.dios_cards import (ANYWHERE_MAX, CARD_ORDER, CARD_PROMPTS, CARDS, DISTANCING,
                                        INDOOR_MAX, INVITES, MASKS, MASKS_EVERYWHERE, MAX_LENGTH,
                                        MAX_MINUTES, NO_SINGING, PLAN_ACTIONS, SKIP, WINDOWS,
                                        card_label)

TEAM_ACTIONS = 8  # the team always has eight planning actions between them

PLAN_LABELS = dict(PLAN_ACTIONS)
PLAN_OPTIONS = tuple(Option(k, label) for k, label in PLAN_ACTIONS)
_YOU_PLAN = {k: f"You plan: {label}" for k, label in PLAN_ACTIONS}

VENUE_OPTIONS = (Option("indoor", "Indoor"), Option("outdoor", "Outdoor"))
SIZE_OPTIONS = (Option("small", "Small"), Option("medium", "Medium"), Option("large", "Large"))
MASK_OPTIONS = (Option("on", "Wear a mask"), Option("off", "No mask"))


def _party_options(karaoke: bool, windows_open: bool) -> tuple[Option, ...]:
    opts = [Option("dance", "Dance")]
    if karaoke:  # "Sing" is only available if someone arranged karaoke
        opts.append(Option("sing", "Sing"))
    opts += [Option("windows", "Close windows" if windows_open else "Open windows"),
             Option("evidence", "Destroy some evidence"), Option("work", "Do a work thing"),
             Option("none", "Nothing")]
    return tuple(opts)


# The four possible Partying cards, built once.
PARTY_OPTIONS = {(k, w): _party_options(k, w) for k in (False, True) for w in (False, True)}

PRE_PARTY_PHASES = ("first-host", "card")
PHASES = PRE_PARTY_PHASES + (
    "venue", "size", "length", "extra", "plan", "mask", "party", "uninvited", "overstay",
    "dance-roll", "sing-roll", "cover-up", "reroll-choice", "reroll", "case-numbers", "over")

# Prompts depend on a few values only; games with the same players share them (a replay
# or a simulation asks the same ones thousands of times). Bounded: cleared when full.
_PROMPT_MEMOS: dict[tuple[str, ...], dict] = {}


def _plural(k: int, one: str, many: str) -> str:
    return f"{k} {one if k == 1 else many}"


def result_text(points: int, lockdowns: int) -> str:
    """The rulebook's final score format, "X points in Y lockdowns"."""
    return f"{_plural(points, 'point', 'points')} in {_plural(lockdowns, 'lockdown', 'lockdowns')}"


class DownInOneStreet(Game):
    """The whole rulebook as a state machine; see the module docstring."""

    game_id = "down-in-one-street"
    title = "Down-in-one Street"
    min_players, max_players = 2, 8

    @cached_property
    def n(self) -> int:  # type: ignore[override]  # asked at every step: count once
        return len(self.setup.players)

    # ------------------------------------------------------------------ state

    def start(self) -> None:
        self.s = {
            "phase": "first-host",
            "lockdown": 0,      # the current lockdown number (Y in the final score)
            "host": None,       # seat of the current (or next) host
            "cards": {},        # card key -> its setting (True if none), in force this lockdown
            "card_i": 0,        # which card of CARD_ORDER the group is deciding
            "coins": 0,         # the Case Numbers pile
            "party": None,
            "log": [],          # the Party Log: one entry per party
            "total": 0,
        }

    def _new_party(self) -> dict:
        n = self.n
        return {
            "host": self.s["host"], "venue": None, "size": None, "length": None,
            "attendees": n,                 # the players count as attendees
            "broken": [],                   # card keys broken at this party, in order
            "slots": [TEAM_ACTIONS // n] * n, "extra": [],
            "plans": [[] for _ in range(n)], "revealed": False,
            "masks": [None] * n, "masks_revealed": False,
            "turn": 0,                      # seats after the host, in the current step
            "acts": [None] * n,             # Partying actions
            "dancers": 0, "windows": 0, "evidence": 0, "work_done": 0,
            "inviters": [], "guest_dice": [],
            "dice": [], "rerolls": 0, "reroll": None,
        }

    def _seat(self, turn: int) -> int:
        """The player ``turn`` seats to the left of the host."""
        return (self.s["party"]["host"] + turn) % self.n

    def _count(self, action: str) -> int:
        return sum(row.count(action) for row in self.s["party"]["plans"])

    def _karaoke(self) -> bool:
        return any("karaoke" in row for row in self.s["party"]["plans"])

    def work_things(self) -> int:
        """The "bring a work thing" actions that count (5+ players: only those also done)."""
        brought = self._count("work")
        if self.n >= 5:
            return min(brought, self.s["party"]["work_done"])
        return brought

    def guests(self) -> int:
        """Attendees who are not players (invited and uninvited)."""
        return self.s["party"]["attendees"] - self.n

    def target(self) -> int:
        """What the cover-up roll must reach: attendees minus evidence destroyed."""
        party = self.s["party"]
        return party["attendees"] - party["evidence"]

    def masks_apply(self) -> bool:
        """Whether a mask requirement applies to this party (else Stage 4 is skipped)."""
        where = self.s["cards"].get(MASKS)
        return where is not None and (where == MASKS_EVERYWHERE or self.s["party"]["venue"] == "indoor")

    # ------------------------------------------------------------------ prompts

    def _prompt(self) -> Prompt | None:
        s = self.s
        ph = s["phase"]
        party = s["party"]
        if ph == "plan":
            p = self._seat(party["turn"])
            key: tuple = (ph, p, len(party["plans"][p]) + 1, party["slots"][p])
        elif ph == "party":
            key = (ph, self._seat(party["turn"]), self._karaoke(), party["windows"] % 2 == 1)
        elif ph == "mask":
            key = (ph, self._seat(party["turn"]))
        elif ph == "card":
            return CARD_PROMPTS[s["card_i"]]
        elif ph in ("venue", "size", "length"):
            key = (ph, s["host"], MAX_LENGTH in s["cards"])
        elif ph in ("dance-roll", "sing-roll", "case-numbers", "first-host"):
            key = (ph, s["coins"])
        elif ph == "cover-up":
            key = (ph, 8 - len(party["broken"]), self.target())
        elif ph == "reroll":
            key = (ph, len(party["dice"]) if party["reroll"] == "all" else 1, self.target())
        elif ph == "over":
            return None
        else:
            return self._build_prompt(ph, ())
        memo = self._memo
        found = memo.get(key)
        if found is None:
            found = memo[key] = self._build_prompt(ph, key)
        return found

    @cached_property
    def _memo(self) -> dict:
        if len(_PROMPT_MEMOS) > 64:
            _PROMPT_MEMOS.clear()
        return _PROMPT_MEMOS.setdefault(self.players, {})

    def _build_prompt(self, ph: str, key: tuple) -> Prompt:
        s, party, name = self.s, self.s["party"], self.name
        if ph == "plan":
            _, p, k, slots = key
            return Prompt("choice", f"{name(p)}: plan action {k} of {slots}", player=p,
                          options=PLAN_OPTIONS, secret=True, tag="planning")
        if ph == "party":
            _, p, karaoke, windows_open = key
            return Prompt("choice", f"{name(p)}: party action?", player=p,
                          options=PARTY_OPTIONS[(karaoke, windows_open)], tag="partying")
        if ph == "mask":
            p = key[1]
            return Prompt("choice", f"{name(p)}: wear a mask?", player=p, options=MASK_OPTIONS,
                          secret=True, tag="masks")
        if ph == "first-host":
            return choice("Who last observed a COVID rule?",
                          [(str(p), name(p)) for p in range(self.n)], tag="first-host")
        host = s["host"]
        if ph == "venue":
            return Prompt("choice", f"{name(host)}: indoor or outdoor?", player=host,
                          options=VENUE_OPTIONS, tag="venue")
        if ph == "size":
            return Prompt("choice", f"{name(host)}: party size?", player=host,
                          options=SIZE_OPTIONS, tag="size")
        if ph == "length":
            text = "length in minutes" if key[2] else "length (0 = none)"
            return Prompt(NUMBER, f"{name(host)}: {text}", player=host, low=0, high=MAX_MINUTES,
                          tag="length")
        if ph == "extra":
            opts = tuple(Option(str(p), name(p)) for p in range(self.n) if p not in party["extra"])
            return Prompt("choice", f"{name(host)}: extra action for?", player=host,
                          options=opts, tag="extra-action")
        if ph == "uninvited":
            done = len(party["guest_dice"])
            left = len(party["inviters"]) - done
            text = (f"{name(party['inviters'][done])}'s guests: roll 1 die" if left == 1
                    else f"Uninvited guests: roll {left} dice")
            return Prompt(DICE, text, count=left, min_count=1, tag="uninvited")
        if ph == "overstay":
            k = self.work_things()
            return Prompt(DICE, f"Overstaying: roll {_plural(k, 'die', 'dice')}", count=k,
                          tag="overstay")
        if ph == "dance-roll":
            return Prompt(DICE, "Guests dancing? Roll 1 die", count=1, tag="dancing")
        if ph == "sing-roll":
            return Prompt(DICE, "Guests singing? Roll 1 die", count=1, tag="singing")
        if ph == "cover-up":  # 8 minus the restrictions broken
            _, k, need = key
            return Prompt(DICE, f"Cover up: roll {_plural(k, 'die', 'dice')} (need {need})",
                          count=k, tag="cover-up")
        if ph == "reroll":
            _, k, need = key
            return Prompt(DICE, f"Reroll {_plural(k, 'die', 'dice')} (need {need})", count=k,
                          tag="reroll")
        if ph == "reroll-choice":
            now = party["dice"]
            if len(now) == 1:
                opts: tuple[Option, ...] = (Option("all", "Reroll the die"),)
            else:
                opts = (Option("all", "Reroll all dice"),) + tuple(
                    Option(f"d{i + 1}", f"Reroll die {i + 1} ({v})") for i, v in enumerate(now))
            return Prompt("choice", f"Work thing ({party['rerolls']} left): reroll?",
                          options=opts, tag="reroll-choice")
        if ph == "case-numbers":
            c = key[1]
            return Prompt(COINS, f"Case numbers: flip {_plural(c, 'coin', 'coins')}", count=c,
                          tag="case-numbers")
        raise AssertionError(f"unknown phase {ph!r}")  # pragma: no cover

    # ------------------------------------------------------------------ inputs

    def _apply(self, inp: Input) -> list[Event]:
        events: list[Event] = []
        _HANDLERS[self.s["phase"]](self, inp.value, events)
        return events

    # Stages 0 and 1 -----------------------------------------------------------

    def _on_first_host(self, value: str, events: list[Event]) -> None:
        host = self.s["host"] = int(value)
        events.append(Event("first-host", f"{self.name(host)} hosts first", host))
        self._start_lockdown(events)

    def _start_lockdown(self, events: list[Event]) -> None:
        s = self.s
        s["lockdown"] += 1
        s["cards"], s["card_i"], s["coins"], s["party"], s["phase"] = {}, 0, 0, None, "card"
        events.append(Event("lockdown", f"Lockdown {s['lockdown']}: choose restrictions",
                            data={"lockdown": s["lockdown"]}))

    def _on_card(self, value, events: list[Event]) -> None:
        s = self.s
        i, cards = s["card_i"], s["cards"]
        key = CARD_ORDER[i]
        if value == SKIP or value == 0:
            if i == len(CARD_ORDER) - 1 and not cards:
                raise IllegalInput("A lockdown needs at least one Restriction card: use this one, "
                                   "or undo to pick an earlier one.")
        else:
            if key == ANYWHERE_MAX and INDOOR_MAX in cards and value < 2 * cards[INDOOR_MAX]:
                indoor = cards[INDOOR_MAX]
                raise IllegalInput(f"The anywhere limit must be at least double the indoor limit "
                                   f"({indoor}): enter {2 * indoor} or more, or 0 for no card.")
            value = True if value == "use" else value
            cards[key] = value
            events.append(Event("restriction", f"In force: {card_label(key, value)}",
                                data={"card": key, "value": value}))
        s["card_i"] = i + 1
        if i + 1 < len(CARD_ORDER):
            return
        s["coins"] = len(cards)
        events.append(Event("case-numbers", f"Case numbers pile: {_plural(s['coins'], 'coin', 'coins')}",
                            data={"coins": s["coins"]}))
        self._start_party(events)

    # Stage 2 ----------------------------------------------------------------

    def _start_party(self, events: list[Event]) -> None:
        s = self.s
        s["party"] = self._new_party()
        s["phase"] = "venue"
        events.append(Event("party", f"{self.name(s['host'])} hosts a party", s["host"],
                            data={"lockdown": s["lockdown"], "attendees": self.n}))

    def _on_venue(self, value: str, events: list[Event]) -> None:
        self.s["party"]["venue"] = value
        events.append(Event("venue", f"Venue: {value}"))
        self._check_people(events)
        self.s["phase"] = "size"

    def _on_size(self, value: str, events: list[Event]) -> None:
        self.s["party"]["size"] = value
        self.s["phase"] = "length"

    def _on_length(self, value: int, events: list[Event]) -> None:
        s, party = self.s, self.s["party"]
        limit = s["cards"].get(MAX_LENGTH)
        if value == 0 and limit is not None:
            raise IllegalInput(f"The max length card ({limit} min) is in force: set the party's "
                               f"length, 1 to {MAX_MINUTES} minutes.")
        party["length"] = value or None
        if value:
            events.append(Event("length", f"Planned length: {value} min"))
        if limit is not None and value > limit:
            self._break(MAX_LENGTH, f"{value} min planned", events)
        s["phase"] = "extra" if TEAM_ACTIONS % self.n else "plan"

    # Stage 3 ----------------------------------------------------------------

    def _on_extra(self, value: str, events: list[Event]) -> None:
        party, p = self.s["party"], int(value)
        party["extra"].append(p)
        party["slots"][p] += 1
        events.append(Event("extra-action", f"{self.name(p)} gets {party['slots'][p]} actions", p))
        if len(party["extra"]) == TEAM_ACTIONS % self.n:
            self.s["phase"] = "plan"

    def _on_plan(self, value: str, events: list[Event]) -> None:
        party = self.s["party"]
        p = (party["host"] + party["turn"]) % self.n
        row = party["plans"][p]
        row.append(value)
        # Only the planner hears what it was; the public view shows how many are planned.
        events.append(Event("plan", _YOU_PLAN[value], p, True, {"action": value}))
        if len(row) == party["slots"][p]:
            party["turn"] += 1
            if party["turn"] == self.n:
                self._reveal_plans(events)

    def _reveal_plans(self, events: list[Event]) -> None:
        party, names, n = self.s["party"], self.players, self.n
        party["revealed"] = True
        for t in range(n):
            p = (party["host"] + t) % n
            row = party["plans"][p]
            events.append(Event("plans", f"{names[p]}: " + ", ".join(PLAN_LABELS[a] for a in row), p,
                                data={"actions": list(row)}))
            for a in row:
                k = INVITES.get(a)
                if k:
                    self._add_attendees(k, events)
        party["turn"] = 0
        self.s["phase"] = "mask" if self.masks_apply() else "party"

    def _add_attendees(self, k: int, events: list[Event]) -> None:
        party = self.s["party"]
        party["attendees"] += k
        events.append(Event("attendees", f"Attendees: {party['attendees']}",
                            data={"attendees": party["attendees"]}))
        self._check_people(events)

    def _check_people(self, events: list[Event]) -> None:
        cards, party = self.s["cards"], self.s["party"]
        a = party["attendees"]
        if INDOOR_MAX in cards and party["venue"] == "indoor" and a > cards[INDOOR_MAX]:
            self._break(INDOOR_MAX, f"{a} people indoors", events)
        if ANYWHERE_MAX in cards and a > cards[ANYWHERE_MAX]:
            self._break(ANYWHERE_MAX, f"{a} people", events)

    def _break(self, key: str, why: str, events: list[Event]) -> None:
        """Break ``key`` if it is in force and not yet broken at this party."""
        broken = self.s["party"]["broken"]
        if key in self.s["cards"] and key not in broken:
            broken.append(key)
            events.append(Event("broken", f"Broken: {CARDS[key].name}",
                                data={"card": key, "why": why, "broken": len(broken)}))

    # Stage 4 ----------------------------------------------------------------

    def _on_mask(self, value: str, events: list[Event]) -> None:
        party, n = self.s["party"], self.n
        p = self._seat(party["turn"])
        party["masks"][p] = value == "on"
        events.append(Event("masked", f"{self.name(p)} has decided", p))
        events.append(Event("mask", "You wear a mask" if value == "on" else "You go unmasked", p,
                            private=True))
        party["turn"] += 1
        if party["turn"] < n:
            return
        party["masks_revealed"] = True
        bare = party["masks"].count(False)
        events.append(Event("masks", f"Masks: {n - bare} on, {bare} off",
                            data={"masks": list(party["masks"])}))
        if 2 * bare >= n:  # at least half the players unmasked
            self._break(MASKS, f"{bare} of {n} unmasked", events)
        party["turn"] = 0
        self.s["phase"] = "party"

    # Stage 5 ----------------------------------------------------------------

    def _on_party(self, value: str, events: list[Event]) -> None:
        party = self.s["party"]
        p = self._seat(party["turn"])
        party["acts"][p] = value
        who = self.name(p)
        if value == "dance":
            party["dancers"] += 1
            events.append(Event("dance", f"{who} dances", p))
            if party["dancers"] >= (2 if self.n >= 5 else 1):
                self._break(DISTANCING, "players dancing", events)
        elif value == "sing":
            events.append(Event("sing", f"{who} sings", p))
            self._break(NO_SINGING, "a player sang", events)
        elif value == "windows":
            party["windows"] += 1
            verb = "opens" if party["windows"] % 2 else "closes"
            events.append(Event("windows", f"{who} {verb} the windows", p))
        elif value == "evidence":
            party["evidence"] += 1
            events.append(Event("evidence", f"{who} destroys evidence", p))
        elif value == "work":
            party["work_done"] += 1
            events.append(Event("work", f"{who} does a work thing", p))
        party["turn"] += 1
        if party["turn"] < self.n:
            return
        if party["venue"] == "indoor" and party["windows"] % 2 == 0:
            self._break(WINDOWS, "windows closed", events)
        # Stage 6 begins: uninvited guests, one die per player who invited some.
        party["inviters"] = [p for p in map(self._seat, range(self.n))
                             if any(a in INVITES for a in party["plans"][p])]
        if party["inviters"]:
            self.s["phase"] = "uninvited"
        else:
            self._to_overstay(events)

    # Stage 6 ----------------------------------------------------------------

    def _on_uninvited(self, values: tuple, events: list[Event]) -> None:
        party = self.s["party"]
        for v in values:
            p = party["inviters"][len(party["guest_dice"])]
            party["guest_dice"].append(v)
            if v <= 3:
                events.append(Event("uninvited", f"{self.name(p)}: {v} uninvited", p))
                self._add_attendees(v, events)
        if len(party["guest_dice"]) == len(party["inviters"]):
            self._to_overstay(events)

    def _to_overstay(self, events: list[Event]) -> None:
        s, party = self.s, self.s["party"]
        if MAX_LENGTH not in s["cards"] or MAX_LENGTH in party["broken"]:
            return self._to_dancing(events)
        drinks = self._count("drinks")
        if drinks:
            party["length"] += 10 * drinks
            events.append(Event("length", f"Drinks: length {party['length']} min"))
        if self.work_things():
            s["phase"] = "overstay"
        else:
            self._check_length(events)

    def _on_overstay(self, values: tuple, events: list[Event]) -> None:
        party = self.s["party"]
        party["length"] += sum(values)
        events.append(Event("length", f"Work things: length {party['length']} min"))
        self._check_length(events)

    def _check_length(self, events: list[Event]) -> None:
        length, limit = self.s["party"]["length"], self.s["cards"][MAX_LENGTH]
        if length > limit:
            self._break(MAX_LENGTH, f"{length} min", events)
        self._to_dancing(events)

    def _to_dancing(self, events: list[Event]) -> None:
        if DISTANCING in self.s["cards"] and DISTANCING not in self.s["party"]["broken"]:
            self.s["phase"] = "dance-roll"
        else:
            self._to_singing(events)

    def _on_dance_roll(self, values: tuple, events: list[Event]) -> None:
        total = values[0] + self.guests() // 5
        if total >= 6:
            events.append(Event("guests-dance", f"Guests dance ({total})"))
            self._break(DISTANCING, f"guests danced ({total})", events)
        self._to_singing(events)

    def _to_singing(self, events: list[Event]) -> None:
        s = self.s
        if NO_SINGING in s["cards"] and NO_SINGING not in s["party"]["broken"] and self._karaoke():
            s["phase"] = "sing-roll"
        else:
            self._to_cover_up(events)

    def _on_sing_roll(self, values: tuple, events: list[Event]) -> None:
        total = values[0] + self._count("drinks")
        if total >= 5:
            events.append(Event("guests-sing", f"Guests sing ({total})"))
            self._break(NO_SINGING, f"guests sang ({total})", events)
        self._to_cover_up(events)

    # Stage 7 ----------------------------------------------------------------

    def _to_cover_up(self, events: list[Event]) -> None:
        party = self.s["party"]
        if not party["broken"]:
            events.append(Event("no-points", "No restrictions broken: no points"))
            self._record(0, "nothing broken")
            self.s["phase"] = "case-numbers"
            return
        party["rerolls"] = self.work_things()
        self.s["phase"] = "cover-up"

    def _on_cover_up(self, values: tuple, events: list[Event]) -> None:
        self.s["party"]["dice"] = list(values)
        self._judge_cover_up(events)

    def _on_reroll_choice(self, value: str, events: list[Event]) -> None:
        self.s["party"]["reroll"] = value
        self.s["phase"] = "reroll"

    def _on_reroll(self, values: tuple, events: list[Event]) -> None:
        party = self.s["party"]
        if party["reroll"] == "all":
            party["dice"] = list(values)
        else:
            party["dice"][int(party["reroll"][1:]) - 1] = values[0]
        party["rerolls"] -= 1
        party["reroll"] = None
        self._judge_cover_up(events)

    def _judge_cover_up(self, events: list[Event]) -> None:
        s, party = self.s, self.s["party"]
        total, need = sum(party["dice"]), self.target()
        data = {"roll": total, "need": need}
        if total >= need:
            score = party["attendees"] * len(party["broken"])
            events.append(Event("covered-up", f"Covered up ({total}/{need}): +{score}",
                                data={**data, "score": score}))
            self._record(score, "kept secret")
            s["phase"] = "case-numbers"
        elif party["rerolls"]:
            events.append(Event("word-out", f"Word got out ({total}/{need})",
                                data={**data, "rerolls": party["rerolls"]}))
            s["phase"] = "reroll-choice"
        else:
            score = party["attendees"]
            self._record(score, "rumbled")
            s["phase"] = "over"
            events.append(Event("rumbled", f"Rumbled ({total}/{need}): +{score}",
                                data={**data, "score": score}))
            events.append(Event("game-over", result_text(s["total"], s["lockdown"]),
                                data={"points": s["total"], "lockdowns": s["lockdown"]}))

    def _record(self, score: int, outcome: str) -> None:
        s, party = self.s, self.s["party"]
        s["total"] += score
        s["log"].append({"lockdown": s["lockdown"], "host": party["host"],
                         "attendees": party["attendees"], "broken": list(party["broken"]),
                         "score": score, "outcome": outcome})

    # Stage 8 ----------------------------------------------------------------

    def _on_case_numbers(self, values: tuple, events: list[Event]) -> None:
        s = self.s
        left = s["coins"] = values.count(HEADS)
        s["host"] = (s["host"] + 1) % self.n
        if left >= 2:
            events.append(Event("case-numbers", f"{left} coins left: lockdown goes on",
                                data={"coins": left}))
            self._start_party(events)
        else:
            events.append(Event("case-numbers", f"{_plural(left, 'coin', 'coins')} left: "
                                f"lockdown {s['lockdown']} ends", data={"coins": left}))
            self._start_lockdown(events)

    # ------------------------------------------------------------------ views

    def score(self) -> dict:
        s = self.s
        total, lockdowns = s["total"], s["lockdown"]
        over = s["phase"] == "over"
        text = (f"{total} pts, {_plural(lockdowns, 'lockdown', 'lockdowns')}" if over
                else f"{total} pts, lockdown {lockdowns}")
        return {"text": text[:20], "points": {"team": total},
                "winners": ["team"] if over else [],
                "result": result_text(total, lockdowns), "lockdowns": lockdowns,
                "parties": len(s["log"])}

    def public_view(self) -> dict:
        s, party = self.s, self.s["party"]
        view = {
            "phase": s["phase"], "lockdown": s["lockdown"],
            "host": None if s["host"] is None else self.name(s["host"]),
            "restrictions": [{"card": k, "label": card_label(k, v), "value": v,
                              "broken": party is not None and k in party["broken"]}
                             for k, v in s["cards"].items()],
            "coins": s["coins"],
            "party_log": [dict(e, host=self.name(e["host"])) for e in s["log"]],
            "total": s["total"], "result": result_text(s["total"], s["lockdown"]),
            "party": None if party is None else self._public_party(party),
        }
        return view

    def _public_party(self, party: dict) -> dict:
        names = self.players
        out = {k: party[k] for k in ("venue", "size", "length", "attendees", "evidence",
                                     "dancers", "work_done", "rerolls")}
        out["dice"] = list(party["dice"])
        out["host"] = names[party["host"]]
        out["broken"] = list(party["broken"])
        out["windows"] = "open" if party["windows"] % 2 else "closed"
        out["actions"] = dict(zip(names, party["slots"]))
        # Before the reveal only how far each player has got is public, never what.
        out["planned"] = dict(zip(names, map(len, party["plans"])))
        out["plans"] = dict(zip(names, map(list, party["plans"]))) if party["revealed"] else None
        out["masks_decided"] = {nm: m is not None for nm, m in zip(names, party["masks"])}
        out["masks"] = dict(zip(names, party["masks"])) if party["masks_revealed"] else None
        out["partying"] = {names[p]: a for p, a in enumerate(party["acts"]) if a is not None}
        out["uninvited_dice"] = list(party["guest_dice"])
        out["work_things"] = self.work_things() if party["revealed"] else None
        return out

    def private_view(self, player: int) -> dict:
        party = self.s["party"]
        if party is None:
            return {}
        return {"plans": list(party["plans"][player]), "mask": party["masks"][player]}

    def check_invariants(self) -> None:
        # Lean (the simulation calls it after every input): the whole party is checked at
        # the steps where it must be complete, the rest is cheap scalar checks.
        s, n, ph = self.s, self.n, self.s["phase"]
        party = s["party"]
        if party is None:
            assert ph == "card" or ph == "first-host", ph
            assert s["coins"] == 0 and s["card_i"] < len(CARD_ORDER)
            return
        assert 0 <= s["coins"] <= len(s["cards"]) and party["attendees"] >= n
        if ph == "plan":
            p = self._seat(party["turn"])
            assert len(party["plans"][p]) < party["slots"][p]
        elif ph in ("venue", "cover-up", "case-numbers", "over"):
            self._check_party(s, party, n)
        elif ph == "reroll-choice":
            assert 0 < party["rerolls"] <= self.work_things()
            assert len(party["dice"]) == 8 - len(party["broken"]) and sum(party["dice"]) < self.target()
        else:
            assert ph in _HANDLERS, ph

    def _check_party(self, s: dict, party: dict, n: int) -> None:
        cards, broken = s["cards"], party["broken"]
        assert len(cards) <= len(CARD_ORDER) and all(k in CARDS for k in cards)
        if ANYWHERE_MAX in cards and INDOOR_MAX in cards:
            assert cards[ANYWHERE_MAX] >= 2 * cards[INDOOR_MAX]
        assert len(broken) == len(set(broken)) and all(k in cards for k in broken)
        assert s["total"] == sum(e["score"] for e in s["log"])
        if party["revealed"]:
            slots = party["slots"]
            assert sum(slots) == TEAM_ACTIONS and max(slots) - min(slots) <= 1
            assert list(map(len, party["plans"])) == slots
            assert party["attendees"] >= n + sum(INVITES.get(a, 0) for r in party["plans"] for a in r)
            assert party["dancers"] + party["evidence"] + party["work_done"] <= n
        if s["phase"] == "cover-up":
            assert len(broken) >= 1 and party["rerolls"] == self.work_things()

    def stats(self) -> dict[str, float]:
        s = self.s
        return {"score": s["total"], "lockdowns": s["lockdown"], "parties": len(s["log"]),
                "restrictions_broken": sum(len(e["broken"]) for e in s["log"]),
                "last_attendees": s["log"][-1]["attendees"] if s["log"] else 0}

    def bot_input(self, prompt: Prompt, rng) -> Input | None:
        return bot_answer(self, prompt, rng)


_HANDLERS = {ph: getattr(DownInOneStreet, "_on_" + ph.replace("-", "_"))
             for ph in PHASES if ph != "over"}

GAME = DownInOneStreet
