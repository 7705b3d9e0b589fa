"""The Game of 2020: every rule walked through by hand, rejected inputs, board and deck data,
random simulations with full checking, and a game through the Table with undo and correct.

Most hand-worked games use SMALL, a 12-space board given as the ``board`` option (so the
option is exercised too), where every position is one roll away:

    space:  1  2  3   4  5  6  7  8   9   10 11 12
    colour: Y  R  B1  G  Y  Y  R  B2  Pit G  Y  G      halfway sign after space 5
"""

import json
import random
import sqlite3

import pytest

from companion.bots import bot_input
from companion.cli import main
from companion.rules.core import BadSetup, IllegalInput, Input, Setup, cards, coins, dice, pick, shuffle
from companion.rules.game_of_2020 import GameOf2020
from companion.rules.game_of_2020_data import (CARDS, LCD_WIDTH, MONTHS, REFERENCE_BOARD,
                                               REFERENCE_BOARD_DATA, BoardError, CardError,
                                               parse_board, parse_decks)
from companion.simulation import play_game, random_setup
from companion.table import Table

SMALL = {
    "name": "Test board",
    "spaces": ["yellow", "red", "blue", "green", "yellow", "yellow",
               "red", "blue", "purple", "green", "yellow", "green"],
    "halfway": 5,
    "zones": {"bubble-1": {"colour": "blue", "exit": 3},
              "bubble-2": {"colour": "blue", "exit": 8},
              "pit": {"colour": "purple", "exit": 9}},
}


def first(deck, action, nth=0):
    """The file index of the nth card of ``deck`` whose action is ``action``."""
    return [c.index for c in CARDS[deck] if c.action == action][nth]


def order(deck, *top):
    """A shuffle of ``deck`` with the cards ``top`` on top, the rest in file order."""
    return list(top) + [i for i in range(len(CARDS[deck])) if i not in top]


def new_game(players=("Ann", "Bob"), board=SMALL):
    return GameOf2020(Setup(tuple(players), {"board": board}))


def started(players=("Ann", "Bob"), board=SMALL, yay=(), nay=(), oy=(), rolls=None):
    """Decks shuffled with the given cards on top; the first player rolls lowest and starts."""
    g = new_game(players, board)
    g.apply(shuffle(order("yay", *yay)))
    g.apply(shuffle(order("nay", *nay)))
    g.apply(shuffle(order("oy-vey", *oy)))
    for r in rolls if rolls is not None else [1] + [6] * (len(players) - 1):
        g.apply(dice(r))
    return g


def kinds(events):
    return [e.kind for e in events]


def me(g, i):
    return g.s["players"][i]


def left(g, deck):
    return g.public_view()["decks"][deck]["left"]


# --------------------------------------------------------------------------- setup


def test_the_three_decks_are_shuffled_then_the_lowest_roll_starts():
    g = new_game(("Ann", "Bob", "Cat"))
    for name in ("Yay", "Nay", "Oy Vey"):
        p = g.prompt()
        assert (p.kind, p.text, p.count) == ("shuffle", f"Shuffle the {name} deck", 12)
        g.apply(shuffle(list(range(12))))
    for player, roll in ((0, 4), (1, 2), (2, 5)):
        assert (g.prompt().kind, g.prompt().player) == ("dice", player)
        assert g.prompt().text == f"{g.players[player]}: roll, lowest starts"
        events = g.apply(dice(roll))
    assert kinds(events) == ["starter"] and events[0].text == "Bob starts (rolled 2)"
    assert g.prompt().text == "Bob: roll 1 die" and g.prompt().player == 1
    assert [me(g, i)["space"] for i in range(3)] == [0, 0, 0]


def test_tied_lowest_rolls_roll_again_among_the_tied_until_one_is_lowest():
    g = started(("Ann", "Bob", "Cat"), rolls=[2, 5])
    events = g.apply(dice(2))                     # Cat ties Ann on 2
    assert events[0].text == "Tie on 2: Ann, Cat roll again"
    assert g.prompt().player == 0
    g.apply(dice(4))
    assert g.prompt().player == 2                 # Bob (5) is out of it
    assert g.apply(dice(4))[0].text == "Tie on 4: Ann, Cat roll again"
    g.apply(dice(6))
    assert g.apply(dice(1))[0].text == "Cat starts (rolled 1)"
    # Play goes to the left from the starter: Cat, then Ann, then Bob.
    assert g.prompt().player == 2
    g.apply(dice(3))                              # Cat: space 3, a bubble's exit, no card
    assert g.prompt().player == 0
    g.apply(dice(3))
    assert g.prompt().player == 1


def test_a_tie_among_many_players_is_announced_by_count():
    g = started(("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"), rolls=[3] * 7)
    assert g.apply(dice(4))[0].text == "Tie on 3: 7 players roll again"
    assert g.public_view()["stage"] == "order" and g.prompt().text == "Ann: roll, lowest starts"
    assert g.s["rollers"] == [0, 1, 2, 3, 4, 5, 6]    # Hal rolled 4: out of it


def test_a_tie_on_a_higher_roll_needs_no_reroll():
    g = started(("Ann", "Bob", "Cat"), rolls=[1, 5, 5])
    assert g.prompt().text == "Ann: roll 1 die"


# --------------------------------------------------------------------------- colours and cards


@pytest.mark.parametrize("roll, colour, deck", [(1, "green", "yay"), (2, "red", "nay"),
                                                 (3, "yellow", "oy-vey")])
def test_on_the_reference_board_a_space_draws_a_card_of_its_colour(roll, colour, deck):
    g = started(board=None)
    events = g.apply(dice(roll))
    assert events[0].text == f"Ann rolls {roll}: space {roll} ({colour})"
    assert events[1].kind == "card" and events[1].data["deck"] == deck
    assert left(g, deck) == 11
    assert sum(left(g, d) for d in ("yay", "nay", "oy-vey")) == 35


def test_a_yay_card_moves_forward_3_and_shows_its_month_text_and_action():
    g = started(yay=[first("yay", "forward-3")])
    card = CARDS["yay"][first("yay", "forward-3")]
    events = g.apply(dice(4))                     # space 4, green
    assert kinds(events) == ["move", "card", "moved"]
    shown = events[1]
    assert shown.text == f"Yay, {card.month}: {card.text} Forward 3 spaces."
    assert shown.data["month"] == card.month and shown.data["text"] == card.text
    assert shown.data["action"] == "forward-3" and shown.data["read_aloud"] == shown.text
    assert shown.data["lcd"] == [f"Yay: {card.month}", *card.lcd[1:3], "Forward 3 spaces"]
    # One card a turn: space 7 is red but nothing is drawn for it.
    assert me(g, 0)["space"] == 7 and left(g, "nay") == 12
    assert g.prompt().text == "Bob: roll 1 die"
    assert g.public_view()["last_card"]["month"] == card.month


def test_a_yay_card_moving_onto_a_zone_exit_sends_nobody_into_the_zone():
    g = started(yay=[first("yay", "forward-5")])
    g.apply(dice(4))                              # 4 + 5 = 9, the Pit's exit
    assert me(g, 0)["space"] == 9 and me(g, 0)["zone"] is None
    assert g.prompt().player == 1


def test_a_nay_card_moves_back_4():
    g = started(board=None, nay=[first("nay", "back-4")])
    g.apply(dice(5))                              # reference space 5, red
    assert me(g, 0)["space"] == 1


def test_moving_back_past_the_start_stops_on_the_start():
    g = started(nay=[first("nay", "back-4")])
    events = g.apply(dice(2))                     # space 2, red: 2 - 4 stops at 0
    assert me(g, 0)["space"] == 0 and events[-1].text == "Ann back to the start"


def test_an_oy_vey_card_goes_back_to_the_nearest_yellow_space_behind():
    g = started(oy=[first("oy-vey", "last-yellow")])
    g.apply(dice(6))                              # space 6, yellow; yellow behind: 5 and 1
    assert me(g, 0)["space"] == 5


def test_on_the_first_yellow_space_an_oy_vey_back_card_does_not_move_you():
    g = started(oy=[first("oy-vey", "last-yellow")])
    events = g.apply(dice(1))                     # space 1 is the first yellow space
    assert me(g, 0)["space"] == 1 and events[-1].text == "Ann: first yellow, stay"
    assert left(g, "oy-vey") == 11


def test_the_reference_board_first_yellow_exception():
    g = started(board=None, oy=[first("oy-vey", "last-yellow")])
    g.apply(dice(3))
    assert REFERENCE_BOARD.first_yellow == 3 and me(g, 0)["space"] == 3


def test_landing_on_a_zone_exit_space_draws_no_card_and_sends_nowhere():
    g = started()
    events = g.apply(dice(3))                     # space 3: the first bubble's exit
    assert kinds(events) == ["move", "safe"]
    assert me(g, 0)["zone"] is None and sum(left(g, d) for d in ("yay", "nay", "oy-vey")) == 36


# --------------------------------------------------------------------------- quarantine


def test_quarantine_on_the_halfway_space_is_the_first_bubble_and_1_to_3_escapes_at_once():
    g = started(oy=[first("oy-vey", "quarantine")])
    events = g.apply(dice(5))                     # space 5: the halfway sign stands after it
    assert kinds(events) == ["move", "card", "quarantine"]
    assert me(g, 0)["zone"] == "bubble-1" and me(g, 0)["space"] == 3
    # The escape roll comes in the same turn.
    assert g.prompt().text == "Ann: roll 1-3 to leave" and g.prompt().player == 0
    events = g.apply(dice(3))
    assert kinds(events) == ["escape"] and events[0].text == "Ann rolls 3: out to space 3"
    assert me(g, 0)["zone"] is None and me(g, 0)["space"] == 3
    # No second roll this turn and no card for leaving.
    assert g.prompt().text == "Bob: roll 1 die" and left(g, "oy-vey") == 11


def test_quarantine_after_the_halfway_sign_is_the_second_bubble():
    g = started(oy=[first("oy-vey", "quarantine")])
    g.apply(dice(6))                              # space 6 is past the sign
    assert me(g, 0)["zone"] == "bubble-2" and me(g, 0)["space"] == 8
    # While inside, a piece counts as on the bubble's exit space.
    score = g.score()
    assert score["points"]["Ann"] == 8 and score["where"]["Ann"] == "Quarantine Bubble 2"
    assert score["text"] == "Ann 8/12"


def test_a_4_stays_in_quarantine_and_the_fourth_turn_frees_you_without_a_roll():
    g = started(oy=[first("oy-vey", "quarantine"), first("oy-vey", "last-yellow")])
    g.apply(dice(6))                              # Ann into bubble 2: turn 1
    assert g.apply(dice(4))[0].text == "Ann rolls 4: still in (1 of 4)"
    g.apply(dice(3))                              # Bob: space 3, no card
    assert g.prompt().text == "Ann: roll 1-3 to leave"
    assert g.apply(dice(6))[0].text == "Ann rolls 6: still in (2 of 4)"
    g.apply(dice(5))                              # Bob: space 8, no card
    assert g.apply(dice(5))[0].text == "Ann rolls 5: still in (3 of 4)"
    events = g.apply(dice(1))                     # Bob: space 9; then Ann's 4th turn
    assert kinds(events) == ["move", "safe", "release"]
    assert events[-1].text == "Ann free after 4 turns: space 8"
    assert me(g, 0)["zone"] is None and me(g, 0)["space"] == 8 and me(g, 0)["turns"] == 4
    assert g.prompt().text == "Bob: roll 1 die"  # Ann does not roll in her 4th turn
    g.apply(dice(2))                              # Bob: space 11, yellow: back to 6
    assert me(g, 1)["space"] == 6 and g.prompt().text == "Ann: roll 1 die"
    g.apply(dice(1))                              # Ann moves on from the exit: 8 + 1 = 9
    assert me(g, 0)["space"] == 9


def test_an_escape_on_a_later_turn():
    g = started(oy=[first("oy-vey", "quarantine")])
    g.apply(dice(5))
    g.apply(dice(6))                              # turn 1: still in
    g.apply(dice(3))                              # Bob
    events = g.apply(dice(1))                     # turn 2: out
    assert kinds(events) == ["escape"] and me(g, 0)["zone"] is None and me(g, 0)["space"] == 3
    assert me(g, 0)["quarantines"] == 1 and g.prompt().text == "Bob: roll 1 die"


# --------------------------------------------------------------------------- pit


def test_the_pit_loses_the_next_turn_then_you_climb_out_and_roll_at_once():
    g = started(("Ann", "Bob", "Cat"), nay=[first("nay", "pit")], oy=[first("oy-vey", "last-yellow")])
    events = g.apply(dice(2))                     # Ann: red space 2, Nay: the Pit
    assert kinds(events) == ["move", "card", "pit"]
    assert me(g, 0)["zone"] == "pit" and me(g, 0)["space"] == 9
    assert g.public_view()["players"][0]["loses_next_turn"] is True
    g.apply(dice(3))                              # Bob: space 3
    events = g.apply(dice(3))                     # Cat: space 3; Ann's turn is lost
    assert kinds(events) == ["move", "safe", "lost-turn"]
    assert events[-1].text == "Ann loses this turn (Pit)"
    assert g.prompt().text == "Bob: roll 1 die"
    g.apply(dice(5))                              # Bob: space 8
    events = g.apply(dice(5))                     # Cat: space 8; Ann climbs out
    assert kinds(events) == ["move", "safe", "pit-exit"]
    assert events[-1].text == "Ann climbs out: space 9"
    assert me(g, 0)["zone"] is None and me(g, 0)["space"] == 9
    assert g.prompt().text == "Ann: roll 1 die"   # at once, from the Pit's exit
    events = g.apply(dice(2))                     # 9 + 2 = 11, yellow: back to 6
    assert kinds(events) == ["move", "card", "moved"] and me(g, 0)["space"] == 6
    assert me(g, 0)["turns"] == 3 and me(g, 0)["pits"] == 1


# --------------------------------------------------------------------------- winning


def test_reaching_the_last_space_wins_at_once_without_a_card():
    g = started(yay=[first("yay", "forward-5")])
    g.apply(dice(4))                              # Ann: 4 + 5 = 9
    g.apply(dice(3))                              # Bob: 3
    events = g.apply(dice(3))                     # Ann: 12, the "2021!" space
    assert kinds(events) == ["winner"] and events[0].text == "Ann reaches 2021!"
    assert g.prompt() is None and left(g, "yay") == 11
    score = g.score()
    assert score["winners"] == ["Ann"] and score["text"] == "Ann wins 2021!"
    assert score["points"] == {"Ann": 12, "Bob": 3}
    stats = g.stats()
    assert stats["score"] == 2 and stats["turns"] == 3 and stats["cards"] == 1
    with pytest.raises(IllegalInput, match="game is over"):
        g.apply(dice(1))


def test_passing_the_last_space_by_a_roll_wins_too():
    g = started(yay=[first("yay", "forward-5")])
    g.apply(dice(4))
    g.apply(dice(3))
    events = g.apply(dice(6))                     # 9 + 6 = 15, past 12
    assert events[0].text == "Ann reaches 2021! Happy New Year!"
    assert me(g, 0)["space"] == 12 and g.score()["winners"] == ["Ann"]


def test_a_yay_card_past_the_last_space_wins():
    g = started(yay=[first("yay", "forward-5"), first("yay", "forward-3")])
    g.apply(dice(4))                              # Ann: 9
    g.apply(dice(3))
    events = g.apply(dice(1))                     # Ann: 10, green: forward 3 = 13
    assert kinds(events) == ["move", "card", "winner"] and g.score()["winners"] == ["Ann"]


def test_the_score_line_cuts_a_long_name_not_the_figures():
    g = started(("Bartholomew Smithson", "Bob"), board=None, yay=[first("yay", "forward-3")])
    g.apply(dice(1))                              # reference space 1, green: forward 3 to 4
    assert g.score()["text"] == "Bartholomew Smi 4/64"
    g = started(("Bartholomew Smithson", "Bob"), yay=[first("yay", "forward-5")])
    g.apply(dice(4))
    g.apply(dice(3))
    g.apply(dice(3))
    assert g.score()["text"] == "Bartholom wins 2021!"
    assert g.score()["winners"] == ["Bartholomew Smithson"]


def test_the_score_before_the_end_shows_the_leader():
    g = started(yay=[first("yay", "forward-5")])
    g.apply(dice(4))
    score = g.score()
    assert score["text"] == "Ann 9/12" and score["winners"] == []
    assert score["where"] == {"Ann": "space 9", "Bob": "space 0"}


# --------------------------------------------------------------------------- reshuffle


RED_BOARD = {"spaces": ["blue", "purple", "blue"] + ["red"] * 36 + ["green"], "halfway": 2,
             "zones": {"bubble-1": {"colour": "blue", "exit": 1},
                       "bubble-2": {"colour": "blue", "exit": 3},
                       "pit": {"colour": "purple", "exit": 2}}}


def test_an_empty_deck_is_reshuffled_when_a_card_is_needed_and_the_top_card_is_drawn():
    g = started(board=RED_BOARD)
    # Every space past 3 is red: roll 6 until the twelve Nay cards are all drawn.
    while g.s["drawn"]["nay"] < 12:
        assert g.prompt().kind == "dice"
        g.apply(dice(6))
    assert left(g, "nay") == 0
    player = g.prompt().player
    g.apply(dice(6))                              # lands on red with the deck empty
    p = g.prompt()
    assert (p.kind, p.text, p.count, p.tag) == ("shuffle", "Reshuffle the Nay deck", 12, "reshuffle")
    before = g.snapshot()
    with pytest.raises(IllegalInput, match="each of 0..11 once"):
        g.apply(shuffle([0] * 12))
    assert g.snapshot() == before
    pit = first("nay", "pit", 1)
    events = g.apply(shuffle(order("nay", pit)))
    assert kinds(events)[:3] == ["shuffle", "card", "pit"]
    assert events[1].data["index"] == pit and me(g, player)["zone"] == "pit"
    assert left(g, "nay") == 11 and g.s["shuffles"]["nay"] == 2 and g.stats()["reshuffles"] == 1


# --------------------------------------------------------------------------- rejected inputs


def _at_shuffle():
    return new_game()


def _at_order():
    return started(rolls=[])


def _at_roll():
    return started()


def _at_escape():
    g = started(oy=[first("oy-vey", "quarantine")])
    g.apply(dice(5))
    return g


STAGES = {"shuffle": _at_shuffle, "order": _at_order, "roll": _at_roll, "escape": _at_escape}


@pytest.mark.parametrize("stage, bad, message", [
    ("shuffle", dice(3), "Expected a shuffle of 12 cards, not dice"),
    ("shuffle", shuffle(range(11)), "must list each of 0..11 once"),
    ("shuffle", shuffle([1, 1] + list(range(2, 12))), "must list each of 0..11 once"),
    ("shuffle", shuffle(range(13)), "must list each of 0..11 once"),
    ("order", dice(1, 2), "Expected 1 die, got 2 dice"),
    ("order", Input("dice", (4,), 1), "It is Ann's roll, not Bob's"),
    ("roll", dice(7), "A die shows 1 to 6"),
    ("roll", dice(0), "A die shows 1 to 6"),
    ("roll", dice(), "Expected 1 die, got 0 dice"),
    ("roll", coins("heads"), "Expected 1 die, not coins"),
    ("roll", pick("yes"), "Expected 1 die, not choice"),
    ("roll", shuffle(range(12)), "Expected 1 die, not shuffle"),
    ("roll", cards("K"), "Kings and Jokers are discarded"),
    ("roll", Input("dice", (2,), 1), "It is Ann's roll, not Bob's"),
    ("roll", Input("dice", (2,), 9), "It is Ann's roll, not another player's"),
    ("escape", Input("dice", (2,), 1), "It is Ann's roll, not Bob's"),
    ("escape", dice("3"), "A die shows 1 to 6"),
])
def test_a_rejected_input_says_why_and_changes_nothing(stage, bad, message):
    g = STAGES[stage]()
    before, prompt = g.snapshot(), g.prompt()
    with pytest.raises(IllegalInput, match=message):
        g.apply(bad)
    assert g.snapshot() == before and g.prompt() == prompt


def test_a_playing_card_standing_in_for_the_die_is_read_as_its_value():
    g = started()
    g.apply(cards("9"))                           # a 9 stands for 3
    assert me(g, 0)["space"] == 3


# --------------------------------------------------------------------------- board data


def test_the_reference_board_is_the_rulebooks_64_spaces():
    b = REFERENCE_BOARD
    assert b.last == 64 and b.colours[64] == "green" and b.colours[0] == "start"
    assert set(b.colours[1:]) == {"green", "red", "yellow", "blue", "purple"}
    assert b.exits == {"bubble-1": 14, "bubble-2": 46, "pit": 29}
    assert [b.colours[x] for x in (14, 46, 29)] == ["blue", "blue", "purple"]
    assert b.exits["bubble-1"] <= b.halfway < b.exits["bubble-2"]
    assert parse_board(b.to_json()) == b and b.to_json()["spaces"] == REFERENCE_BOARD_DATA["spaces"]


def _board(**changes):
    data = json.loads(json.dumps(SMALL))
    for key, value in changes.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    return data


def _zones(**changes):
    zones = json.loads(json.dumps(SMALL["zones"]))
    zones.update(changes)
    return zones


@pytest.mark.parametrize("data, message", [
    ("board.json", "give the board itself as a JSON object"),
    (_board(colour="red"), "unknown entry 'colour'"),
    (_board(spaces=None), "'spaces' is missing"),
    (_board(spaces="yellow red"), "a list of colours"),
    (_board(spaces=["green"] * 5), "5 spaces; a board has 8 to 200"),
    (_board(spaces=SMALL["spaces"][:-1] + ["red"]), "last space \\(12, \"2021!\"\\) must be green"),
    (_board(spaces=SMALL["spaces"][:5] + ["bleu"] + SMALL["spaces"][6:]),
     "space 6 is 'bleu'; a space is one of green, red, yellow, blue, purple"),
    (_board(spaces=SMALL["spaces"][:5] + ["blue"] + SMALL["spaces"][6:]),
     "space 6 is blue, but no zone exits onto it"),
    (_board(zones=_zones(pit=None)), "zone 'pit' \\(Pit of Despair\\) needs exactly a colour and an exit"),
    (_board(zones=_zones(attic={"colour": "grey", "exit": 4})), "unknown zone 'attic'"),
    (_board(zones=_zones(pit={"colour": "red", "exit": 2})), "Pit of Despair's colour must be its own"),
    (_board(zones=_zones(pit={"colour": "purple", "exit": 12})), "exit must be a space from 1 to 11"),
    (_board(zones=_zones(pit={"colour": "purple", "exit": "9"})), "exit must be a space from 1 to 11"),
    (_board(zones=_zones(pit={"colour": "purple", "exit": 4})),
     "Pit of Despair's exit, space 4, is green; it must be purple"),
    (_board(zones=_zones(pit={"colour": "blue", "exit": 3})), "both exit onto space 3"),
    (_board(halfway=12), "'halfway' is the space the halfway sign stands after, from 1 to 11"),
    (_board(halfway=2), "halfway sign \\(after space 2\\) must stand between"),
    (_board(name=5), "'name' is text"),
])
def test_a_bad_board_is_refused_with_a_clear_message(data, message):
    with pytest.raises(BoardError, match=message):
        parse_board(data)
    with pytest.raises(BadSetup, match=message):
        GameOf2020(Setup(("Ann", "Bob"), {"board": data}))


def test_the_board_is_a_setup_option_outside_the_button_menu():
    assert GameOf2020.options == ()               # a button menu cannot edit a board
    assert GameOf2020.check_setup(Setup(("Ann", "Bob"))).options == {}
    assert GameOf2020.check_setup(Setup(("Ann", "Bob"), {"board": None})).options == {}
    assert GameOf2020.check_setup(Setup(("Ann", "Bob"), {"board": SMALL})).options == {"board": SMALL}
    with pytest.raises(BadSetup, match="no option 'bord' \\(its one setup option: board\\)"):
        GameOf2020(Setup(("Ann", "Bob"), {"bord": SMALL}))
    with pytest.raises(BadSetup, match="for 2 to 8 players, not 9"):
        GameOf2020(Setup.numbered(9))


def test_the_board_travels_in_the_setup_so_a_snapshot_rebuilds_it():
    g = started()
    again = GameOf2020.from_snapshot(json.loads(json.dumps(g.snapshot())))
    assert again.board == g.board and again.board.last == 12
    assert again.board_view()["spaces"] == SMALL["spaces"]


# --------------------------------------------------------------------------- deck data


def test_each_deck_has_a_card_for_every_month_of_2020_with_its_allowed_actions():
    allowed = {"yay": {"forward-3", "forward-5"}, "nay": {"back-4", "pit"},
               "oy-vey": {"last-yellow", "quarantine"}}
    for deck, cards_ in CARDS.items():
        assert [c.month for c in cards_] == list(MONTHS)
        assert {c.action for c in cards_} == allowed[deck]  # both actions occur in each deck


def test_every_card_fits_the_20x4_lcd():
    for cards_ in CARDS.values():
        for c in cards_:
            assert len(c.lcd) == 4 and all(len(line) <= LCD_WIDTH for line in c.lcd), c.lcd
            assert c.lcd[0].endswith(c.month) and " ".join(x for x in c.lcd[1:3] if x) == c.text


def _decks(**changes):
    data = {d: [{"month": c.month, "text": c.text, "action": c.action} for c in cs]
            for d, cs in CARDS.items()}
    for deck, (i, card) in changes.items():
        data[deck.replace("_", "-")][i] = card
    return data


@pytest.mark.parametrize("data, message", [
    (_decks(nay=(0, {"month": "January", "text": "Bushfires.", "action": "forward-3"})),
     "Nay card 1: action 'forward-3'"),
    (_decks(yay=(0, {"month": "Smarch", "text": "x", "action": "forward-3"})), "not a month"),
    (_decks(yay=(0, {"month": "February", "text": "x", "action": "forward-3"})),
     "no card for January"),
    (_decks(oy_vey=(3, {"month": "April", "text": "a " * 25, "action": "quarantine"})),
     "fit two 20-character lines"),
    (_decks(oy_vey=(3, {"month": "April", "text": "Pneumonoultramicroscopic", "action": "quarantine"})),
     "Oy Vey card 4: the word .Pneumonoultramicroscopic. does not fit"),
    (_decks(yay=(2, {"month": "March", "action": "forward-3"})), "needs exactly month, text and action"),
])
def test_bad_deck_data_is_refused(data, message):
    with pytest.raises(CardError, match=message):
        parse_decks(data)


# --------------------------------------------------------------------------- views


def test_the_public_view_never_shows_the_order_of_the_decks():
    a, b = new_game(), new_game()
    for g, rev in ((a, False), (b, True)):
        for _ in range(3):
            g.apply(shuffle(sorted(range(12), reverse=rev)))
    assert a.public_view() == b.public_view()
    assert a.public_view()["decks"]["nay"] == {"left": 12, "size": 12}


def test_prompts_and_event_texts_are_short_enough_for_the_lcd():
    rng = random.Random(5)
    names = ("Margaret", "Bartholo", "Cat", "Dominika", "Eve", "Fredrika", "Gus", "Hannelor")
    for n in (2, 3, 8):
        g = GameOf2020(Setup(names[:n]))
        while (p := g.prompt()) is not None:
            assert len(p.text) <= 40, p.text
            for e in g.apply(bot_input(g, p, rng)):
                assert not e.private
                if e.kind != "card":              # a card is shown by its four LCD lines
                    assert len(e.text) <= 40, e.text


# --------------------------------------------------------------------------- simulation


def test_random_games_with_full_checking():
    rng = random.Random(2020)
    # Full checking replays every game after every input (quadratic): small tables here,
    # all table sizes in the fast games below.
    for i in range(30):
        options = {"board": SMALL if i % 5 == 0 else None}
        setup = random_setup(GameOf2020, rng, players=2 + i % 3, options=options)
        rec = play_game(GameOf2020, setup, rng, check="full")
        g = rec.game
        assert g.prompt() is None and len(g.score()["winners"]) == 1
        assert g.stats()["score"] >= 1


def test_many_random_games_on_both_boards_end_with_one_winner():
    rng = random.Random(7)
    for i in range(150):
        options = {"board": SMALL if i % 3 == 0 else None}
        rec = play_game(GameOf2020, random_setup(GameOf2020, rng, options=options), rng)
        g = rec.game
        winner = g.score()["winners"]
        assert len(winner) == 1 and g.score()["points"][winner[0]] == g.board.last


def test_simulate_and_replay_commands_round_trip(tmp_path, capsys):
    log = tmp_path / "games.jsonl"
    assert main(["simulate", "game-of-2020", "--games", "20", "--seed", "3", "--log", str(log),
                 "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert summary["games"] == 20 and summary["rejected_inputs"] == 0
    assert {"score", "cards", "quarantines", "pits", "reshuffles"} <= set(summary["stats"])
    assert main(["replay", str(log), "--json"]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(results) == 20 and all(r["ok"] for r in results)


# --------------------------------------------------------------------------- table


def test_a_game_through_the_table_with_undo_correct_and_resume(tmp_path):
    path = tmp_path / "journal.sqlite3"
    t = Table(path)
    t.new_game("game-of-2020", Setup(("Ann", "Bob"), {"board": SMALL}))
    for deck in ("yay", "nay", "oy-vey"):
        t.submit(shuffle(order(deck, *([first("yay", "forward-3")] if deck == "yay" else []))))
    t.submit(dice(1), source="camera")
    t.submit(dice(6), source="camera")            # Ann starts
    events = t.submit(dice(4), source="camera")   # green: forward 3 to space 7
    assert kinds(events) == ["move", "card", "moved"] and t.game.s["players"][0]["space"] == 7

    t.undo()                                      # the roll is taken back, the card too
    assert t.game.s["players"][0]["space"] == 0 and t.game.prompt().text == "Ann: roll 1 die"
    assert t.game.public_view()["decks"]["yay"]["left"] == 12

    t.submit(dice(4))
    events = t.correct(dice(3))                   # the die really shows 3: a bubble's exit
    assert kinds(events) == ["move", "safe"]
    assert t.game.s["players"][0]["space"] == 3 and t.game.public_view()["decks"]["yay"]["left"] == 12

    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT count(*) FROM entries").fetchone()[0]
    with pytest.raises(IllegalInput):
        t.submit(coins("heads"))
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM entries").fetchone()[0] == rows
    snap = t.game.snapshot()
    t.close()

    again = Table(path)                           # a restart resumes exactly, custom board and all
    assert again.game.snapshot() == snap and again.game.board.last == 12
    assert again.status()["prompt"]["text"] == "Bob: roll 1 die"
    again.close()
