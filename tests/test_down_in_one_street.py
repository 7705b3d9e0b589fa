"""Down-in-one Street: every stage of the rulebook, hand-worked from its text."""

from __future__ import annotations

import json
import random

import pytest

from companion.bots import bot_input
from companion.rules.core import Input, Setup, cards, coins, dice, number, pick
from companion.rules.down_in_one_street import DownInOneStreet
from companion.simulation import play_game, random_setup
from companion.table import Table
from dios_helpers import (card_inputs, choose_cards, extra, feed, host_party, masks, new_game,
                          partying, plan, rejected, roll, simple_party, start, tag, texts)

H, T = "heads", "tails"


def quiet_party(g) -> list:
    """An outdoor party where nobody breaks anything (everyone gets drinks in)."""
    events = simple_party(g, venue="outdoor")
    if tag(g) == "dancing":
        events += roll(g, 1)
    return events


# --------------------------------------------------------------------------- Stage 1


def test_the_group_chooses_cards_and_puts_one_coin_per_card_in_the_pile():
    g = new_game(4)
    p = g.prompt()
    assert (p.tag, p.player, p.text) == ("first-host", None, "Who last observed a COVID rule?")
    events = start(g, "Cy", indoor_max=6, anywhere_max=12, masks="indoors", max_length=120)
    assert g.s["cards"] == {"indoor_max": 6, "anywhere_max": 12, "masks": "indoors", "max_length": 120}
    assert g.s["coins"] == 4
    assert "Case numbers pile: 4 coins" in texts(events)
    assert [r["label"] for r in g.public_view()["restrictions"]] == [
        "Max 6 people indoors", "Max 12 people anywhere", "Masks indoors", "Max length 120 min"]
    # Cy observed a restriction most recently, so Cy hosts the first party.
    assert (g.prompt().tag, g.prompt().player) == ("venue", 2)


def test_choosing_cards_is_a_group_decision_one_question_per_card():
    g = new_game(3)
    g.apply(pick("0"))
    asked = []
    for inp in card_inputs(indoor_max=6, masks="everywhere", windows=True):
        p = g.prompt()
        assert p.player is None and p.tag == "restrictions"
        asked.append((p.kind, p.text, p.option_keys() if p.options else (p.low, p.high)))
        g.apply(inp)
    assert asked == [
        ("number", "Max people indoors? (0 = not used)", (0, 50)),
        ("number", "Max people anywhere? (0 = not used)", (0, 100)),
        ("choice", "Masks must be worn?", ["indoors", "everywhere", "skip"]),
        ("choice", "Use card: Social distancing?", ["use", "skip"]),
        ("choice", "Use card: No singing?", ["use", "skip"]),
        ("choice", "Use card: Windows must be open?", ["use", "skip"]),
        ("number", "Max length (min)? (0 = not used)", (0, 1440)),
    ]
    assert g.s["cards"] == {"indoor_max": 6, "masks": "everywhere", "windows": True}
    assert g.s["coins"] == 3


def test_the_anywhere_limit_must_be_at_least_double_the_indoor_limit():
    g = new_game(4)
    feed(g, pick("0"), number(6))
    err = rejected(g, number(11), "at least double the indoor limit")
    assert "12 or more" in str(err)
    g.apply(number(12))
    assert g.s["cards"]["anywhere_max"] == 12


def test_the_anywhere_limit_alone_may_be_any_number():
    g = new_game(4)
    start(g, anywhere_max=3)
    assert g.s["cards"] == {"anywhere_max": 3}


def test_a_lockdown_needs_at_least_one_restriction_card():
    g = new_game(4)
    g.apply(pick("0"))
    feed(g, *card_inputs()[:-1])
    rejected(g, number(0), "at least one Restriction card")
    g.apply(number(90))
    assert g.s["cards"] == {"max_length": 90} and g.s["coins"] == 1


def test_a_card_setting_out_of_range_is_refused():
    g = new_game(4)
    g.apply(pick("0"))
    rejected(g, number(51), "from 0 to 50")
    g.apply(number(0))
    rejected(g, number(-1), "from 0 to 100")
    g.apply(number(0))
    rejected(g, pick("outside"), "not allowed here")


# --------------------------------------------------------------------------- Stage 2


def test_hosting_passes_to_the_left_after_every_party():
    g = new_game(4)
    start(g, "Cy", distancing=True, no_singing=True)
    hosts = []
    for flip in ((H, H), (H, H), (H, T)):
        hosts.append(g.s["host"])
        quiet_party(g)
        assert tag(g) == "case-numbers"
        g.apply(coins(*flip))
    assert hosts == [2, 3, 0]
    # One coin left: a new lockdown, whose first party the next player (Bob) hosts.
    assert (g.s["lockdown"], tag(g)) == (2, "restrictions")
    choose_cards(g, windows=True)
    assert (g.prompt().tag, g.prompt().player) == ("venue", 1)


def test_the_host_sets_venue_size_and_length():
    g = new_game(4)
    start(g, "Bob", max_length=120)
    assert [tag(g), g.prompt().player] == ["venue", 1]
    g.apply(pick("indoor"))
    assert g.prompt().option_keys() == ["small", "medium", "large"]
    g.apply(pick("large"))
    assert g.prompt().text == "Bob: length in minutes"
    g.apply(number(90))
    party = g.public_view()["party"]
    assert (party["venue"], party["size"], party["length"], party["attendees"]) == ("indoor", "large", 90, 4)


def test_length_may_be_omitted_only_without_the_max_length_card():
    g = new_game(4)
    start(g, distancing=True)
    feed(g, pick("indoor"), pick("small"))
    assert g.prompt().text == "Ann: length (0 = none)"
    g.apply(number(0))
    assert g.s["party"]["length"] is None

    g = new_game(4)
    start(g, max_length=120)
    feed(g, pick("indoor"), pick("small"))
    rejected(g, number(0), r"max length card \(120 min\) is in force")


def test_a_planned_length_over_the_limit_breaks_the_card_at_once_and_skips_overstaying():
    g = new_game(4)
    start(g, max_length=120)
    events = host_party(g, "outdoor", "small", 150)
    assert "Broken: max length" in texts(events)
    plan(g, Ann=["work", "drinks"], Bob=["work", "drinks"], Cy=["drinks"] * 2, Di=["drinks"] * 2)
    partying(g)
    # Already broken, so no overstaying dice: straight to the cover up (7 dice).
    assert tag(g) == "cover-up" and g.prompt().count == 7
    assert g.s["party"]["length"] == 150


def test_the_people_limits_are_checked_as_soon_as_the_venue_is_known():
    g = new_game(4)
    start(g, indoor_max=3)
    events = host_party(g, "indoor")
    assert texts(events)[:2] == ["Venue: indoor", "Broken: max people indoors"]

    g = new_game(4)
    start(g, indoor_max=3)
    host_party(g, "outdoor")  # the indoor limit never applies outdoors
    assert g.s["party"]["broken"] == []

    g = new_game(4)
    start(g, anywhere_max=3)
    host_party(g, "outdoor")
    assert g.s["party"]["broken"] == ["anywhere_max"]


# --------------------------------------------------------------------------- Stage 3


@pytest.mark.parametrize("n, split", [(2, [4, 4]), (3, [2, 3, 3]), (4, [2, 2, 2, 2]),
                                      (5, [1, 2, 2, 2, 1]), (6, [1, 2, 2, 1, 1, 1]),
                                      (7, [1, 2, 1, 1, 1, 1, 1]), (8, [1] * 8)])
def test_eight_actions_are_split_and_the_host_gives_out_the_remainder(n, split):
    g = new_game(n)
    start(g, distancing=True)
    host_party(g)
    names = g.players
    remainder = 8 % n
    if remainder:
        p = g.prompt()
        assert (p.tag, p.player, p.text) == ("extra-action", 0, "Ann: extra action for?")
        extra(g, names[1])
        if remainder > 1:
            assert "1" not in g.prompt().option_keys()  # at most one extra action each
            rejected(g, pick("1"), "not allowed here")
            extra(g, *names[2:remainder + 1])
    assert g.s["party"]["slots"] == split
    assert tag(g) == "planning"


def test_planning_is_secret_and_revealed_in_order_from_the_host():
    g = new_game(4)
    start(g, "Bob", distancing=True)
    host_party(g)
    p = g.prompt()
    assert (p.tag, p.player, p.secret, p.text) == ("planning", 1, True, "Bob: plan action 1 of 2")
    public_events = []
    for who, action in ((1, "invite4"), (1, "invite4"), (2, "karaoke"), (2, "drinks"),
                        (3, "work"), (3, "drinks")):
        public_events += [e for e in g.apply(pick(action, who)) if not e.private]
        view = json.dumps(g.public_view())
        assert not any(a in view for a in ("invite4", "karaoke", "work\"", "drinks")), view
    assert g.private_view(1)["plans"] == ["invite4", "invite4"]  # the same action twice
    assert g.private_view(0)["plans"] == []
    assert g.public_view()["party"]["planned"] == {"Ann": 0, "Bob": 2, "Cy": 2, "Di": 2}
    assert public_events == []
    rejected(g, pick("drinks", 2), "not that player's choice")  # Ann's turn, not Cy's
    events = feed(g, pick("invite1", 0), pick("drinks", 0))
    assert texts(events) == [
        "You plan: Invite 1", "You plan: Get drinks in",  # private, to Ann
        "Bob: Invite 4, Invite 4", "Attendees: 8", "Attendees: 12",
        "Cy: Arrange karaoke, Get drinks in",
        "Di: Bring a work thing, Get drinks in",
        "Ann: Invite 1, Get drinks in", "Attendees: 13"]
    assert [e.private for e in events[:2]] == [True, True]
    assert g.public_view()["party"]["plans"]["Bob"] == ["invite4", "invite4"]


def test_each_invite_revealed_updates_attendees_and_may_break_a_people_limit_there_and_then():
    g = new_game(4)
    start(g, indoor_max=6)
    host_party(g, "indoor")
    events = plan(g, Ann=["invite1", "drinks"], Bob=["invite2", "drinks"],
                  Cy=["drinks"] * 2, Di=["drinks"] * 2)
    public = [e.text for e in events if not e.private]
    assert public == ["Ann: Invite 1, Get drinks in", "Attendees: 5",
                      "Bob: Invite 2, Get drinks in", "Attendees: 7", "Broken: max people indoors",
                      "Cy: Get drinks in, Get drinks in", "Di: Get drinks in, Get drinks in"]


# --------------------------------------------------------------------------- Stage 4


def test_masking_up_is_skipped_when_no_mask_rule_applies_to_the_party():
    g = new_game(4)
    start(g, distancing=True)
    simple_party(g)
    assert g.s["party"]["masks"] == [None] * 4

    g = new_game(4)
    start(g, masks="indoors")
    host_party(g, "outdoor")
    plan(g, **{nm: ["drinks"] * 2 for nm in g.players})
    assert tag(g) == "partying"

    g = new_game(4)
    start(g, masks="everywhere")
    host_party(g, "outdoor")
    plan(g, **{nm: ["drinks"] * 2 for nm in g.players})
    assert tag(g) == "masks" and g.prompt().secret


@pytest.mark.parametrize("n, unmasked, broken", [(4, 2, True), (4, 1, False), (5, 3, True),
                                                 (5, 2, False), (2, 1, True), (2, 0, False)])
def test_masks_are_broken_when_at_least_half_the_players_go_unmasked(n, unmasked, broken):
    g = new_game(n)
    start(g, masks="indoors")
    host_party(g, "indoor")
    if tag(g) == "extra-action":
        extra(g, *g.players[:8 % n])
    plan(g, **{nm: ["drinks"] * g.s["party"]["slots"][i] for i, nm in enumerate(g.players)})
    events = masks(g, **{nm: i >= unmasked for i, nm in enumerate(g.players)})
    assert ("Broken: masks must be worn" in texts(events)) == broken
    assert (g.s["party"]["broken"] == ["masks"]) == broken


def test_mask_choices_stay_secret_until_everyone_has_chosen():
    g = new_game(4)
    start(g, masks="everywhere")
    host_party(g)
    plan(g, **{nm: ["drinks"] * 2 for nm in g.players})
    public = []
    for who, on in ((0, "off"), (1, "on"), (2, "off")):
        public += [e for e in g.apply(pick(on, who)) if not e.private]
        party = g.public_view()["party"]
        assert party["masks"] is None
    assert party["masks_decided"] == {"Ann": True, "Bob": True, "Cy": True, "Di": False}
    assert g.private_view(0)["mask"] is False and g.private_view(1)["mask"] is True
    assert [e.text for e in public] == ["Ann has decided", "Bob has decided", "Cy has decided"]
    events = g.apply(pick("on", 3))
    assert "Masks: 2 on, 2 off" in texts(events)
    assert g.public_view()["party"]["masks"] == {"Ann": False, "Bob": True, "Cy": False, "Di": True}


# --------------------------------------------------------------------------- Stage 5


def test_windows_toggle_from_closed_and_closed_windows_break_the_card_indoors():
    g = new_game(4)
    start(g, windows=True)
    host_party(g, "indoor")
    plan(g, **{nm: ["drinks"] * 2 for nm in g.players})
    labels = []
    for who in range(3):
        labels.append(g.prompt().label_of("windows"))
        g.apply(pick("windows", who))
    assert labels == ["Open windows", "Close windows", "Open windows"]
    g.apply(pick("none", 3))
    assert g.s["party"]["broken"] == [] and g.public_view()["party"]["windows"] == "open"

    g = new_game(4)
    start(g, windows=True)
    events = simple_party(g, acts={"Ann": "windows", "Bob": "windows"})
    assert texts(events)[-1] == "Broken: windows must be open"

    g = new_game(4)
    start(g, windows=True)
    simple_party(g, venue="outdoor")  # closed, but outdoors: the card does not apply
    assert g.s["party"]["broken"] == []


def test_sing_is_offered_only_when_karaoke_was_arranged_and_breaks_no_singing():
    g = new_game(4)
    start(g, no_singing=True)
    host_party(g)
    plan(g, **{nm: ["drinks"] * 2 for nm in g.players})
    assert "sing" not in g.prompt().option_keys()
    rejected(g, pick("sing", 0), "not allowed here")

    g = new_game(4)
    start(g, no_singing=True)
    host_party(g)
    plan(g, Ann=["drinks"] * 2, Bob=["karaoke", "drinks"], Cy=["drinks"] * 2, Di=["drinks"] * 2)
    events = g.apply(pick("sing", 0))
    assert texts(events) == ["Ann sings", "Broken: no singing"]


@pytest.mark.parametrize("n, dancers, broken", [(4, 1, True), (4, 0, False), (5, 1, False),
                                                (5, 2, True), (8, 1, False), (8, 2, True)])
def test_one_dancer_breaks_social_distancing_but_two_are_needed_with_five_or_more(n, dancers, broken):
    g = new_game(n)
    start(g, distancing=True)
    simple_party(g, venue="outdoor", acts={nm: "dance" for nm in g.players[:dancers]})
    assert (g.s["party"]["broken"] == ["distancing"]) == broken
    # Already broken: the guests' dancing roll is skipped.
    assert tag(g) == ("cover-up" if broken else "dancing")


def test_work_things_count_only_as_many_as_are_done_in_a_five_player_game():
    # "three bring a work thing but only two do a work thing ... counts as two"
    g = new_game(5)
    start(g, max_length=120)
    host_party(g, "outdoor", "small", 60)
    extra(g, "Ann", "Bob", "Cy")
    plan(g, Ann=["work", "drinks"], Bob=["work", "drinks"], Cy=["work", "drinks"],
         Di=["drinks"], Ed=["drinks"])
    partying(g, Ann="work", Di="work", Ed="evidence")
    assert g.work_things() == 2 and g.public_view()["party"]["work_things"] == 2
    assert (tag(g), g.prompt().count) == ("overstay", 2)


def test_do_a_work_thing_has_no_effect_with_four_players():
    g = new_game(4)
    start(g, max_length=120)
    host_party(g, "outdoor", "small", 60)
    plan(g, Ann=["work", "drinks"], Bob=["work", "drinks"], Cy=["work", "drinks"], Di=["drinks"] * 2)
    partying(g)
    assert g.work_things() == 3
    assert (tag(g), g.prompt().count) == ("overstay", 3)


def test_destroying_evidence_lowers_the_cover_up_target():
    g = new_game(4)
    start(g, distancing=True)
    simple_party(g, acts={"Ann": "dance", "Bob": "evidence", "Cy": "evidence"})
    assert g.prompt().text == "Cover up: roll 7 dice (need 2)"
    assert g.target() == 2
    # Evidence lowers the target only: the score is all 4 attendees x 1 card broken.
    assert texts(roll(g, 1, 1, 1, 1, 1, 1, 1)) == ["Covered up (7/2): +4"]


# --------------------------------------------------------------------------- Stage 6


def test_uninvited_guests_one_die_per_inviting_player_one_to_three_join():
    g = new_game(4)
    start(g, "Bob", anywhere_max=8)
    simple_party(g, venue="outdoor", plans={"Ann": ["invite1", "drinks"], "Cy": ["invite2", "invite1"]})
    assert g.s["party"]["attendees"] == 8
    p = g.prompt()
    assert (p.tag, p.count, p.min_count, p.text) == ("uninvited", 2, 1, "Uninvited guests: roll 2 dice")
    # Cy reveals before Ann (order from the host, Bob), so Cy's die comes first.
    events = roll(g, 5)
    assert g.s["party"]["attendees"] == 8 and events == []
    assert g.prompt().text == "Ann's guests: roll 1 die"
    events = roll(g, 2)
    assert texts(events) == ["Ann: 2 uninvited", "Attendees: 10", "Broken: max people anywhere"]


def test_uninvited_guest_dice_may_come_all_at_once():
    g = new_game(4)
    start(g, distancing=True)
    simple_party(g, venue="outdoor", plans={"Ann": ["invite1", "drinks"], "Bob": ["invite1", "drinks"],
                                            "Cy": ["invite8", "drinks"]})
    roll(g, 3, 4, 1)
    assert g.s["party"]["attendees"] == 4 + 10 + 3 + 1
    assert tag(g) == "dancing"


@pytest.mark.parametrize("length, work_die, broken", [(100, 3, True), (97, 3, False)])
def test_overstaying_adds_ten_minutes_per_drinks_and_a_die_per_work_thing(length, work_die, broken):
    g = new_game(4)
    start(g, max_length=120)
    host_party(g, "outdoor", "small", length)
    plan(g, Ann=["drinks", "drinks"], Bob=["work", "karaoke"], Cy=["karaoke"] * 2, Di=["karaoke"] * 2)
    events = partying(g)
    assert texts(events)[-1] == f"Drinks: length {length + 20} min"
    events = roll(g, work_die)
    assert texts(events)[0] == f"Work things: length {length + 20 + work_die} min"
    assert (g.s["party"]["broken"] == ["max_length"]) == broken


def test_overstaying_without_work_things_needs_no_dice_and_equal_length_is_not_over():
    g = new_game(4)
    start(g, max_length=120)
    host_party(g, "outdoor", "small", 100)
    plan(g, Ann=["drinks", "drinks"], Bob=["karaoke"] * 2, Cy=["karaoke"] * 2, Di=["karaoke"] * 2)
    events = partying(g)
    assert "Drinks: length 120 min" in texts(events)
    assert g.s["party"]["broken"] == [] and tag(g) == "case-numbers"


@pytest.mark.parametrize("invites, uninvited, guests, die, broken", [
    (["invite8", "invite1"], 6, 9, 5, True), (["invite8", "invite1"], 6, 9, 4, False),
    (["invite8", "invite2"], 6, 10, 4, True), (["invite2", "invite2"], 5, 4, 5, False),
    # uninvited guests are guests too: 9 invited + 1 uninvited make two fives
    (["invite8", "invite1"], 1, 10, 4, True)])
def test_guests_dance_on_die_plus_one_per_five_guests_of_six_or_more(invites, uninvited, guests,
                                                                      die, broken):
    g = new_game(4)
    start(g, distancing=True)
    simple_party(g, venue="outdoor", plans={"Ann": invites})
    roll(g, uninvited)  # Ann's uninvited guests
    assert g.guests() == guests
    events = roll(g, die)
    assert ("Broken: social distancing" in texts(events)) == broken


@pytest.mark.parametrize("die, broken", [(3, True), (2, False)])
def test_guests_sing_on_die_plus_one_per_drinks_of_five_or_more(die, broken):
    g = new_game(4)
    start(g, no_singing=True)
    simple_party(g, venue="outdoor", plans={"Ann": ["karaoke", "karaoke"], "Bob": ["karaoke"] * 2,
                                            "Cy": ["karaoke", "drinks"], "Di": ["karaoke", "drinks"]})
    assert tag(g) == "singing"
    events = roll(g, die)  # + 2 for two Get drinks in
    assert ("Broken: no singing" in texts(events)) == broken


def test_a_roll_whose_outcome_is_certain_is_still_rolled():
    g = new_game(4)
    start(g, no_singing=True)
    simple_party(g, venue="outdoor", plans={"Ann": ["karaoke", "drinks"], "Bob": ["drinks"] * 2,
                                            "Cy": ["drinks"] * 2, "Di": ["drinks"] * 2})
    assert tag(g) == "singing"  # 1 + 7 drinks cannot miss, but the rulebook says roll
    assert texts(roll(g, 1))[:2] == ["Guests sing (8)", "Broken: no singing"]


def test_no_singing_roll_without_karaoke():
    g = new_game(4)
    start(g, no_singing=True)
    simple_party(g, venue="outdoor")
    assert tag(g) == "case-numbers"


# --------------------------------------------------------------------------- Stage 7


def three_broken(g):
    """Ann dances, Bob sings and the windows stay closed: three restrictions broken."""
    start(g, distancing=True, no_singing=True, windows=True)
    return simple_party(g, plans={"Bob": ["karaoke", "drinks"]}, acts={"Ann": "dance", "Bob": "sing"})


def test_three_restrictions_broken_roll_five_dice_and_success_scores_attendees_times_broken():
    g = new_game(4)
    three_broken(g)
    p = g.prompt()
    assert (p.tag, p.count, p.text) == ("cover-up", 5, "Cover up: roll 5 dice (need 4)")
    events = roll(g, 1, 1, 1, 1, 1)
    assert texts(events) == ["Covered up (5/4): +12"]
    assert g.s["total"] == 12 and g.s["log"][-1]["score"] == 12
    assert tag(g) == "case-numbers"


def test_a_cover_up_roll_may_be_given_as_playing_cards():
    g = new_game(4)
    three_broken(g)
    rejected(g, cards("Q", "J", "10", "9", "K"), "Kings and Jokers are discarded")
    rejected(g, cards("Q", "J", "10", "9"), "Expected 5 dice")
    events = g.apply(cards("Q", "J", "10", "9", "8"))
    assert g.s["party"]["dice"] == [6, 5, 4, 3, 2]
    assert texts(events) == ["Covered up (20/4): +12"]


def test_no_restrictions_broken_means_no_points_and_no_roll():
    g = new_game(4)
    start(g, distancing=True)
    events = quiet_party(g)
    assert "No restrictions broken: no points" in texts(events)
    assert tag(g) == "case-numbers" and g.s["log"][-1]["score"] == 0 and g.s["total"] == 0
    # One coin cannot keep the lockdown going, but it is flipped all the same.
    assert g.prompt().count == 1
    g.apply(coins(H))
    assert (g.s["lockdown"], tag(g)) == (2, "restrictions")


def exposed_party(g):
    """2 players, Ann brings four work things, Bob invites 32: 34 attendees, 1 card broken."""
    start(g, anywhere_max=10)
    host_party(g, "outdoor")
    plan(g, Ann=["work"] * 4, Bob=["invite8"] * 4)
    partying(g)
    roll(g, 6)  # Bob's uninvited guests: none
    assert g.prompt().text == "Cover up: roll 7 dice (need 34)"
    events = roll(g, 1, 1, 1, 1, 1, 1, 1)
    assert texts(events) == ["Word got out (7/34)"]


def test_rerolls_one_die_then_all_then_one_then_one():
    g = new_game(2)
    exposed_party(g)
    p = g.prompt()
    assert (p.tag, p.player, p.text) == ("reroll-choice", None, "Work thing (4 left): reroll?")
    assert p.option_keys() == ["all", "d1", "d2", "d3", "d4", "d5", "d6", "d7"]
    assert p.label_of("d1") == "Reroll die 1 (1)"
    g.apply(pick("d1"))
    assert (g.prompt().count, g.prompt().text) == (1, "Reroll 1 die (need 34)")
    roll(g, 6)
    assert g.s["party"]["dice"] == [6, 1, 1, 1, 1, 1, 1]
    g.apply(pick("all"))
    assert g.prompt().count == 7
    roll(g, 5, 5, 5, 5, 5, 5, 1)
    g.apply(pick("d7"))
    roll(g, 2)
    assert g.s["party"]["dice"] == [5, 5, 5, 5, 5, 5, 2] and g.s["party"]["rerolls"] == 1
    g.apply(pick("d7"))
    events = roll(g, 6)
    assert texts(events) == ["Covered up (36/34): +34"]
    assert tag(g) == "case-numbers"


def test_still_failing_after_the_rerolls_scores_attendees_and_ends_the_game():
    g = new_game(2)
    exposed_party(g)
    for _ in range(3):
        g.apply(pick("d1"))
        roll(g, 2)
    g.apply(pick("all"))
    events = roll(g, 6, 6, 6, 6, 1, 1, 1)
    assert texts(events) == ["Rumbled (27/34): +34", "34 points in 1 lockdown"]
    assert g.prompt() is None
    assert g.score()["result"] == "34 points in 1 lockdown"
    assert g.score()["points"] == {"team": 34} and g.score()["winners"] == ["team"]
    rejected(g, dice(6), "The game is over")


def test_a_single_cover_up_die_can_only_be_rerolled_whole():
    g = new_game(2)
    # Seven broken leaves one die: every card, indoor, everyone dances and sings, unmasked.
    start(g, indoor_max=1, anywhere_max=2, masks="everywhere", distancing=True, no_singing=True,
          windows=True, max_length=10)
    host_party(g, "indoor", "large", 60)
    plan(g, Ann=["karaoke", "work", "drinks", "drinks"], Bob=["invite1"] * 4)
    masks(g, Ann=False, Bob=False)
    partying(g, Ann="dance", Bob="sing")
    roll(g, 6)
    assert len(g.s["party"]["broken"]) == 7
    assert g.prompt().count == 1
    roll(g, 1)
    assert g.prompt().option_keys() == ["all"]


# --------------------------------------------------------------------------- Stage 8


def test_two_or_more_coins_left_continue_the_lockdown_with_the_next_host():
    g = new_game(4)
    three_broken(g)
    roll(g, 6, 6, 6, 6, 6)
    assert g.prompt().text == "Case numbers: flip 3 coins"
    events = g.apply(coins(H, T, H))
    assert "2 coins left: lockdown goes on" in texts(events)
    assert (g.s["coins"], g.s["lockdown"], g.s["host"], tag(g)) == (2, 1, 1, "venue")
    view = g.public_view()
    assert not any(r["broken"] for r in view["restrictions"])  # cards face up again
    assert view["party"]["attendees"] == 4


def test_fewer_than_two_coins_start_a_new_lockdown_and_the_final_score_counts_them():
    g = new_game(4)
    three_broken(g)
    roll(g, 6, 6, 6, 6, 6)
    events = g.apply(coins(T, H, T))
    assert "1 coin left: lockdown 1 ends" in texts(events)
    assert (g.s["lockdown"], g.s["coins"], tag(g)) == (2, 0, "restrictions")
    choose_cards(g, anywhere_max=4)
    assert g.s["host"] == 1 and g.s["coins"] == 1
    host_party(g, "outdoor")
    plan(g, Ann=["work"] * 2, Bob=["invite8"] * 2, Cy=["drinks"] * 2, Di=["drinks"] * 2)
    partying(g)
    roll(g, 5)  # Bob's uninvited guests: none; 20 attendees
    roll(g, 1, 1, 1, 1, 1, 1, 1)
    feed(g, pick("all"), dice(1, 1, 1, 1, 1, 1, 1), pick("all"))
    events = roll(g, 2, 2, 2, 2, 2, 2, 2)
    assert texts(events)[-1] == "32 points in 2 lockdowns"
    assert g.score()["text"] == "32 pts, 2 lockdowns"
    assert g.stats() == {"score": 32, "lockdowns": 2, "parties": 2, "restrictions_broken": 4,
                         "last_attendees": 20}


# --------------------------------------------------------------------------- rejections


def test_inputs_of_the_wrong_form_are_refused_and_change_nothing():
    g = new_game(4)
    rejected(g, pick("7"), "not allowed here")
    rejected(g, dice(3), "Expected a choice")
    start(g, indoor_max=6)
    rejected(g, number(3), "Expected a choice of Indoor, Outdoor")
    feed(g, pick("indoor"), pick("small"))
    rejected(g, number(1441), "from 0 to 1440")
    rejected(g, Input("number", "ten"), "whole number")
    g.apply(number(60))
    plan(g, Ann=["invite1", "drinks"], Bob=["invite1", "drinks"], Cy=["drinks"] * 2, Di=["drinks"] * 2)
    partying(g)
    rejected(g, dice(1, 2, 3), "Expected 1 to 2 dice")
    rejected(g, dice(7), "1 to 6")
    rejected(g, cards("Joker"), "Kings and Jokers")
    rejected(g, coins(H), "Expected 1 to 2 dice")


def test_a_secret_choice_entered_for_another_player_is_refused():
    g = new_game(3)
    start(g, distancing=True)
    host_party(g)
    extra(g, "Bob", "Cy")
    rejected(g, pick("invite8", 1), "not that player's choice")


# --------------------------------------------------------------------------- whole games


def secret_free(g, events) -> None:
    """Nothing secret in the public view or public events (the plans/masks not yet revealed)."""
    party = g.s["party"]
    if party is None:
        return
    view = g.public_view()["party"]
    if not party["revealed"]:
        assert view["plans"] is None
    if not party["masks_revealed"]:
        assert view["masks"] is None
    for e in events:
        if not e.private:
            assert e.kind not in ("plan", "mask")


def test_random_games_full_check():
    # Full checking replays every prefix, so its cost grows with the square of a game's
    # length: games of up to 220 inputs are checked in full (the long ones get the fast
    # check below), and among them some must span several lockdowns.
    full = lockdowns = 0
    for seed in range(200):
        rng = random.Random(seed)
        setup = random_setup(DownInOneStreet, rng, players=2 + seed % 7)
        length = len(play_game(DownInOneStreet, setup, random.Random(seed * 7), check="fast").inputs)
        if length > 220:
            continue
        rec = play_game(DownInOneStreet, setup, random.Random(seed * 7), check="full",
                        on_input=lambda g, inp, ev: secret_free(g, ev))
        assert len(rec.inputs) == length and rec.game.prompt() is None
        assert rec.game.score()["winners"] == ["team"]
        full += 1
        lockdowns += rec.game.s["lockdown"] > 1
        if full == 30:
            break
    assert full == 30 and lockdowns >= 5


class UnsharedPrompts(DownInOneStreet):
    """The same rules, building every prompt afresh (no shared store)."""

    @property
    def _memo(self) -> dict:
        return {}


def test_many_random_games_fast_check_with_prompts_built_afresh():
    # Prompts are built once and shared between games with the same players; a stale
    # one would ask for the wrong thing, so every prompt must equal one built afresh.
    def agree(g, inp, events):
        assert UnsharedPrompts.from_snapshot(g.snapshot()).prompt() == g.prompt()

    rng = random.Random(2024)
    for i in range(210):
        setup = random_setup(DownInOneStreet, rng, players=2 + i % 7)
        g = play_game(DownInOneStreet, setup, rng, check="fast", on_input=agree).game
        assert g.prompt() is None and g.s["log"][-1]["outcome"] == "rumbled"


def test_a_secret_choice_never_changes_what_the_public_sees():
    rng = random.Random(7)
    checked = 0
    for _ in range(20):
        g = DownInOneStreet(random_setup(DownInOneStreet, rng))
        while (p := g.prompt()) is not None:
            if p.secret:
                seen = set()
                for key in p.option_keys():
                    twin = DownInOneStreet.from_snapshot(g.snapshot())
                    events = twin.apply(pick(key, p.player))
                    public = [e.to_json() for e in events if not e.private]
                    # Once the last secret is in, the reveal itself is public, as it should be.
                    if twin.prompt().tag == p.tag:
                        seen.add(json.dumps([twin.public_view(), public], sort_keys=True))
                assert len(seen) <= 1
                checked += 1
            g.apply(bot_input(g, p, rng))
    assert checked > 100


# --------------------------------------------------------------------------- the Table


def test_a_game_at_the_table_with_undo_and_a_corrected_cover_up_reading(tmp_path):
    path = tmp_path / "journal.sqlite3"
    t = Table(path)
    t.new_game("down-in-one-street", Setup(("Ann", "Bob")))
    for inp in (pick("0"), *card_inputs(anywhere_max=10), pick("outdoor"), pick("small"), number(0),
                *[pick("work", 0)] * 4, pick("invite8", 1), pick("invite2", 1)):
        t.submit(inp, source="test")
    # Bob meant Invite 8 again: take the choice back.
    assert t.undo() == pick("invite2", 1)
    for inp in (*[pick("invite8", 1)] * 3, pick("none", 0), pick("none", 1)):
        t.submit(inp)
    t.submit(dice(6), source="camera")  # Bob's uninvited guests: none
    t.submit(dice(1, 1, 1, 1, 1, 1, 1), source="camera")
    assert t.game.prompt().tag == "reroll-choice"
    # The dice on the table say otherwise: correct the camera's reading.
    events = t.correct(cards("Q", "Q", "Q", "Q", "Q", "Q", "10"))
    assert [e.text for e in events] == ["Covered up (40/34): +34"]
    assert t.game.prompt().tag == "case-numbers"
    snap = t.game.snapshot()
    t.close()
    again = Table(path)
    assert again.game.snapshot() == snap
    assert again.status()["score"]["points"] == {"team": 34}
    again.close()
