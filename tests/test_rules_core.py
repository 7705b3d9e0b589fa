"""The shared rules core: how inputs are checked, errors worded, and state kept intact."""

import json
import random

import pytest

from companion.rules import available_games, game_class
from companion.rules.core import (DICE, BadSetup, IllegalInput, Input, Prompt,
                                  Setup, card_to_die, cards, coins, dice, normalise, number,
                                  pick, shuffle)
from companion.simulation import InvariantBroken, play_game, random_setup
from race_game import RaceToTwenty, SloppyRace


def two_players():
    return RaceToTwenty(Setup(("Ann", "Bob")))


def test_a_dice_prompt_takes_exactly_its_dice_and_says_what_it_wanted():
    g = two_players()
    with pytest.raises(IllegalInput, match="Expected 2 dice, got 3 dice"):
        g.apply(dice(1, 2, 3))
    with pytest.raises(IllegalInput, match="A die shows 1 to 6, not 7"):
        g.apply(dice(1, 7))
    with pytest.raises(IllegalInput, match="Expected 2 dice, not coins"):
        g.apply(coins("heads", "tails"))
    assert g.s["stage"] == "roll"
    g.apply(dice(3, 4))
    assert g.s["pending"] == 7


def test_a_rule_breaking_input_leaves_the_state_exactly_as_it_was():
    g = SloppyRace(Setup(("Ann", "Bob")))
    before = g.snapshot()
    with pytest.raises(IllegalInput):
        g.apply(dice(6, 6))
    assert g.snapshot() == before  # apply() restored what _apply had touched


def test_the_simulator_catches_a_game_that_changes_state_before_rejecting():
    rng = random.Random(3)
    with pytest.raises(InvariantBroken, match="changed the state"):
        for _ in range(50):  # one of these games rolls a double six
            play_game(SloppyRace, Setup(("Ann", "Bob")), rng, check="fast")


def test_playing_cards_stand_in_for_dice():
    assert [card_to_die(c) for c in ["A", "2", "6", "7", "9", "10", "J", "Q", "QH", "10♠"]] == \
        [1, 2, 6, 1, 3, 4, 5, 6, 6, 4]
    g = two_players()
    with pytest.raises(IllegalInput, match="Kings and Jokers are discarded"):
        g.apply(cards("K", "2"))
    with pytest.raises(IllegalInput, match="not a playing card"):
        g.apply(cards("Z", "2"))
    g.apply(cards("Q", "9"))
    assert g.s["pending"] == 9


def test_choices_list_what_is_allowed():
    g = two_players()
    g.apply(dice(1, 2))
    with pytest.raises(IllegalInput, match="Choose one of: Keep, Pass"):
        g.apply(pick("double"))
    with pytest.raises(IllegalInput, match="not that player's choice"):
        g.apply(pick("keep", player=1))
    g.apply(pick("keep", player=0))
    assert g.s["totals"] == [3, 0]


def test_numbers_coins_and_shuffles_are_checked_in_form():
    p = Prompt("number", "How many?", low=0, high=3)
    assert normalise(p, number(2)).value == 2
    with pytest.raises(IllegalInput, match="from 0 to 3, not 4"):
        normalise(p, number(4))
    with pytest.raises(IllegalInput, match="whole number"):
        normalise(p, Input("number", "2"))
    c = Prompt("coins", "Flip", count=2)
    assert normalise(c, coins("H", "tails")).value == ("heads", "tails")
    with pytest.raises(IllegalInput, match="heads or tails"):
        normalise(c, coins("H", "edge"))
    s = Prompt("shuffle", "Shuffle", count=3)
    assert normalise(s, shuffle([2, 0, 1])).value == (2, 0, 1)
    with pytest.raises(IllegalInput, match="each of 0..2 once"):
        normalise(s, shuffle([0, 0, 1]))


def test_a_prompt_may_take_some_of_its_dice_at_a_time():
    p = Prompt(DICE, "Ann, Bob, Cy: roll", count=3, min_count=1)
    assert normalise(p, dice(4)).value == (4,)
    with pytest.raises(IllegalInput, match="Expected 1 to 3 dice, got 0 dice"):
        normalise(p, dice())


def test_setup_is_checked_with_clear_messages():
    with pytest.raises(BadSetup, match="for 2 to 4 players, not 5"):
        RaceToTwenty(Setup.numbered(5))
    with pytest.raises(BadSetup, match="different, non-empty name"):
        RaceToTwenty(Setup(("Ann", "Ann")))
    with pytest.raises(BadSetup, match="no option 'speed'"):
        RaceToTwenty(Setup(("Ann", "Bob"), {"speed": 3}))
    with pytest.raises(BadSetup, match="whole number from 10 to 1000"):
        RaceToTwenty(Setup(("Ann", "Bob"), {"target": 5}))
    assert RaceToTwenty(Setup(("Ann", "Bob"))).setup.options == {"target": 20}


def test_a_finished_game_takes_no_more_input():
    g = RaceToTwenty(Setup(("Ann", "Bob"), {"target": 10}))
    for inp in (dice(5, 6), pick("keep")):
        g.apply(inp)
    assert g.prompt() is None and g.is_over()
    with pytest.raises(IllegalInput, match="game is over"):
        g.apply(dice(1, 1))


def test_inputs_and_snapshots_survive_json():
    g = two_players()
    g.apply(dice(2, 5))
    snap = json.loads(json.dumps(g.snapshot()))
    again = RaceToTwenty.from_snapshot(snap)
    assert again.snapshot() == g.snapshot() and again.prompt() == g.prompt()
    for inp in (dice(1, 2), cards("A", "Q"), coins("heads"), pick("keep", 1), number(3), shuffle([1, 0])):
        assert Input.from_json(json.loads(json.dumps(inp.to_json()))) == inp


def test_full_checking_simulation_replays_after_every_input():
    rng = random.Random(7)
    for _ in range(10):
        setup = random_setup(RaceToTwenty, rng, options={"target": 30})
        rec = play_game(RaceToTwenty, setup, rng, check="full")
        assert rec.game.is_over()
        assert max(rec.game.s["totals"]) >= rec.game.setup.options["target"]


def test_the_registry_names_the_known_games():
    with pytest.raises(ValueError, match="unknown game 'chess'; choose one of: down-in-one-street"):
        game_class("chess")
    for gid in available_games():
        assert game_class(gid).game_id == gid
