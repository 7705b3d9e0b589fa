"""All Fall Down (Philip Reed, 2005): children in a plague village, the last one alive wins.

The rulebook as implemented:

* Every child holds 6 depression and 6 sickness counters; "on his right" is the count kept
  here (0..6). A child dies the moment either count is exactly six (Automatic Death).
* Start: every player rolls one die (one DICE prompt: several rolls at once or one at a
  time, in seat order); the highest is the first storyteller. A tie for highest: the group
  says which tied player is youngest, and that player begins.
* Each day, starting with the storyteller and going left, every living child chooses openly:
  indoors (+1 depression, -1 sickness) or outside (+1 sickness, -2 depression). Counters
  never go below 0 or above 6.
* The story, only if the storyteller went outside and is alive: the companion times it (a
  TIMER prompt: the daemon's clock submits the seconds), asks whether the storyteller
  stumbled, paused or stopped before a minute (+1 sickness), then takes the good/bad vote
  of the living children who were outside, storyteller included, as a tally (the number of
  good votes; nothing secret is stored). More bad: the storyteller +1 depression. More
  good: the storyteller -2 depression and -1 sickness. Tie: every child who was outside
  and took part +1 depression.
* A story is automatically bad (rulebook, "What makes a story bad?") if a child who was
  outside was forgotten or the story is unhappy (or, with Setting the Stage, did not begin
  at the scene set); one question after the story lets the group say so ("forgot" is
  offered only if another living child was outside), and the vote is then skipped and the
  more-bad result applied.
* After a story the questions come in this order: stumbled or stopped short; was an
  element missing (String of Elements, once there are elements); the element or scene the
  story leaves (either stage option); morbid scenes (morbid option); automatically bad;
  the vote. A storyteller killed by one of these ends the story there.
* End of the day: every living child rolls; the roll must be GREATER than sickness plus
  depression, or the child dies. Rolls come in seat order from the storyteller's seat, one
  at a time or several at once (DICE prompt with ``count`` = children still to roll and
  ``min_count`` = 1).
* The storyteller passes to the next living child on the left (the next seat).
* The game ends when a single child is left alive: that child wins.

Optional rules (GameOption, chosen before the game):

* ``funeral``: The Funeral. After the day's rolls, one funeral per child who died that day,
  in order of death. Every living child rolls (seat order from the dead child's left): 1 is
  +1 sickness, 6 is +1 depression. A child who dies at a funeral gets a funeral too.
* ``stage``: ``setting-the-stage`` or ``string-of-elements`` (one or the other: the second
  is the rulebook's "more complex version" of the first).
  - Setting the Stage: after telling a story the storyteller may set one scene for the next
    story ("...tomorrow we meet at the lighthouse"). A story that does not begin there is
    automatically bad (a choice in the after-story question).
  - A String of Elements: every story adds one element that every later story must hold.
    The companion keeps the list (``public_view()["elements"]``, shown to the storyteller),
    asks after each story "was an element missing?" (yes: the storyteller +1 depression, the
    author's own suggested rule, instead of an automatically bad story) and removes one
    element when a story is bad (voted or automatically).
* ``morbid``: a story with extremely twisted, morbid scenes gives every child who was
  outside +1 depression (asked after each story).

Readings where the rulebook is silent or ambiguous:

* Reading (steps): deaths are grouped by step: the day's choices, each after-story penalty,
  the vote's result, the end-of-day rolls, one funeral's rolls. Within a step the children
  act one at a time (a choice moves counters at once, so a child dies the moment the sixth
  counter lands) but the game-end check comes when the step is over, so seat order never
  decides who is "last". Choices and rolls are simultaneous in the rulebook.
* Reading (last children fall together): if, at the end of a step, no child is alive, the
  children who died in that step died last together and share the win (the objective is to
  be the last to fall). If one child is alive, that child wins at once (no more rolls).
* Reading (storyteller dies): "no story takes place and the turn automatically ends": the
  story and its vote are skipped (also when the storyteller dies from an after-story
  penalty), and the day ends as every day does, with the survival rolls.
* Reading (story time): the TIMER prompt's ``low``/``high`` are 60 and 300 seconds, the marks
  the companion's clock signals (it shows the time running, signals one minute, and stops
  the clock itself at five minutes: a story running past five is cut off there, with no
  penalty, as the rulebook gives none). A story ended before one minute is submitted by the
  clock as one minute; stopping short is the storyteller "failing to go a full minute", so
  the one question after every story covers it: "stumbled or stopped before one minute?"
  (yes: +1 sickness, a single counter however many of the three happened). A reading
  outside 60..300 typed by hand is refused.
* Reading (vote): only living children vote; with one voter there is no tie.
* Reading (elements): the text of an element cannot be typed at a table, so the storyteller
  picks one of three suggestions from a built-in list of places and objects, or "their
  own", recorded as "Element N" (write it on a scrap of paper). On a bad story the OLDEST
  element is removed. A Setting-the-Stage scene stays until the next story is told (a
  storyteller who stays indoors does not use it up).
* Reading (funeral timing): funerals happen between days, after the survival rolls, and
  not after the game has ended.
* Reading (morbid): the morbid penalty is in addition to the vote, which still happens.
* Points: days survived (the days whose end the child saw alive; children alive when the
  game ends are counted as having seen the current day).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import compress, repeat
from operator import is_
from typing import Any

from companion.rules.core import (CHOICE, DICE, NUMBER, TIMER, Event, Game, GameOption, Input,
                                  Option, Prompt)

MAX = 6                 # counters of each kind per child; six on the right is death
# A story takes at least one minute and at most five. The TIMER prompt's low/high are
# the marks the companion's clock signals; it stops the clock itself at five minutes.
STORY_MIN, STORY_MAX = 60, 300

STAGE_OFF, STAGE_SCENE, STAGE_STRING = "off", "setting-the-stage", "string-of-elements"

# Evocative places and things for a plague village (suggestions for story elements).
ELEMENTS = (
    "the old lighthouse", "dad's hat", "the dry well", "a rag doll", "the bell tower",
    "the miller's barn", "a cracked mirror", "the river ford", "a tin soldier",
    "the empty market", "grandma's shawl", "the hollow oak", "a jar of fireflies",
    "the ferryman's boat", "the broken cart", "a silver button", "the pest house",
    "a chalk circle", "a wooden flute", "the burnt mill", "a kite", "the church steps",
    "a lantern", "the scarecrow",
)
SUGGESTIONS = 3

_IN_OUT = (Option("in", "Indoors"), Option("out", "Outside"))
_YES_NO = (Option("yes", "Yes"), Option("no", "No"))
_MORBID = (Option("yes", "Yes: +1 depression"), Option("no", "No"))
_STUMBLE = (Option("yes", "Yes: +1 sickness"), Option("no", "No"))


# The same prompts come back every day and in every replay; a Prompt is immutable, so
# each is built once (building one costs about as much as a whole choice's rules).
@lru_cache(maxsize=1024)
def _choose_prompt(i: int, name: str) -> Prompt:
    return Prompt(CHOICE, f"{name}: indoors or out?", player=i, options=_IN_OUT, tag="choose")


@lru_cache(maxsize=4096)
def _dice_prompt(phase: str, first: int, name: str, k: int) -> Prompt:
    if phase == "start":
        text = f"{name}: roll for storyteller" if k == 1 else f"Roll from {name} ({k} to roll)"
    elif phase == "roll":
        text = f"{name}: roll to survive" if k == 1 else f"Survival rolls from {name} ({k})"
    else:
        text = f"Funeral: {name} rolls" if k == 1 else f"Funeral rolls from {name} ({k})"
    return Prompt(DICE, text, player=first if k == 1 else None, count=k, min_count=1, tag=phase)


@lru_cache(maxsize=4096)
def _prompt_of(kind: str, text: str, **fields: Any) -> Prompt:
    return Prompt(kind, text, **fields)


class AllFallDown(Game):
    game_id = "all-fall-down"
    title = "All Fall Down"
    min_players = 2
    max_players = 20
    options = (
        GameOption("funeral", "bool", False,
                   "The Funeral: after a death every living child rolls "
                   "(1: +1 sickness, 6: +1 depression)"),
        GameOption("stage", "choice", STAGE_OFF,
                   "Story elements: setting-the-stage (a scene the next story must begin in) or "
                   "string-of-elements (a growing list; a missing one costs 1 depression)",
                   choices=(STAGE_OFF, STAGE_SCENE, STAGE_STRING)),
        GameOption("morbid", "bool", False,
                   "Twisted, morbid scenes give every child who was outside +1 depression"),
    )

    # ------------------------------------------------------------------ start

    def start(self) -> None:
        n = self.n
        self.s = {
            "phase": "start", "day": 0, "storyteller": None,
            "dep": [0] * n, "sick": [0] * n, "alive": [True] * n,
            "died": [None] * n,           # the day a child died (None: alive)
            "survived": [0] * n,          # days survived
            "start_rolls": [None] * n, "tied": [],
            "queue": list(range(n)),      # who still acts in this step, in order
            "choice": [None] * n, "rolls": [None] * n,
            "story": None,
            "step_deaths": [], "today_deaths": [],
            "funerals": [], "funeral_of": None,
            "elements": [], "scene": None, "added": 0, "offer": 0,
            "winners": [],
            "counts": {"stories": 0, "good": 0, "bad": 0, "tied": 0, "stumbles": 0,
                       "funerals": 0, "days": 0},
        }

    # ------------------------------------------------------------------ prompts

    def _prompt(self) -> Prompt | None:
        s = self.s
        ph = s["phase"]
        names = self.setup.players
        if ph == "choose":
            i = s["queue"][0]
            return _choose_prompt(i, names[i])
        if ph in ("start", "roll", "funeral"):
            q = s["queue"]
            return _dice_prompt(ph, q[0], names[q[0]], len(q))
        if ph == "over":
            return None
        st = s["storyteller"]
        if ph == "story":
            return _prompt_of(TIMER, f"{names[st]}: tell the story", player=st, low=STORY_MIN,
                              high=STORY_MAX, tag="story")
        if ph == "stumble":
            return _prompt_of(CHOICE, f"{names[st]} stumbled or stopped <1 min?",
                              options=_STUMBLE, tag="stumble")
        if ph == "missing":
            return _prompt_of(CHOICE, "Was an element missing?", options=_YES_NO, tag="missing")
        if ph == "element":
            return self._element_prompt()
        if ph == "morbid":
            return _prompt_of(CHOICE, "Twisted, morbid scenes?", options=_MORBID, tag="morbid")
        if ph == "flaw":
            return self._flaw_prompt()
        if ph == "vote":
            v = len(self._voters())
            return _prompt_of(NUMBER, f"Good votes, of {v}?", low=0, high=v, tag="vote")
        if ph == "youngest":
            return _prompt_of(CHOICE, "Who is youngest?", options=tuple(
                Option(str(i), names[i]) for i in s["tied"]), tag="youngest")
        raise AssertionError(f"unknown phase {ph!r}")  # pragma: no cover

    def _suggestions(self) -> list[int]:
        s = self.s
        taken = set(s["elements"])
        if s["scene"]:
            taken.add(s["scene"])
        out = []
        for k in range(len(ELEMENTS)):
            idx = (s["offer"] + k) % len(ELEMENTS)
            if ELEMENTS[idx] not in taken:
                out.append(idx)
                if len(out) == SUGGESTIONS:
                    break
        return out

    def _own_element(self) -> str:
        return f"Element {self.s['added'] + 1}"

    def _element_prompt(self) -> Prompt:
        opts = [Option(str(i), ELEMENTS[i]) for i in self._suggestions()]
        opts.append(Option("own", f"Our own: {self._own_element()}"))
        if self.setup.options["stage"] == STAGE_SCENE:
            opts.append(Option("none", "No scene"))
            return _prompt_of(CHOICE, "Tomorrow we meet at...", player=self.s["storyteller"],
                              options=tuple(opts), tag="element")
        return _prompt_of(CHOICE, "Add a story element", player=self.s["storyteller"],
                          options=tuple(opts), tag="element")

    def _flaw_prompt(self) -> Prompt:
        s = self.s
        opts = [Option("none", "No: to the vote")]
        st = s["storyteller"]
        if any(i != st for i in self._voters()):
            opts.append(Option("forgot", "A child was left out"))
        opts.append(Option("unhappy", "Unhappy story"))
        scene = s["story"]["scene"]
        if scene:
            opts.append(Option("scene", f"Not begun at {scene}"))
        return _prompt_of(CHOICE, "Automatically bad story?", options=tuple(opts), tag="flaw")

    def _voters(self) -> list[int]:
        s = self.s
        alive, choice = s["alive"], s["choice"]
        return [i for i in range(self.n) if alive[i] and choice[i] == "out"]

    # ------------------------------------------------------------------ inputs

    def _apply(self, inp: Input) -> list[Event]:
        s = self.s
        ph = s["phase"]
        ev: list[Event] = []
        if ph == "choose":
            self._choose(inp.value, ev)
        elif ph in ("start", "roll", "funeral"):
            self._rolls(inp.value, ev)
        elif ph == "youngest":
            i = int(inp.value)
            ev.append(Event("youngest", f"{self.name(i)} is youngest", player=i))
            self._first_day(i, ev)
        elif ph == "story":
            self._story(inp.value, ev)
        else:
            self._after_story(ph, inp.value, ev)
        return ev

    # -- start

    def _first_day(self, teller: int, ev: list[Event]) -> None:
        self.s["storyteller"] = teller
        ev.append(Event("storyteller", f"{self.name(teller)} is storyteller", player=teller))
        self._new_day(ev)

    def _start_rolls_done(self, ev: list[Event]) -> None:
        rolls = self.s["start_rolls"]
        top = max(rolls)
        tied = [i for i, r in enumerate(rolls) if r == top]
        if len(tied) == 1:
            self._first_day(tied[0], ev)
        else:
            self.s["tied"] = tied
            self.s["phase"] = "youngest"
            ev.append(Event("tie", f"Tie at {top}: youngest begins", data={"tied": tied}))

    # -- the day

    def _new_day(self, ev: list[Event]) -> None:
        s = self.s
        s["day"] += 1
        s["counts"]["days"] = s["day"]
        n = self.n
        s["choice"] = [None] * n
        s["rolls"] = [None] * n
        s["story"] = None
        s["today_deaths"] = []
        s["step_deaths"] = []
        s["funeral_of"] = None
        s["queue"] = self._living_from(s["storyteller"])
        s["phase"] = "choose"
        ev.append(Event("day", f"Day {s['day']}: {self.name(s['storyteller'])} tells",
                        player=s["storyteller"]))

    def _living_from(self, seat: int) -> list[int]:
        """Living children in seat order (leftwards) starting at ``seat``."""
        alive = self.s["alive"]
        return [j for j in range(seat, self.n) if alive[j]] + [j for j in range(seat) if alive[j]]

    def _choose(self, key: str, ev: list[Event]) -> None:
        s = self.s
        i = s["queue"].pop(0)
        s["choice"][i] = key
        if key == "in":
            ev.append(Event("indoors", f"{self.name(i)} stays indoors", player=i))
            self._move(i, "dep", 1, ev)
            self._move(i, "sick", -1, ev)
        else:
            ev.append(Event("outside", f"{self.name(i)} goes outside", player=i))
            self._move(i, "sick", 1, ev)
            self._move(i, "dep", -2, ev)
        if s["queue"] or self._step_over(ev):
            return
        st = s["storyteller"]
        if s["alive"][st] and s["choice"][st] == "out":
            s["story"] = {"seconds": None, "stumble": False, "missing": False, "morbid": False,
                          "flaw": None, "good": None, "result": None,
                          "scene": s["scene"], "required": list(s["elements"])}
            s["phase"] = "story"
        else:
            if not s["alive"][st]:
                ev.append(Event("no-story", "No story today"))
            self._begin_rolls(ev)

    def _move(self, i: int, kind: str, delta: int, ev: list[Event]) -> None:
        """Move counters of one child, clamped to 0..6; six on the right is death."""
        s = self.s
        counts = s[kind]
        if not s["alive"][i]:
            return
        v = counts[i] + delta
        v = 0 if v < 0 else MAX if v > MAX else v
        counts[i] = v
        if v == MAX:
            self._die(i, "sickness" if kind == "sick" else "depression", ev)

    def _die(self, i: int, cause: str, ev: list[Event], text: str = "") -> None:
        s = self.s
        s["alive"][i] = False
        s["died"][i] = s["day"]
        s["step_deaths"].append(i)
        s["today_deaths"].append(i)
        ev.append(Event("death", text or f"{self.name(i)} died of {cause}", player=i,
                        data={"cause": cause}))

    def _step_over(self, ev: list[Event]) -> bool:
        """End of a step: True (and the game is over) if at most one child is left alive."""
        s = self.s
        if sum(s["alive"]) > 1:
            s["step_deaths"] = []
            return False
        living = [i for i in range(self.n) if s["alive"][i]]
        winners = living or sorted(s["step_deaths"])  # seat order
        for i in living:
            s["survived"][i] = s["day"]
        s["winners"] = winners
        s["phase"] = "over"
        s["queue"] = []
        names = [self.name(i) for i in winners]
        if len(names) == 1:
            ev.append(Event("winner", f"{names[0]} is last alive", player=winners[0]))
        else:
            ev.append(Event("winner", f"All fell: {len(names)} share the win",
                            data={"winners": winners}))
        return True

    # -- the story

    def _story(self, seconds: int, ev: list[Event]) -> None:
        s = self.s
        st = s["storyteller"]
        story = s["story"]
        story["seconds"] = seconds
        s["counts"]["stories"] += 1
        ev.append(Event("story", f"Story: {seconds // 60}:{seconds % 60:02d}", player=st,
                        data={"seconds": seconds}))
        if seconds == STORY_MAX:
            ev.append(Event("time-up", "Five minutes: story over", player=st))
        s["phase"] = "stumble"

    _STEPS = ("story", "stumble", "missing", "element", "morbid", "flaw", "vote")

    def _next_story_step(self, done: str, ev: list[Event]) -> None:
        s = self.s
        story = s["story"]
        stage = self.setup.options["stage"]
        for step in self._STEPS[self._STEPS.index(done) + 1:]:
            if step == "missing" and not story["required"]:
                continue
            if step == "element" and stage == STAGE_OFF:
                continue
            if step == "morbid" and not self.setup.options["morbid"]:
                continue
            if step == "vote" and story["flaw"]:
                self._result("bad", ev)
                return
            s["phase"] = step
            return
        raise AssertionError("the vote always ends a story")  # pragma: no cover

    def _penalty_step_over(self, ev: list[Event]) -> bool:
        """After a penalty: True if the story is over (storyteller dead, or the game)."""
        s = self.s
        if self._step_over(ev):
            return True
        if not s["alive"][s["storyteller"]]:
            ev.append(Event("no-story", "The story ends"))
            self._begin_rolls(ev)
            return True
        return False

    def _after_story(self, ph: str, key: Any, ev: list[Event]) -> None:
        s = self.s
        st = s["storyteller"]
        story = s["story"]
        if ph == "stumble":
            if key == "yes":
                story["stumble"] = True
                s["counts"]["stumbles"] += 1
                ev.append(Event("stumble", f"Stumble: {self.name(st)} +1 sickness", player=st))
                self._move(st, "sick", 1, ev)
                if self._penalty_step_over(ev):
                    return
        elif ph == "missing":
            story["missing"] = key == "yes"
            if key == "yes":
                ev.append(Event("missing", f"Element missing: {self.name(st)} +1 depr.", player=st))
                self._move(st, "dep", 1, ev)
                if self._penalty_step_over(ev):
                    return
        elif ph == "element":
            self._add_element(key, ev)
        elif ph == "morbid":
            story["morbid"] = key == "yes"
            if key == "yes":
                ev.append(Event("morbid", "Morbid: all outside +1 depr."))
                for i in self._voters():
                    self._move(i, "dep", 1, ev)
                if self._penalty_step_over(ev):
                    return
        elif ph == "flaw":
            if key != "none":
                story["flaw"] = key
                ev.append(Event("flaw", "Automatically bad story", data={"why": key}))
        else:  # the vote
            voters = len(self._voters())
            good = key
            story["good"] = good
            bad = voters - good
            self._result("good" if good > bad else "bad" if bad > good else "tie", ev)
            return
        self._next_story_step(ph, ev)

    def _add_element(self, key: str, ev: list[Event]) -> None:
        s = self.s
        if key == "none":
            s["scene"] = None
            ev.append(Event("scene", "No scene set"))
            return
        if key == "own":
            text = self._own_element()
            s["offer"] = (s["offer"] + SUGGESTIONS) % len(ELEMENTS)
        else:
            idx = int(key)
            text = ELEMENTS[idx]
            s["offer"] = (idx + 1) % len(ELEMENTS)
        s["added"] += 1
        if self.setup.options["stage"] == STAGE_SCENE:
            s["scene"] = text
            ev.append(Event("scene", f"Tomorrow: {text}", data={"scene": text}))
        else:
            s["elements"].append(text)
            ev.append(Event("element", f"New element: {text}", data={"element": text}))

    def _result(self, result: str, ev: list[Event]) -> None:
        s = self.s
        st = s["storyteller"]
        story = s["story"]
        story["result"] = result
        counts = s["counts"]
        good = story["good"]
        tally = "" if good is None else f" ({good}-{len(self._voters()) - good})"
        if result == "good":
            counts["good"] += 1
            ev.append(Event("good", f"Good story{tally}", player=st))
            self._move(st, "dep", -2, ev)
            self._move(st, "sick", -1, ev)
        elif result == "bad":
            counts["bad"] += 1
            ev.append(Event("bad", f"Bad story{tally}", player=st))
            self._move(st, "dep", 1, ev)
            if s["elements"]:
                gone = s["elements"].pop(0)
                ev.append(Event("element-gone", f"Forgotten: {gone}", data={"element": gone}))
        else:
            counts["tied"] += 1
            ev.append(Event("tie-vote", f"Tied vote{tally}: outside +1"))
            for i in self._voters():
                self._move(i, "dep", 1, ev)
        if not self._step_over(ev):
            self._begin_rolls(ev)

    # -- rolls: start, end of day, funeral

    def _begin_rolls(self, ev: list[Event]) -> None:
        s = self.s
        s["phase"] = "roll"
        s["step_deaths"] = []
        s["queue"] = self._living_from(s["storyteller"])

    def _rolls(self, values: tuple, ev: list[Event]) -> None:
        s = self.s
        ph = s["phase"]
        q = s["queue"]
        names = self.setup.players
        who = q[:len(values)]   # the dice go to the children in queue order
        del q[:len(values)]
        # One event per reading (several dice at once are common), plus one per child
        # whose counters change or who dies.
        if ph == "roll":
            sick, dep, rolls = s["sick"], s["dep"], s["rolls"]
            read = []
            for i, v in zip(who, values):
                rolls[i] = v
                read.append([i, v, sick[i] + dep[i]])
            dead = [r for r in read if r[1] <= r[2]]
            if len(read) == 1:
                i, v, total = read[0]
                text = f"{names[i]} lives ({v}>{total})" if not dead else f"{names[i]} rolled {v}"
            else:
                text = f"{len(read) - len(dead)} of {len(read)} live"
            ev.append(Event("rolls", text, data={"rolls": read}))
            for i, v, total in dead:
                self._die(i, "misfortune", ev, f"{names[i]} died ({v} vs {total})")
        elif ph == "start":
            start = s["start_rolls"]
            for i, v in zip(who, values):
                start[i] = v
                ev.append(Event("roll", f"{names[i]} rolled {v}", player=i))
        else:
            for i, v in zip(who, values):
                if v == 1:
                    ev.append(Event("funeral-roll", f"{names[i]}: 1, +1 sickness", player=i))
                    self._move(i, "sick", 1, ev)
                elif v == 6:
                    ev.append(Event("funeral-roll", f"{names[i]}: 6, +1 depression", player=i))
                    self._move(i, "dep", 1, ev)
        if q:
            return
        if ph == "start":
            self._start_rolls_done(ev)
            return
        died_now = list(s["step_deaths"])
        if self._step_over(ev):
            return
        if ph == "roll":
            day = s["day"]
            s["survived"] = [day if a else d for a, d in zip(s["alive"], s["survived"])]
            if self.setup.options["funeral"]:
                s["funerals"] = list(s["today_deaths"])
        else:
            s["funerals"].extend(died_now)  # a child who dies at a funeral gets one too
        self._next_funeral_or_day(ev)

    def _next_funeral_or_day(self, ev: list[Event]) -> None:
        s = self.s
        if s["funerals"]:
            dead = s["funerals"].pop(0)
            s["funeral_of"] = dead
            s["counts"]["funerals"] += 1
            s["phase"] = "funeral"
            s["step_deaths"] = []
            s["queue"] = self._living_from(dead)
            ev.append(Event("funeral", f"Funeral of {self.name(dead)}", player=dead))
            return
        st = s["storyteller"]
        s["storyteller"] = self._living_from(st + 1 if st + 1 < self.n else 0)[0]
        self._new_day(ev)

    # ------------------------------------------------------------------ views and scores

    def score(self) -> dict:
        s = self.s
        names = self.setup.players
        points = {names[i]: s["survived"][i] for i in range(self.n)}
        winners = [names[i] for i in s["winners"]]
        living = sum(s["alive"])
        if s["phase"] == "over":
            text = f"{winners[0]} wins" if len(winners) == 1 else f"{len(winners)} share the win"
        elif s["day"] == 0:
            text = "Choosing storyteller"
        else:
            text = f"Day {s['day']}: {living} alive"
        return {"text": text[:20], "points": points, "winners": winners,
                "day": s["day"], "alive": [names[i] for i in range(self.n) if s["alive"][i]]}

    def public_view(self) -> dict:
        # Nothing in this game is secret: the vote is taken only as a tally.
        s = self.s
        names = self.setup.players
        st, story = s["storyteller"], s["story"]
        children = [{"name": names[i], "alive": s["alive"][i], "depression": s["dep"][i],
                     "sickness": s["sick"][i], "choice": s["choice"][i], "roll": s["rolls"][i],
                     "start_roll": s["start_rolls"][i], "died_on_day": s["died"][i],
                     "days_survived": s["survived"][i]} for i in range(self.n)]
        view = {"day": s["day"], "phase": s["phase"],
                "storyteller": None if st is None else names[st],
                "children": children,
                "story": story and {**story, "required": list(story["required"])},
                "to_act": [names[i] for i in s["queue"]],
                "winners": [names[i] for i in s["winners"]]}
        stage = self.setup.options["stage"]
        if stage == STAGE_STRING:
            view["elements"] = list(s["elements"])
        elif stage == STAGE_SCENE:
            view["scene"] = s["scene"]
        if s["funeral_of"] is not None:
            view["funeral_of"] = names[s["funeral_of"]]
        if s["phase"] == "youngest":
            view["tied"] = [names[i] for i in s["tied"]]
        return view

    def check_invariants(self) -> None:
        s = self.s
        alive, dep, sick = s["alive"], s["dep"], s["sick"]
        day = s["day"]
        # Built-ins over whole lists (C loops): this runs after every simulated input.
        both = dep + sick
        assert min(both) >= 0 and max(both) <= MAX, "counters out of range"
        if MAX in both:
            assert MAX not in list(compress(both, alive + alive)), "a child alive with six counters"
        assert list(map(is_, s["died"], repeat(None))) == alive, "alive and died disagree"
        assert max(s["survived"]) <= day, "days survived beyond the day"
        living = sum(alive)
        ph = s["phase"]
        if ph == "over":
            assert living <= 1 and s["winners"], "over without a winner"
            assert living == 0 or s["winners"] == [alive.index(True)]
        else:
            # Mid-step (choices, rolls) children may have died; the step started with two.
            assert living + len(s["step_deaths"]) >= 2, "game goes on with fewer than two children"
            assert not s["winners"]
        if ph in ("choose", "roll", "funeral", "start"):
            assert s["queue"] and all(map(alive.__getitem__, s["queue"])), "someone dead must act"
        if ph in ("story", "stumble", "missing", "element", "morbid", "flaw", "vote"):
            st = s["storyteller"]
            assert alive[st] and s["choice"][st] == "out", "story by a dead or indoor storyteller"
            assert living >= 2 and not s["step_deaths"], "a story goes on after the game ended"
        elements = s["elements"]
        if elements:
            assert self.setup.options["stage"] == STAGE_STRING, "elements without the option"
            assert len(set(elements)) == len(elements), "an element listed twice"

    def stats(self) -> dict[str, float]:
        s = self.s
        c = s["counts"]
        return {"score": float(s["day"]), "days": float(s["day"]),
                "deaths": float(self.n - sum(s["alive"])),
                "shared_wins": float(len(s["winners"]) > 1),
                "stories": float(c["stories"]), "good_stories": float(c["good"]),
                "bad_stories": float(c["bad"]), "tied_votes": float(c["tied"]),
                "stumbles": float(c["stumbles"]), "funerals": float(c["funerals"])}

    def bot_input(self, prompt: Prompt, rng: Any) -> Input | None:
        # Most stories are not automatically bad; the
        # children usually throw their dice together into the tray (the generic bot's
        # uniform count still comes one time in four, so partial readings are played too).
        tag = prompt.tag
        if tag == "flaw" and rng.random() < 0.8:
            return Input(CHOICE, "none")
        if prompt.kind == DICE and rng.random() < 0.75:
            return Input(DICE, tuple(rng.randint(1, 6) for _ in range(prompt.count)))
        return None


GAME = AllFallDown
