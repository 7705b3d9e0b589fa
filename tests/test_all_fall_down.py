"""All Fall Down: hand-worked cases from ``rulebooks/all-fall-down.txt`` for each rule,
every kind of rejected input, the readings chosen where the rulebook is silent, random
simulations with full checking, and a game through the Table with undo and correct.

Counters are written (depression, sickness) where a comment gives them.
"""

import json
import random

import pytest

from companion.rules.all_fall_down import ELEMENTS, AllFallDown
from companion.rules.core import (BadSetup, IllegalInput, Input, Setup, cards, dice, number, pick,
                                  timer)
from companion.simulation import play_game, random_setup
from companion.table import Table

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
ANN, BOB, CY, DEE, EVE = range(5)


# --------------------------------------------------------------------------- helpers


def new(n=3, **options):
    return AllFallDown(Setup(NAMES[:n], options))


def started(n=3, teller=ANN, **options):
    """A game at day 1's first choice, ``teller`` the storyteller (they rolled the only 6)."""
    g = new(n, **options)
    g.apply(dice(*[6 if i == teller else 1 for i in range(n)]))
    assert g.s["storyteller"] == teller and g.prompt().tag == "choose"
    return g


def position(g, dep=None, sick=None, **state):
    """The same game with these counters (a board position, set through a snapshot)."""
    snap = g.snapshot()
    if dep is not None:
        state["dep"] = list(dep)
    if sick is not None:
        state["sick"] = list(sick)
    snap["state"].update(state)
    return AllFallDown.from_snapshot(snap)


def feed(g, *inputs):
    events = []
    for inp in inputs:
        events += g.apply(inp)
    return events


def texts(events):
    return [e.text for e in events]


def counters(g):
    return list(zip(g.s["dep"], g.s["sick"]))


def tag(g):
    p = g.prompt()
    return None if p is None else p.tag


def rejected(g, inp, match):
    before = g.snapshot()
    prompt = g.prompt()
    with pytest.raises(IllegalInput, match=match):
        g.apply(inp)
    assert g.snapshot() == before and g.prompt() == prompt


# --------------------------------------------------------------------------- setup and start


def test_two_to_twenty_players_and_options_checked():
    AllFallDown(Setup.numbered(2))
    AllFallDown(Setup.numbered(20))
    for n in (1, 21):
        with pytest.raises(BadSetup, match="2 to 20"):
            AllFallDown(Setup.numbered(n))
    with pytest.raises(BadSetup, match="stage"):
        new(3, stage="lighthouse")
    with pytest.raises(BadSetup, match="funeral"):
        new(3, funeral="yes")
    g = new(3)
    assert g.setup.options == {"funeral": False, "stage": "off", "morbid": False}


def test_highest_start_roll_is_storyteller_rolls_one_at_a_time_or_together():
    g = new(3)
    p = g.prompt()
    assert (p.kind, p.count, p.min_count, p.text) == ("dice", 3, 1, "Roll from Ann (3 to roll)")
    assert texts(g.apply(dice(2))) == ["Ann rolled 2"]
    p = g.prompt()
    assert (p.count, p.min_count, p.text) == (2, 1, "Roll from Bob (2 to roll)")
    ev = g.apply(dice(5, 3))
    assert texts(ev) == ["Bob rolled 5", "Cy rolled 3", "Bob is storyteller", "Day 1: Bob tells"]
    assert g.s["storyteller"] == BOB and g.s["day"] == 1
    assert g.public_view()["storyteller"] == "Bob"
    # The storyteller chooses first, then the children to the left.
    assert (g.prompt().player, g.prompt().text) == (BOB, "Bob: indoors or out?")


def test_a_tie_for_highest_asks_who_is_youngest_among_the_tied():
    g = new(3)
    ev = g.apply(dice(6, 3, 6))
    assert texts(ev) == ["Ann rolled 6", "Bob rolled 3", "Cy rolled 6", "Tie at 6: youngest begins"]
    p = g.prompt()
    assert (p.kind, p.text, p.tag) == ("choice", "Who is youngest?", "youngest")
    assert [(o.key, o.label) for o in p.options] == [("0", "Ann"), ("2", "Cy")]
    assert g.public_view()["tied"] == ["Ann", "Cy"]
    rejected(g, pick("1"), "not allowed here. Choose one of: Ann, Cy")   # Bob did not tie
    ev = g.apply(pick("2"))
    assert texts(ev)[:2] == ["Cy is youngest", "Cy is storyteller"]
    assert g.s["storyteller"] == CY and g.prompt().player == CY


# --------------------------------------------------------------------------- the day's choice


def test_indoors_and_outside_move_exactly_the_rulebook_counters_and_never_below_zero():
    g = position(started(3), dep=[3, 2, 0], sick=[2, 0, 1])
    ev = feed(g, pick("out"))           # Ann: +1 sickness, -2 depression
    assert texts(ev) == ["Ann goes outside"]
    assert counters(g)[ANN] == (1, 3)
    feed(g, pick("out"))                # Bob: depression 2 -> 0
    assert counters(g)[BOB] == (0, 1)
    feed(g, pick("in"))                 # Cy: +1 depression, -1 sickness
    assert counters(g)[CY] == (1, 0)
    assert g.public_view()["children"][CY]["choice"] == "in"
    g = position(started(3), dep=[0, 0, 0], sick=[0, 0, 0])
    feed(g, pick("in"), pick("out"), pick("in"))
    assert counters(g) == [(1, 0), (0, 1), (1, 0)]   # no counter below 0


def test_a_choice_is_made_by_the_child_asked_and_only_the_living_are_asked():
    g = started(3)
    rejected(g, pick("out", player=BOB), "not that player's choice")
    rejected(g, pick("upstairs"), "Choose one of: Indoors, Outside")
    rejected(g, dice(3), "Expected a choice of Indoors, Outside, not dice")


def test_sixth_depression_counter_kills_at_once_and_no_counter_goes_above_six():
    g = position(started(3), dep=[0, 5, 0], sick=[0, 0, 0])
    ev = feed(g, pick("out"), pick("in"))             # Bob: depression 5 -> 6
    assert texts(ev)[-1] == "Bob died of depression"
    assert ev[-1].kind == "death" and ev[-1].data == {"cause": "depression"}
    assert not g.s["alive"][BOB] and counters(g)[BOB] == (6, 0) and g.s["died"][BOB] == 1
    assert g.prompt().player == CY                    # the dead are not asked again
    feed(g, pick("in"))
    # Ann's story goes on (she is outside); Bob does not vote and does not roll.
    feed(g, timer(90), pick("no"), pick("none"))
    assert g.prompt().text == "Good votes, of 1?"


def test_sixth_sickness_counter_kills_a_storyteller_whose_story_then_does_not_happen():
    g = position(started(3), dep=[0, 0, 0], sick=[5, 0, 0])
    ev = feed(g, pick("out"))                          # Ann: sickness 5 -> 6
    assert texts(ev) == ["Ann goes outside", "Ann died of sickness"]
    ev = feed(g, pick("out"), pick("in"))
    assert "No story today" in texts(ev)
    p = g.prompt()
    # Straight to the end-of-day rolls: Bob then Cy (from the dead storyteller's seat).
    assert (p.kind, p.tag, p.count, p.text) == ("dice", "roll", 2, "Survival rolls from Bob (2)")


def test_no_story_when_the_storyteller_stays_indoors():
    g = started(3)
    feed(g, pick("in"), pick("out"), pick("out"))
    assert tag(g) == "roll" and g.s["story"] is None
    assert g.s["counts"]["stories"] == 0


# --------------------------------------------------------------------------- the story


def story_day(g, outside):
    """Day's choices with ``outside`` going out and the rest in, in prompt order."""
    while tag(g) == "choose":
        i = g.prompt().player
        g.apply(pick("out" if i in outside else "in"))


def test_the_story_is_timed_by_the_companion_clock_for_the_storyteller():
    g = started(3)
    story_day(g, {ANN, BOB})
    p = g.prompt()
    # low/high: the one-minute and five-minute marks the companion's clock signals.
    assert (p.kind, p.player, p.low, p.high) == ("timer", ANN, 60, 300)
    assert p.text == "Ann: tell the story"
    ev = g.apply(timer(95))
    assert texts(ev) == ["Story: 1:35"] and ev[0].data == {"seconds": 95}
    p = g.prompt()
    assert (p.text, p.option_keys()) == ("Ann stumbled or stopped <1 min?", ["yes", "no"])


def test_the_stumble_question_takes_yes_or_no_only():
    g = started(3)
    story_day(g, {ANN})
    g.apply(timer(80))
    rejected(g, pick("maybe"), "Choose one of: Yes: \\+1 sickness, No")
    rejected(g, timer(80), "not timer")


def test_a_stumble_or_a_story_stopped_short_costs_the_storyteller_one_sickness():
    g = position(started(3), dep=[2, 0, 0], sick=[1, 0, 0])
    story_day(g, {ANN, BOB})                  # Ann (0, 2)
    # The clock submits a story stopped before a minute as one minute; the group says so.
    ev = feed(g, timer(60), pick("yes"))
    assert texts(ev)[-1] == "Stumble: Ann +1 sickness"
    assert counters(g)[ANN] == (0, 3) and g.s["story"]["stumble"]
    assert tag(g) == "flaw"


def test_no_stumble_no_counter():
    g = started(3)
    story_day(g, {ANN, BOB})                  # Ann (0, 1)
    feed(g, timer(100), pick("no"))
    assert counters(g)[ANN] == (0, 1) and not g.s["story"]["stumble"]


def test_a_story_reaching_five_minutes_is_stopped_there_without_penalty():
    g = started(3)
    story_day(g, {ANN, BOB})                  # Ann (0, 1)
    ev = g.apply(timer(300))
    assert texts(ev) == ["Story: 5:00", "Five minutes: story over"]
    assert counters(g)[ANN] == (0, 1) and tag(g) == "stumble"


def test_the_story_timer_rejects_readings_outside_one_to_five_minutes():
    g = started(3)
    story_day(g, {ANN})
    rejected(g, timer(59), "from 60 to 300, not 59")
    rejected(g, timer(301), "from 60 to 300, not 301")
    rejected(g, Input("timer", 61.5), "whole number")
    rejected(g, number(90), "Expected the story's time, not number")


def test_more_good_votes_take_two_depression_and_one_sickness_from_the_storyteller():
    g = position(started(4), dep=[4, 0, 0, 0], sick=[2, 0, 0, 0])
    story_day(g, {ANN, BOB, CY})              # Ann (2, 3); Dee stays in
    feed(g, timer(120), pick("no"))
    p = g.prompt()
    assert [o.key for o in p.options] == ["none", "forgot", "unhappy"]
    g.apply(pick("none"))
    p = g.prompt()
    assert (p.kind, p.low, p.high, p.player, p.secret, p.text) == ("number", 0, 3, None, False,
                                                                    "Good votes, of 3?")
    ev = g.apply(number(2))
    assert texts(ev)[0] == "Good story (2-1)"
    assert counters(g)[ANN] == (0, 2)
    assert g.s["story"]["result"] == "good" and tag(g) == "roll"


def test_more_bad_votes_give_the_storyteller_one_depression():
    g = position(started(4), dep=[4, 0, 0, 0], sick=[2, 0, 0, 0])
    story_day(g, {ANN, BOB, CY})              # Ann (2, 3)
    ev = feed(g, timer(120), pick("no"), pick("none"), number(1))
    assert "Bad story (1-2)" in texts(ev)
    assert counters(g) == [(3, 3), (0, 1), (0, 1), (1, 0)]


def test_a_tied_vote_gives_every_child_who_was_outside_one_depression():
    g = position(started(5), dep=[2, 3, 1, 2, 0], sick=[0, 0, 0, 0, 0])
    story_day(g, {ANN, BOB, CY, DEE})         # Eve stays in: (1, 0)
    assert counters(g) == [(0, 1), (1, 1), (0, 1), (0, 1), (1, 0)]
    ev = feed(g, timer(120), pick("no"), pick("none"), number(2))
    assert "Tied vote (2-2): outside +1" in texts(ev)
    assert counters(g) == [(1, 1), (2, 1), (1, 1), (1, 1), (1, 0)]


def test_the_vote_tally_cannot_exceed_the_voters_and_the_dead_do_not_vote():
    g = position(started(4), dep=[0, 0, 0, 0], sick=[0, 5, 0, 0])
    story_day(g, {ANN, BOB, CY})              # Bob went out and died of sickness
    feed(g, timer(120), pick("no"), pick("none"))
    assert g.prompt().high == 2
    rejected(g, number(3), "from 0 to 2, not 3")
    rejected(g, number(-1), "from 0 to 2, not -1")
    rejected(g, pick("good"), "Expected a number from 0 to 2, not choice")


def test_an_automatically_bad_story_skips_the_vote():
    g = position(started(3), dep=[3, 0, 0], sick=[0, 0, 0])
    story_day(g, {ANN, BOB})                  # Ann (1, 1)
    ev = feed(g, timer(120), pick("no"), pick("forgot"))
    assert texts(ev)[-2:] == ["Automatically bad story", "Bad story"]
    assert counters(g)[ANN] == (2, 1) and tag(g) == "roll"
    assert g.s["story"]["flaw"] == "forgot" and g.s["story"]["good"] is None


def test_nobody_to_forget_when_the_storyteller_played_alone():
    g = started(3)
    story_day(g, {ANN})
    feed(g, timer(90), pick("no"))
    assert g.prompt().option_keys() == ["none", "unhappy"]
    rejected(g, pick("forgot"), "not allowed here")
    g.apply(pick("none"))
    assert g.prompt().high == 1               # one voter: good or bad, never a tie


def test_a_storyteller_killed_by_a_stumble_ends_the_story_before_the_vote():
    g = position(started(3), dep=[0, 0, 0], sick=[4, 0, 0])
    story_day(g, {ANN, BOB})                  # Ann (0, 5)
    ev = feed(g, timer(100), pick("yes"))
    assert texts(ev)[-2:] == ["Ann died of sickness", "The story ends"]
    assert tag(g) == "roll" and g.prompt().count == 2
    assert g.s["story"]["result"] is None


# --------------------------------------------------------------------------- end of the day


def test_the_roll_must_be_greater_than_sickness_plus_depression():
    g = position(started(3), dep=[1, 2, 0], sick=[1, 0, 3])
    feed(g, pick("in"), pick("in"), pick("in"))    # (2, 0) (3, 0) (1, 2): totals 2, 3, 3
    ev = g.apply(dice(3))
    assert texts(ev) == ["Ann lives (3>2)"]
    assert ev[0].data == {"rolls": [[ANN, 3, 2]]}
    p = g.prompt()
    assert (p.count, p.min_count, p.player, p.text) == (2, 1, None, "Survival rolls from Bob (2)")
    rejected(g, dice(3, 4, 5), "1 to 2 dice, got 3 dice")
    rejected(g, dice(), "1 to 2 dice, got 0 dice")
    rejected(g, dice(7), "1 to 6, not 7")
    rejected(g, cards("K"), "Kings and Jokers are discarded")
    ev = g.apply(dice(3, 4))                       # Bob 3 is not greater than 3; Cy 4 is
    assert texts(ev)[:2] == ["1 of 2 live", "Bob died (3 vs 3)"]
    assert g.s["alive"] == [True, False, True]
    # The storyteller passes left among the living: Bob is dead, so Cy.
    assert texts(ev)[-1] == "Day 2: Cy tells"
    assert g.s["storyteller"] == CY and g.prompt().player == CY
    assert g.score()["points"] == {"Ann": 1, "Bob": 0, "Cy": 1}
    assert g.score()["text"] == "Day 2: 2 alive"


def test_one_die_left_names_the_child_who_rolls_it():
    g = started(3)
    feed(g, pick("in"), pick("in"), pick("in"), dice(2, 2))
    p = g.prompt()
    assert (p.count, p.player, p.text) == (1, CY, "Cy: roll to survive")


def test_the_storyteller_passes_to_the_left_each_day():
    g = started(3, teller=BOB)
    feed(g, pick("in"), pick("in"), pick("in"), dice(6, 6, 6))
    assert g.s["storyteller"] == CY
    feed(g, pick("in"), pick("in"), pick("in"), dice(6, 6, 6))
    assert g.s["storyteller"] == ANN and g.s["day"] == 3   # round the table


def test_the_last_child_alive_wins_and_the_game_ends():
    g = position(started(2), dep=[0, 4], sick=[0, 1])
    feed(g, pick("in"), pick("in"))                 # Ann (1, 0) Bob (5, 0)
    ev = g.apply(dice(2, 5))
    assert texts(ev)[-2:] == ["Bob died (5 vs 5)", "Ann is last alive"]
    assert g.prompt() is None and g.is_over()
    sc = g.score()
    assert sc["winners"] == ["Ann"] and sc["text"] == "Ann wins"
    assert sc["points"] == {"Ann": 1, "Bob": 0}
    assert g.stats()["score"] == 1 and g.stats()["deaths"] == 1
    rejected(g, dice(3), "The game is over")


def test_reading_children_dying_in_the_same_step_share_the_win():
    g = position(started(2), dep=[0, 0], sick=[0, 0])
    feed(g, pick("in"), pick("in"))                 # totals 1 and 1
    ev = g.apply(dice(1, 1))
    assert texts(ev)[-1] == "All fell: 2 share the win"
    sc = g.score()
    assert sc["winners"] == ["Ann", "Bob"] and sc["text"] == "2 share the win"
    assert g.stats()["shared_wins"] == 1


def test_reading_rolls_one_at_a_time_still_finish_the_step():
    # Ann rolls first and dies; Bob is then the only child alive but still rolls,
    # since the rolls are one step. If he also fails, both fell last together.
    g = position(started(2), dep=[0, 0], sick=[0, 0])
    feed(g, pick("in"), pick("in"))
    g.apply(dice(1))
    assert not g.is_over() and g.prompt().text == "Bob: roll to survive"
    g.apply(dice(2))
    assert g.score()["winners"] == ["Bob"]


def test_reading_the_game_can_end_during_the_choices_with_no_story_or_rolls():
    g = position(started(3), dep=[0, 5, 5], sick=[0, 0, 0])
    feed(g, pick("out"), pick("in"))                # Bob dies; two still alive: go on
    assert not g.is_over() and g.prompt().player == CY
    ev = g.apply(pick("in"))                        # Cy dies: Ann alone
    assert texts(ev)[-1] == "Ann is last alive"
    assert g.score()["winners"] == ["Ann"] and g.score()["points"]["Ann"] == 1
    assert g.s["story"] is None


def test_reading_all_children_dying_in_the_choices_share_the_win():
    g = position(started(3), dep=[5, 0, 5], sick=[0, 5, 0])
    ev = feed(g, pick("in"), pick("out"), pick("in"))
    assert texts(ev)[-1] == "All fell: 3 share the win"
    assert g.score()["winners"] == ["Ann", "Bob", "Cy"]


# --------------------------------------------------------------------------- the funeral


def test_funeral_each_living_child_rolls_one_sickness_six_depression():
    g = position(started(3, funeral=True), dep=[0, 3, 0], sick=[0, 0, 0])
    feed(g, pick("in"), pick("in"), pick("in"))      # Bob total 4
    ev = g.apply(dice(6, 2, 6))
    assert texts(ev)[-1] == "Funeral of Bob"
    assert g.public_view()["funeral_of"] == "Bob"
    p = g.prompt()
    # Starting with the child to the left of the dead one: Cy, then Ann.
    assert (p.tag, p.count, p.min_count, p.text) == ("funeral", 2, 1, "Funeral rolls from Cy (2)")
    ev = g.apply(dice(1, 6))
    assert texts(ev)[:2] == ["Cy: 1, +1 sickness", "Ann: 6, +1 depression"]
    assert counters(g) == [(2, 0), (4, 0), (1, 1)]
    assert texts(ev)[-1] == "Day 2: Cy tells" and g.stats()["funerals"] == 1


def test_funeral_rolls_of_2_to_5_change_nothing():
    g = position(started(3, funeral=True), dep=[0, 3, 0], sick=[0, 0, 0])
    feed(g, pick("in"), pick("in"), pick("in"), dice(6, 2, 6))
    before = counters(g)
    g.apply(dice(2))
    g.apply(dice(5))
    assert counters(g) == before and g.s["day"] == 2


def test_one_funeral_per_death_in_order_and_a_funeral_death_gets_one_too():
    g = position(started(4, funeral=True), dep=[0, 3, 0, 3], sick=[0, 0, 5, 0])
    feed(g, *[pick("in")] * 4)                       # Bob total 4, Cy (1, 4), Dee total 4
    ev = g.apply(dice(6, 1, 6, 1))                   # Bob and Dee die
    assert texts(ev)[-1] == "Funeral of Bob"
    g.apply(dice(1, 3))                              # Cy then Ann: Cy sickness 4 -> 5
    assert g.public_view()["funeral_of"] == "Dee"
    ev = g.apply(dice(2, 1))                         # Ann then Cy: Cy sickness 6, dies
    assert "Cy died of sickness" in texts(ev)
    # Ann is the last child alive: no funeral for Cy; the game is over.
    assert g.score()["winners"] == ["Ann"] and g.stats()["funerals"] == 2


def test_a_funeral_death_gets_its_own_funeral_when_the_game_goes_on():
    g = position(started(4, funeral=True), dep=[0, 3, 4, 0], sick=[0, 0, 0, 0])
    feed(g, *[pick("in")] * 4)                       # Bob total 4, Cy (5, 0)
    g.apply(dice(6, 1, 6, 6))                        # Bob dies; Cy 6 > 5 lives
    ev = g.apply(dice(6, 3, 3))                      # Cy, Dee, Ann: Cy's sixth depression
    assert texts(ev)[:2] == ["Cy: 6, +1 depression", "Cy died of depression"]
    assert texts(ev)[-1] == "Funeral of Cy"
    assert g.prompt().text == "Funeral rolls from Dee (2)"
    ev = g.apply(dice(2, 2))
    # Storyteller passes left of Ann past the dead Bob and Cy.
    assert texts(ev) == ["Day 2: Dee tells"] and g.stats()["funerals"] == 2


def test_reading_a_funeral_that_kills_every_mourner_is_a_shared_win():
    g = position(started(3, teller=BOB, funeral=True), dep=[0, 3, 0], sick=[4, 0, 4])
    feed(g, pick("in"), pick("out"), pick("out"))     # Bob (4, 0) stays in; Cy, Ann (0, 5)
    ev = g.apply(dice(1, 6, 6))                       # Bob dies
    assert texts(ev)[-1] == "Funeral of Bob"
    ev = g.apply(dice(1, 1))                          # Cy and Ann: sixth sickness
    assert texts(ev)[-1] == "All fell: 2 share the win"
    assert g.score()["winners"] == ["Ann", "Cy"]


# --------------------------------------------------------------------------- story elements


def tell(g, seconds=120, stumble="no"):
    g.apply(timer(seconds))
    if tag(g) == "stumble":
        g.apply(pick(stumble))


def test_setting_the_stage_a_scene_the_next_story_must_begin_in():
    g = started(3, stage="setting-the-stage")
    story_day(g, {ANN, BOB})
    tell(g)
    p = g.prompt()
    assert (p.tag, p.player, p.text) == ("element", ANN, "Tomorrow we meet at...")
    assert [(o.key, o.label) for o in p.options] == [
        ("0", "the old lighthouse"), ("1", "dad's hat"), ("2", "the dry well"),
        ("own", "Our own: Element 1"), ("none", "No scene")]
    assert texts(g.apply(pick("0"))) == ["Tomorrow: the old lighthouse"]
    assert g.public_view()["scene"] == "the old lighthouse"
    # This story was not bound by the scene it set.
    assert g.prompt().option_keys() == ["none", "forgot", "unhappy"]
    feed(g, pick("none"), number(2), dice(6, 6, 6))
    # Day 2, Bob tells: his story must begin at the lighthouse.
    story_day(g, {BOB})
    tell(g)
    p = g.prompt()
    assert p.option_keys() == ["1", "2", "3", "own", "none"]   # the next suggestions
    g.apply(pick("none"))
    assert g.public_view()["scene"] is None
    p = g.prompt()
    assert p.options[-1].label == "Not begun at the old lighthouse"
    dep = counters(g)[BOB][0]
    ev = g.apply(pick("scene"))
    assert texts(ev)[-2:] == ["Automatically bad story", "Bad story"]
    assert counters(g)[BOB][0] == dep + 1 and tag(g) == "roll"


def test_setting_the_stage_a_scene_waits_for_the_next_story_told():
    g = started(3, stage="setting-the-stage")
    story_day(g, {ANN})
    tell(g)
    feed(g, pick("own"), pick("none"), number(1), dice(6, 6, 6))
    assert g.public_view()["scene"] == "Element 1"
    feed(g, pick("in"), pick("in"), pick("in"), dice(6, 6, 6))   # Bob stays in: no story
    assert g.public_view()["scene"] == "Element 1"
    story_day(g, {CY})                                          # day 3, Cy tells
    tell(g)
    g.apply(pick("none"))
    assert "scene" in g.prompt().option_keys()


def test_string_of_elements_grows_costs_a_missed_one_and_loses_the_oldest_on_a_bad_story():
    g = started(3, stage="string-of-elements")
    story_day(g, {ANN, BOB})
    tell(g)                                   # no elements yet: no "missing" question
    p = g.prompt()
    assert (p.tag, p.text) == ("element", "Add a story element")
    assert "none" not in p.option_keys()      # every story adds one
    assert texts(g.apply(pick("own"))) == ["New element: Element 1"]
    feed(g, pick("none"), number(2), dice(6, 6, 6))      # a good story keeps it
    assert g.public_view()["elements"] == ["Element 1"]
    # Day 2, Bob tells.
    story_day(g, {BOB, CY})
    tell(g)
    p = g.prompt()
    assert (p.tag, p.text) == ("missing", "Was an element missing?")
    dep = counters(g)[BOB][0]
    ev = g.apply(pick("yes"))
    assert texts(ev) == ["Element missing: Bob +1 depr."] and counters(g)[BOB][0] == dep + 1
    p = g.prompt()
    assert [o.label for o in p.options] == ["a rag doll", "the bell tower", "the miller's barn",
                                            "Our own: Element 2"]
    g.apply(pick("3"))
    assert g.public_view()["elements"] == ["Element 1", "a rag doll"]
    ev = feed(g, pick("none"), number(0))
    assert "Forgotten: Element 1" in texts(ev)           # the oldest goes
    assert g.public_view()["elements"] == ["a rag doll"]
    assert counters(g)[BOB][0] == dep + 2


def test_the_element_suggestions_skip_elements_already_required():
    g = position(started(2, stage="string-of-elements"), elements=list(ELEMENTS[:4]), offer=2)
    story_day(g, {ANN})
    tell(g)
    g.apply(pick("no"))
    assert g.prompt().option_keys() == ["4", "5", "6", "own"]


def test_element_choice_is_the_storytellers():
    g = started(3, stage="string-of-elements")
    story_day(g, {ANN, BOB})
    tell(g)
    rejected(g, pick("own", player=BOB), "not that player's choice")
    rejected(g, pick("none"), "not allowed here")
    rejected(g, pick("23"), "not allowed here")          # not among the suggestions


def test_morbid_scenes_give_every_child_outside_one_depression_and_the_vote_still_happens():
    g = position(started(3, morbid=True), dep=[3, 2, 0], sick=[0, 0, 0])
    story_day(g, {ANN, BOB})                 # Ann (1, 1) Bob (0, 1) Cy (1, 0)
    tell(g)
    p = g.prompt()
    assert (p.tag, p.text) == ("morbid", "Twisted, morbid scenes?")
    ev = g.apply(pick("yes"))
    assert texts(ev) == ["Morbid: all outside +1 depr."]
    assert counters(g) == [(2, 1), (1, 1), (1, 0)]
    assert tag(g) == "flaw"
    feed(g, pick("none"))
    assert tag(g) == "vote"


# --------------------------------------------------------------------------- views, secrecy


def test_nothing_is_secret_the_vote_is_only_a_tally():
    g = started(3)
    story_day(g, {ANN, BOB, CY})
    feed(g, timer(90), pick("no"), pick("none"))
    p = g.prompt()
    assert p.kind == "number" and p.player is None and not p.secret
    ev = g.apply(number(1))
    assert not any(e.private for e in ev)
    # The state keeps the tally and nothing else of the vote, so the public view can show
    # the whole story record and no player has anything private.
    assert g.public_view()["story"] == g.s["story"] and g.s["story"]["good"] == 1
    assert all(g.private_view(i) == {} for i in range(3))


def test_public_view_is_json_and_a_copy():
    g = started(3, stage="string-of-elements")
    story_day(g, {ANN})
    tell(g)
    view = g.public_view()
    json.dumps(view)
    view["story"]["required"].append("x")
    view["children"][0]["depression"] = 5
    assert g.s["story"]["required"] == [] and g.s["dep"][ANN] == 0


def test_check_invariants_catches_a_living_child_with_six_counters():
    g = started(3)
    g.check_invariants()
    g.s["dep"][BOB] = 6
    with pytest.raises(AssertionError, match="alive with six"):
        g.check_invariants()


# --------------------------------------------------------------------------- simulations


def test_random_games_full_check():
    rng = random.Random(3)
    for k in range(30):
        setup = random_setup(AllFallDown, rng, players=rng.choice((2, 3, 4, 6)))
        rec = play_game(AllFallDown, setup, rng, check="full")
        g = rec.game
        assert g.is_over() and g.score()["winners"]
        assert rec.rejected == 0


def test_many_random_games_fast_check_every_option_and_size():
    rng = random.Random(11)
    shared = 0
    for k in range(200):
        options = {"funeral": k % 2 == 0,
                   "stage": ("off", "setting-the-stage", "string-of-elements")[k % 3],
                   "morbid": k % 5 == 0}
        setup = random_setup(AllFallDown, rng, players=2 + k % 19, options=options)
        g = play_game(AllFallDown, setup, rng).game
        winners = g.score()["winners"]
        alive = [n for n, a in zip(g.players, g.s["alive"]) if a]
        if alive:
            assert winners == alive and len(alive) == 1
        else:
            # Everyone fell: those who fell in the last step (two at least) share the win.
            shared += 1
            assert len(winners) >= 2
            assert all(g.s["died"][g.players.index(w)] == g.s["day"] for w in winners)
        # Points are days survived: never more than the days played.
        assert max(g.score()["points"].values()) <= g.s["day"]
    assert 0 < shared < 200


def test_a_game_through_the_table_with_undo_correct_and_resume(tmp_path):
    path = tmp_path / "journal.sqlite3"
    t = Table(path)
    t.new_game("all-fall-down", Setup(NAMES[:3], {"funeral": True}))
    t.submit(dice(4, 6, 2))                       # Bob tells
    assert t.game.s["storyteller"] == BOB
    t.correct(dice(4, 5, 6))                      # the tray misread Cy's die: Cy tells
    assert t.game.s["storyteller"] == CY
    t.submit(pick("out"))                         # Cy
    t.submit(pick("in"))                          # Ann
    t.undo()                                      # Ann meant to go out
    assert t.game.prompt().player == ANN
    t.submit(pick("out"))
    t.submit(pick("in"))                          # Bob
    t.submit(timer(75))
    t.submit(pick("no"))
    t.submit(pick("none"))
    t.submit(number(2))                           # good: Cy (0, 0)
    t.submit(dice(3, 1))                          # Cy 3 > 0, Ann 1 > 1? no: Ann (0, 1) dies
    assert not t.game.s["alive"][ANN] and t.game.prompt().tag == "roll"
    t.correct(dice(3, 2))                         # it was a 2: Ann lives
    assert t.game.s["alive"][ANN]
    with pytest.raises(IllegalInput, match="got 3 dice"):
        t.submit(dice(1, 2, 3))
    t.submit(dice(5))                             # Bob
    status = t.status()
    assert status["public"]["day"] == 2 and status["public"]["storyteller"] == "Ann"
    t.close()
    again = Table(path)                           # resumed from the journal
    assert again.game.snapshot() == t.game.snapshot()
    assert again.status()["prompt"]["text"] == "Ann: indoors or out?"
    again.close()
