"""Lockdown: every rule by a hand-worked deal, every refusal, both modes, secrecy, simulation.

Full-mode deals are built by answering the SHUFFLE prompt with the order that deals the
hands a test wants (``deal``); table-mode games are driven by the players' reports.
"""

from __future__ import annotations

import json
import random

import pytest

from companion.bots import bot_input
from companion.rules import lockdown_cards as C
from companion.rules.core import IllegalInput, Input, Setup, number, pick, shuffle
from companion.rules.lockdown import DRY_ROUNDS, Lockdown
from companion.simulation import play_game, random_setup
from companion.table import Table

NAMES = ("Ann", "Bob", "Cat", "Dan")


# ----------------------------------------------------------------------------- helpers


def new(n: int = 3, mode: str = "full", jokers: bool = True, dealer: int = 0) -> Lockdown:
    g = Lockdown(Setup(NAMES[:n], {"mode": mode, "jokers": jokers}))
    g.apply(pick(str(dealer)))
    return g


def arrange(deck: list[int], wanted: list[str]) -> list[int]:
    """A SHUFFLE answer putting the ``wanted`` cards first, the rest in their order."""
    idx = [deck.index(C.card_id(x)) for x in wanted]
    taken = set(idx)
    return idx + [i for i in range(len(deck)) if i not in taken]


def deal(g: Lockdown, hands: list[list[str]], top: list[str] = ()) -> list:
    """Deal ``hands[seat]`` to each seat (blocks of 4 from the dealer's left), then ``top``."""
    order = [(g.s["dealer"] + 1 + k) % g.n for k in range(g.n)]
    wanted = [x for p in order for x in hands[p]] + list(top)
    return g.apply(shuffle(arrange(g.s["cards"]["deck"], wanted)))


def reshuffle(g: Lockdown, top: list[str] = ()) -> list:
    """Answer a deck SHUFFLE prompt so the deck starts with ``top``."""
    assert g.prompt().kind == "shuffle"
    return g.apply(shuffle(arrange(g.s["cards"]["deck"], list(top))))


def who(g: Lockdown, name: str) -> Input:
    return pick(str(NAMES.index(name)))


def pub(g: Lockdown, name: str) -> dict:
    return g.public_view()["players"][NAMES.index(name)]


def texts(events) -> list[str]:
    return [e.text for e in events]


def refused(g: Lockdown, inp: Input, *words: str) -> str:
    """The input is refused with a message naming ``words``, and nothing changes."""
    before = g.snapshot()
    with pytest.raises(IllegalInput) as e:
        g.apply(inp)
    assert g.snapshot() == before
    for w in words:
        assert w.lower() in str(e.value).lower(), str(e.value)
    return str(e.value)


# Hands that lock nothing, with no card in common with the hands the tests deal.
PLAIN = [["2C", "3C", "4C", "5C"], ["3D", "4D", "6D", "8D"], ["10S", "JS", "QS", "KS"],
         ["2H", "3H", "4H", "6H"]]


# ----------------------------------------------------------------------------- the deal


def test_deal_locks_at_once_and_the_dealer_goes_first():
    g = new(3, dealer=1)
    assert g.prompt().kind == "shuffle" and g.prompt().count == 54
    ev = deal(g, [["7H", "7S", "2C", "9D"], ["5S", "5H", "5D", "KC"], ["AS", "AH", "JK1", "JK2"]])
    assert "Ann locked a pair" in texts(ev) and "Bob shows three 5s" in texts(ev)
    assert (pub(g, "Ann")["mobile"], pub(g, "Ann")["pairs"]) == (2, 1)
    assert (pub(g, "Bob")["mobile"], pub(g, "Bob")["triplets"]) == (1, ["5"])
    # Aces and Jokers never lock
    assert (pub(g, "Cat")["mobile"], pub(g, "Cat")["pairs"]) == (4, 0)
    assert g.private_view(0)["pairs"] == [["7H", "7S"]]
    assert g.public_view()["deck"] == 54 - 12
    p = g.prompt()
    assert (p.tag, p.player) == ("action", 1)  # Bob dealt


def test_a_triplet_is_shown_to_the_table():
    g = new(3, dealer=1)
    ev = deal(g, [["7H", "7S", "2C", "9D"], ["5S", "5H", "5D", "KC"], ["AS", "AH", "JK1", "JK2"]])
    assert [e.to_json() for e in ev if e.kind == "triplet"] == [
        {"kind": "triplet", "text": "Bob shows three 5s", "player": 1, "data": {"value": "5"}}]


def test_four_of_a_kind_dealt_is_a_misdeal_and_the_deck_is_shuffled_again():
    g = new(2)
    ev = deal(g, [["9S", "9H", "9D", "9C"], PLAIN[1]])
    assert any("Misdeal" in t for t in texts(ev))
    assert g.prompt().tag == "deal_shuffle" and g.prompt().count == 54
    assert g.public_view()["deck"] == 54 and pub(g, "Ann")["mobile"] == 0
    deal(g, PLAIN[:2])
    assert g.prompt().tag == "action"


# ----------------------------------------------------------------------------- locking


def test_a_second_card_locks_a_face_down_pair_whose_value_stays_secret():
    g = new(3)
    deal(g, [["7H", "2C", "9D", "QH"], PLAIN[1], PLAIN[2]], top=["7S"])
    ev = g.apply(pick("draw"))
    assert "Ann locked a pair" in texts(ev)
    drawn = [e for e in ev if e.private]
    assert [(e.player, e.text) for e in drawn] == [(0, "You drew 7S")]
    assert (pub(g, "Ann")["mobile"], pub(g, "Ann")["pairs"]) == (3, 1)
    assert "7" not in json.dumps(pub(g, "Ann")) and g.private_view(0)["pairs"] == [["7H", "7S"]]
    assert g.prompt().tag == "next" and g.prompt().player == 0


def test_a_third_card_turns_the_pair_into_a_face_up_triplet():
    g = new(3)
    deal(g, [["7H", "7S", "2C", "9D"], PLAIN[1], PLAIN[2]], top=["7D"])
    ev = g.apply(pick("draw"))
    assert "Ann shows three 7s" in texts(ev)
    assert (pub(g, "Ann")["mobile"], pub(g, "Ann")["pairs"], pub(g, "Ann")["triplets"]) == (2, 0, ["7"])
    assert g.public_view()["rule_of_3"] == ["Ann"]


def test_aces_and_jokers_never_lock():
    g = new(2)
    deal(g, [["AS", "AH", "JK1", "2C"], PLAIN[1]], top=["AD"])
    g.apply(pick("draw"))
    assert (pub(g, "Ann")["mobile"], pub(g, "Ann")["pairs"]) == (5, 0)
    assert C.lock_steps([0, 1, 2, 52, 53], [], [], [2, 53]) == []


def test_a_fourth_card_eliminates_and_the_eliminator_goes_again():
    g = new(3)
    deal(g, [["5C", "2C", "3C", "4C"], ["5S", "5H", "5D", "KC"], PLAIN[2]])
    g.apply(pick("give"))
    g.apply(who(g, "Bob"))
    p = g.prompt()
    assert p.secret and p.player == 0 and "5C" in p.option_keys()
    ev = g.apply(pick("5C"))
    assert "Bob is out: four 5s" in texts(ev)
    view = g.public_view()
    assert view["outside"] == ["5"] * 4 and pub(g, "Bob")["in"] is False
    assert pub(g, "Bob")["out_with"] == "5" and pub(g, "Bob")["mobile"] == 0
    # Bob's other card (KC) went back into the deck, which is reshuffled
    assert view["deck"] == 54 - 12 + 1 and g.prompt().count == 43
    ev = reshuffle(g)
    assert "Ann goes again" in texts(ev)
    assert (g.prompt().tag, g.prompt().player) == ("action", 0)


def test_eliminating_yourself_gives_no_extra_turn_and_you_still_name_the_next_player():
    g = new(3)
    deal(g, [["7H", "7S", "7D", "2C"], PLAIN[1], PLAIN[2]], top=["7C"])
    ev = g.apply(pick("draw"))
    assert "Ann is out: four 7s" in texts(ev)
    reshuffle(g)  # Ann's 2C went back
    p = g.prompt()
    assert (p.tag, p.player, p.option_keys()) == ("next", 0, ["1", "2"])
    g.apply(who(g, "Cat"))
    assert g.prompt().player == 2


def test_the_last_player_standing_wins():
    g = new(2)
    deal(g, [["7H", "7S", "7D", "2C"], PLAIN[1]], top=["7C"])
    ev = g.apply(pick("draw"))
    assert g.prompt() is None and "Bob wins!" in texts(ev)
    assert g.score()["winners"] == ["Bob"] and g.score()["points"] == {"Ann": 0, "Bob": 1}
    with pytest.raises(IllegalInput, match="over"):
        g.apply(pick("draw"))


# ----------------------------------------------------------------------------- turn order


def test_the_affected_player_goes_next_after_give_take_and_force():
    g = new(3)
    deal(g, PLAIN[:3], top=["8H"])
    g.apply(pick("force"))
    ev = g.apply(who(g, "Bob"))
    assert "Bob drew an 8 (shown)" in texts(ev)
    shown = next(e for e in ev if e.kind == "shown")
    assert not shown.private and shown.data == {"value": "8"}
    assert "Bob locked a pair" in texts(ev)  # with his 8D
    assert g.prompt().player == 1
    g.apply(pick("take"))
    g.apply(who(g, "Cat"))
    p = g.prompt()
    assert (p.kind, p.low, p.high, p.player) == ("number", 1, 4, 1)
    ev = g.apply(number(2))
    assert [e.text for e in ev if e.private] == ["You took JS"]
    assert pub(g, "Cat")["mobile"] == 3 and g.prompt().player == 2


def test_rule_of_3_forces_the_choice_of_a_player_showing_a_triplet():
    g = new(4)
    deal(g, [PLAIN[0], PLAIN[1], ["5S", "5H", "5D", "KC"], ["9S", "9H", "9D", "KD"]], top=["AD"])
    g.apply(pick("draw"))
    refused(g, who(g, "Bob"), "Rule of 3", "Cat or Dan")
    refused(g, who(g, "Ann"), "yourself")
    g.apply(who(g, "Dan"))  # either triplet holder will do
    assert g.prompt().player == 3
    # Dan shows a triplet himself: only Cat's binds him, so nothing is asked
    ev = g.apply(pick("draw"))
    assert "Cat goes next" in texts(ev) and g.prompt().player == 2


def test_after_a_draw_the_drawer_chooses_anyone_but_themselves():
    g = new(3)
    deal(g, PLAIN[:3])
    g.apply(pick("draw"))
    refused(g, who(g, "Ann"), "yourself")
    g.apply(who(g, "Cat"))
    assert g.prompt().player == 2
    g.apply(pick("give"))
    refused(g, who(g, "Cat"), "yourself")


# ----------------------------------------------------------------------------- No-Give-Backs


def test_no_give_backs_blocks_a_received_card_for_one_turn_only():
    g = new(3)
    deal(g, PLAIN[:3])
    g.apply(pick("give"))
    g.apply(who(g, "Bob"))
    g.apply(pick("2C"))
    assert pub(g, "Bob")["just_received"]["blocked"] == [1, 1]
    assert g.private_view(1)["cannot_give"] == ["2C"]
    g.apply(pick("give"))
    g.apply(who(g, "Cat"))
    refused(g, pick("2C"), "No-Give-Backs")
    g.apply(pick("6D"))
    g.apply(pick("give"))  # Cat gives Bob a card: Bob's second turn since he got 2C
    g.apply(who(g, "Bob"))
    g.apply(pick("10S"))
    assert g.private_view(1)["cannot_give"] == ["10S"]
    g.apply(pick("give"))
    g.apply(who(g, "Ann"))
    refused(g, pick("10S"), "No-Give-Backs")
    g.apply(pick("2C"))
    assert pub(g, "Ann")["mobile"] == 4


def test_no_give_backs_refuses_give_when_every_mobile_card_was_just_received():
    g = new(2)
    deal(g, [PLAIN[0], ["6D", "6H", "7D", "7H"]])
    g.apply(pick("give"))
    g.apply(pick("2C"))  # two players: Bob is the only one to give to
    assert pub(g, "Bob")["mobile"] == 1
    refused(g, pick("give"), "No-Give-Backs", "Shuffle")


def test_an_eliminators_extra_turn_counts_as_a_turn_for_no_give_backs():
    g = new(4)
    deal(g, [PLAIN[0], PLAIN[1], ["5S", "5H", "5D", "KC"], PLAIN[3]])
    g.apply(pick("give"))
    g.apply(who(g, "Bob"))
    g.apply(pick("2C"))
    g.apply(pick("give"))  # Bob gives Ann his 8D; Ann's turn
    g.apply(who(g, "Ann"))
    g.apply(pick("8D"))
    g.apply(pick("give"))
    g.apply(who(g, "Cat"))
    refused(g, pick("8D"), "No-Give-Backs")
    g.apply(pick("5C"))  # the fourth 5: Cat is out, Ann goes again
    reshuffle(g)
    assert g.prompt().player == 0
    g.apply(pick("give"))
    g.apply(who(g, "Bob"))
    g.apply(pick("8D"))  # her second turn since she got it
    assert pub(g, "Ann")["mobile"] == 2


def test_a_shuffle_frees_just_received_cards():
    g = new(2)
    deal(g, [PLAIN[0], ["6D", "6H", "7D", "7H"]])
    g.apply(pick("give"))
    g.apply(pick("2C"))
    g.apply(pick("shuffle"))
    assert g.prompt().count == 4
    g.apply(shuffle([0, 1, 2, 3]))  # Ann 3C 4C 5C back, Bob gets 2C again
    assert pub(g, "Bob")["just_received"] == {"blocked": [0, 0], "new": [0, 0]}


# ----------------------------------------------------------------------------- shuffle, Clear


def test_shuffle_redeals_the_same_number_to_each_and_locks_what_pairs():
    g = new(3)
    deal(g, [PLAIN[0], ["2D", "6D", "7D", "QD"], ["3S", "JS", "QS", "KS"]])
    g.apply(pick("shuffle"))
    assert g.prompt().count == 12
    # pool in seat order: Ann 2C 3C 4C 5C, Bob 2D 6D 7D QD, Cat 3S JS QS KS
    ev = g.apply(shuffle([0, 4, 1, 8, 2, 3, 5, 6, 9, 10, 7, 11]))
    assert g.private_view(0)["pairs"] == [["2C", "2D"], ["3C", "3S"]]
    assert g.private_view(2)["pairs"] == [["QS", "QD"]]
    assert texts(ev).count("Ann locked a pair") == 2
    assert [pub(g, n)["mobile"] + 2 * pub(g, n)["pairs"] for n in NAMES[:3]] == [4, 4, 4]
    assert g.prompt().tag == "next"


def test_clear_with_a_joker_returns_hand_and_locks_and_draws_four():
    g = new(3)
    deal(g, [["JK1", "7H", "7S", "2C"], PLAIN[1], PLAIN[2]])
    ev = g.apply(pick("clear"))  # only a Joker can clear: no question
    assert "Ann cleared with a Joker" in texts(ev)
    assert g.prompt().tag == "clear_shuffle" and g.prompt().count == 42 + 3
    ev = reshuffle(g, ["5D", "6C", "7C", "9C"])
    assert g.private_view(0)["mobile"] == ["5D", "6C", "7C", "9C"]
    assert (pub(g, "Ann")["mobile"], pub(g, "Ann")["pairs"]) == (4, 0)
    view = g.public_view()
    assert view["outside"] == ["Joker"] and view["clear_cards_left"] == {"jokers": 1, "aces": 4}
    assert view["deck"] == 45 - 4
    assert (g.prompt().tag, g.prompt().player) == ("next", 0)


def test_clear_with_a_pair_of_aces_when_a_joker_is_also_held():
    g = new(2)
    deal(g, [["AS", "AH", "JK1", "2C"], PLAIN[1]])
    g.apply(pick("clear"))
    assert g.prompt().option_keys() == ["joker", "aces"]
    g.apply(pick("aces"))
    assert g.prompt().count == 54 - 8 + 2  # the Joker and the 2C went back into the deck
    reshuffle(g, ["JK1", "9H", "10H", "JH"])
    assert g.private_view(0)["mobile"] == ["JK1", "9H", "10H", "JH"]
    view = g.public_view()
    assert view["outside"] == ["A", "A"] and view["clear_cards_left"] == {"jokers": 2, "aces": 2}
    assert g.prompt().player == 1  # two players: Ann names Bob without a question


def test_without_jokers_two_aces_are_out_and_one_ace_clears():
    g = new(2, jokers=False)
    assert g.prompt().count == 50
    assert C.card_id("AS") not in C.full_deck(False) and C.card_id("JK1") not in C.full_deck(False)
    deal(g, [["AD", "7H", "7S", "2C"], PLAIN[1]])
    assert g.public_view()["clear_cards_left"] == {"jokers": 0, "aces": 2}
    g.apply(pick("clear"))
    reshuffle(g)
    assert g.public_view()["outside"] == ["A"]
    assert g.public_view()["clear_cards_left"] == {"jokers": 0, "aces": 1}


def test_clear_needs_a_clear_card():
    g = new(2)
    deal(g, PLAIN[:2])
    refused(g, pick("clear"), "do not hold")


# ----------------------------------------------------------------------------- refusals


def test_refusals_that_the_public_state_proves():
    g = new(4)
    deal(g, [PLAIN[0], ["9D", "9H", "7D", "7H"], PLAIN[2], PLAIN[3]])
    assert pub(g, "Bob")["mobile"] == 0 and pub(g, "Bob")["pairs"] == 2
    g.apply(pick("take"))
    assert g.prompt().tag == "target"
    refused(g, who(g, "Bob"), "Bob's mobile hand is empty")
    refused(g, who(g, "Ann"), "yourself")
    g.apply(who(g, "Cat"))
    g.apply(number(1))
    assert g.private_view(0)["mobile"][-1] == "10S" and g.prompt().player == 2


def test_an_empty_mobile_hand_has_nothing_to_give():
    g = new(2)
    deal(g, [["9D", "9H", "7D", "7H"], PLAIN[1]])
    refused(g, pick("give"), "empty")


def test_shuffle_needs_a_mobile_card_somewhere():
    g = new(2)
    deal(g, [["9D", "9H", "7D", "7H"], ["9S", "9C", "7S", "7C"]])
    assert g.public_view()["players"][0]["pairs"] == 2
    refused(g, pick("shuffle"), "nothing to shuffle")
    refused(g, pick("take"), "nothing to take")


def test_wrong_kind_of_input_is_refused():
    g = new(2)
    deal(g, PLAIN[:2])
    refused(g, Input("dice", (3,)), "expected")
    refused(g, pick("fly"), "not allowed")


def test_one_shuffle_can_put_out_two_players_then_one_reshuffle_and_the_shuffler_goes_again():
    g = new(4)
    deal(g, [["9D", "8D", "2C", "3C"], ["7H", "7S", "7D", "4D"], ["9S", "9H", "9C", "5D"],
             ["8S", "8H", "8C", "6D"]], top=["KH"])
    g.apply(pick("give"))
    g.apply(who(g, "Cat"))
    g.apply(pick("2C"))
    g.apply(pick("draw"))  # Cat draws KH; by the Rule of 3 she names Bob or Dan
    refused(g, who(g, "Ann"), "Rule of 3", "Bob or Dan")
    g.apply(who(g, "Bob"))
    g.apply(pick("shuffle"))
    # pool: Ann 9D 8D 3C | Bob 4D | Cat 5D 2C KH | Dan 6D
    ev = g.apply(shuffle([2, 3, 4, 7, 0, 5, 6, 1]))
    assert "Cat is out: four 9s" in texts(ev) and "Dan is out: four 8s" in texts(ev)
    assert g.prompt().tag == "reshuffle" and g.prompt().count == 54 - 16 - 1 + 2  # Cat's 2C, KH
    ev = reshuffle(g)
    assert "Bob goes again" in texts(ev) and g.prompt().player == 1
    assert sorted(g.public_view()["outside"]) == ["8"] * 4 + ["9"] * 4


def test_a_shuffle_that_puts_everyone_out_is_shared():
    g = new(2)
    deal(g, [["7H", "7S", "7D", "9D"], ["9S", "9H", "9C", "7C"]])
    g.apply(pick("shuffle"))
    ev = g.apply(shuffle([1, 0]))  # Ann gets 7C, Bob gets 9D
    assert g.prompt() is None and any("All out at once" in t for t in texts(ev))
    assert g.score()["winners"] == ["Ann", "Bob"] and g.score()["why"] == "all out"


# ----------------------------------------------------------------------------- the deck runs out


def _drain(g: Lockdown) -> None:
    """Table mode, two players: draw until the deck is empty, reporting as little as allowed."""
    while g.public_view()["deck"]:
        p = g.prompt()
        if p.tag == "action":
            g.apply(pick("draw"))
        else:
            _report_little(g)
    while g.prompt().tag == "report":
        _report_little(g)


def _report_little(g: Lockdown) -> None:
    """Report no lock, or a pair when the hand has grown too big for that."""
    assert g.prompt().tag == "report"
    try:
        g.apply(pick("none"))
    except IllegalInput:
        g.apply(pick("pair"))


def test_empty_deck_refuses_draws_and_ends_in_a_stalemate_after_five_rounds():
    g = new(2, mode="table")
    for _ in range(2):
        g.apply(pick("none"))
    _drain(g)
    assert g.prompt().tag == "action"
    refused(g, pick("draw"), "deck is empty")
    refused(g, pick("force"), "deck is empty")
    turns = 0
    while g.prompt() is not None:
        p = g.prompt()
        if p.tag == "action":
            turns += 1
            g.apply(pick("shuffle"))
        else:
            _report_little(g)
    assert turns == DRY_ROUNDS * 2
    assert g.score()["winners"] == ["Ann", "Bob"] and g.score()["why"] == "stalemate"


def test_a_clear_draws_only_what_the_deck_holds():
    g = new(3, mode="table")
    g.apply(pick("none"))  # Bob
    g.apply(pick("none"))  # Cat
    g.apply(pick("pair"))  # Ann: a pair and two mobile cards (one a Joker)
    g.apply(pick("none"))
    g.apply(pick("give"))  # Ann gives Bob a card: her Joker is left
    g.apply(who(g, "Bob"))
    g.apply(pick("none"))
    while True:  # Bob and Cat draw the deck down to its last card
        p = g.prompt()
        if p.tag == "report":
            _report_little(g)
        elif p.tag == "next":
            g.apply(who(g, "Ann") if g.public_view()["deck"] == 1 else pick(str(3 - p.player)))
        elif p.player == 0:
            break
        else:
            g.apply(pick("draw"))
    assert g.public_view()["deck"] == 1
    ev = g.apply(pick("clear"))  # back: her pair; 1 + 2 cards to draw from
    assert "Ann drew 3 new cards" in texts(ev)
    assert g.public_view()["deck"] == 0 and pub(g, "Ann")["mobile"] == 3
    assert (g.prompt().tag, g.prompt().player) == ("report", 0)


# ----------------------------------------------------------------------------- table mode


def table_game(n: int = 3) -> Lockdown:
    g = new(n, mode="table")
    for _ in range(n):
        assert g.prompt().tag == "report"
        g.apply(pick("none"))
    return g


def test_table_deal_reports_locks_and_a_misdeal():
    g = new(3, mode="table")
    assert g.public_view()["deck"] == 42
    p = g.prompt()
    assert (p.tag, p.player) == ("report", 1)  # from the dealer's left
    g.apply(pick("pair"))
    g.apply(pick("triplet"))  # three of a kind dealt: a pair, then the triplet
    assert g.prompt().tag == "value"
    g.apply(pick("9"))  # nothing more can lock: Cat is asked next
    assert (pub(g, "Bob")["mobile"], pub(g, "Bob")["pairs"], pub(g, "Bob")["triplets"]) == (1, 0, ["9"])
    assert g.prompt().player == 2
    g.apply(pick("pair"))
    refused(g, pick("out"), "before any lock")
    g.apply(pick("triplet"))
    refused(g, pick("9"), "three 9s cannot show")
    g.apply(pick("K"))
    # one mobile card and no pair left: nothing more could lock, so nothing more is asked
    assert pub(g, "Cat")["triplets"] == ["K"] and g.prompt().player == 0
    ev = g.apply(pick("out"))  # Ann: four of a kind dealt
    assert any("Misdeal" in t for t in texts(ev))
    assert g.prompt().player == 1 and pub(g, "Bob")["mobile"] == 4 and pub(g, "Bob")["triplets"] == []


def test_table_draw_reports_pair_triplet_and_out():
    g = table_game(3)
    g.apply(pick("draw"))
    assert (g.prompt().tag, g.prompt().player) == ("report", 0)
    refused(g, pick("triplet"), "no locked pair")
    refused(g, pick("out"), "no triplet")
    g.apply(pick("pair"))
    assert (pub(g, "Ann")["mobile"], pub(g, "Ann")["pairs"]) == (3, 1)
    g.apply(who(g, "Bob"))
    g.apply(pick("force"))
    g.apply(who(g, "Ann"))
    assert (g.prompt().tag, g.prompt().player) == ("force_value", 0)
    ev = g.apply(pick("7"))
    assert "Ann drew a 7 (shown)" in texts(ev)
    g.apply(pick("triplet"))  # the 7 joins her pair: its value is known, nothing more asked
    assert (pub(g, "Ann")["mobile"], pub(g, "Ann")["triplets"]) == (3, ["7"])
    assert g.prompt().player == 0  # Ann was affected: she goes next
    g.apply(pick("force"))
    g.apply(who(g, "Bob"))
    g.apply(pick("K"))
    g.apply(pick("none"))
    g.apply(pick("give"))  # Bob gives Ann a card; his K is just received: he says "another"
    g.apply(who(g, "Ann"))
    g.apply(pick("other"))
    ev = g.apply(pick("out"))  # her only triplet: its value is known
    assert "Ann is out: four 7s" in texts(ev) and "Bob goes again" in texts(ev)
    view = g.public_view()
    assert view["outside"] == ["7"] * 4 and pub(g, "Ann")["mobile"] == 0
    assert view["deck"] == 42 - 3 + (4 + 3 - 4)  # three draws; Ann's other cards back
    assert g.prompt().player == 1


def test_table_forced_fourth_card_eliminates_without_a_question():
    g = table_game(3)
    g.apply(pick("draw"))
    g.apply(pick("pair"))
    g.apply(who(g, "Bob"))
    g.apply(pick("force"))
    g.apply(who(g, "Ann"))
    g.apply(pick("9"))
    g.apply(pick("triplet"))
    g.apply(pick("force"))  # Ann forces Cat
    g.apply(who(g, "Cat"))
    g.apply(pick("4"))
    g.apply(pick("none"))
    g.apply(pick("force"))  # Cat forces Ann: a 9, her fourth
    g.apply(who(g, "Ann"))
    ev = g.apply(pick("9"))
    assert "Ann is out: four 9s" in texts(ev) and "Cat goes again" in texts(ev)
    assert g.prompt().player == 2
    g.apply(pick("force"))  # two players left: Bob is the only one to force
    refused(g, pick("9"), "No 9 can be drawn")


def test_table_reported_values_must_fit_what_is_face_up():
    g = table_game(3)
    g.apply(pick("draw"))
    refused(g, pick("out"), "shows no triplet")
    g.apply(pick("pair"))
    g.apply(who(g, "Bob"))
    g.apply(pick("force"))
    g.apply(who(g, "Ann"))
    g.apply(pick("A"))  # an Ace never locks: nothing to report
    assert g.prompt().tag == "action" and g.prompt().player == 0


def test_table_without_jokers_each_ace_clears_and_counts_run_out():
    g = new(2, mode="table", jokers=False)
    for _ in range(2):
        g.apply(pick("none"))
    assert g.public_view()["deck"] == 50 - 8
    for _ in range(2):  # Ann, then Bob: one Ace each, no question which
        ev = g.apply(pick("clear"))
        assert any("cleared with an Ace" in t for t in texts(ev))
        g.apply(pick("none"))
    assert g.public_view()["outside"] == ["A", "A"]
    refused(g, pick("clear"), "not enough left")
    g.apply(pick("force"))
    assert "Joker" not in g.prompt().option_keys()
    refused(g, pick("A"), "No A can be drawn")


def test_table_no_give_backs_asks_which_card_and_refuses_the_just_received_one():
    g = table_game(3)
    g.apply(pick("give"))
    g.apply(who(g, "Bob"))  # Ann has no just-received card: nothing asked
    g.apply(pick("none"))
    g.apply(pick("give"))
    g.apply(who(g, "Cat"))
    p = g.prompt()
    assert p.tag == "give_card" and p.option_keys() == ["just_got", "other"]
    refused(g, pick("just_got"), "No-Give-Backs")
    g.apply(pick("other"))
    assert pub(g, "Bob")["mobile"] == 4 and pub(g, "Cat")["mobile"] == 5


def test_table_clear_cards_run_out():
    g = table_game(2)
    for kind in ("joker", "joker", "aces", "aces"):
        g.apply(pick("clear"))
        if g.prompt().tag == "clear_with":
            g.apply(pick(kind))
        while g.prompt().tag in ("report",):
            g.apply(pick("none"))
    view = g.public_view()
    assert view["clear_cards_left"] == {"jokers": 0, "aces": 0}
    assert sorted(view["outside"]) == ["A", "A", "A", "A", "Joker", "Joker"]
    refused(g, pick("clear"), "not enough left")


def test_table_mobile_hand_cannot_outgrow_what_stays_unlocked():
    g = table_game(2)
    for _ in range(14):
        g.apply(pick("draw"))
        g.apply(pick("none"))  # two players: Bob goes next without a question
        g.apply(pick("draw"))
        g.apply(pick("none"))
    assert pub(g, "Ann")["mobile"] == 18
    g.apply(pick("draw"))
    refused(g, pick("none"), "at most 18", "report the locks")


# ----------------------------------------------------------------------------- secrecy


def _hidden_names(g: Lockdown) -> set[str]:
    c = g.s["cards"]
    ids = list(c["deck"]) + [x for h in c["hands"] for x in h]
    ids += [x for ps in c["pairs"] for p in ps for x in p]
    return {C.name(x) for x in ids}


def _strings(tree) -> list[str]:
    if isinstance(tree, dict):
        return [s for k, v in tree.items() for s in [k, *_strings(v)]]
    if isinstance(tree, list):
        return [s for v in tree for s in _strings(v)]
    return [tree] if isinstance(tree, str) else []


def test_no_public_view_event_or_open_prompt_ever_shows_a_hidden_card():
    checked = 0
    all_names = {C.name(x) for x in range(54)}
    for i in range(40):
        rng = random.Random(i)
        setup = random_setup(Lockdown, rng, options={"mode": "full"})

        def on_input(g, inp, events):
            nonlocal checked
            hidden = _hidden_names(g)
            view = g.public_view()
            assert not hidden & set(_strings(view))
            for pl in view["players"]:
                assert isinstance(pl["pairs"], int) and isinstance(pl["mobile"], int)
            for e in events:
                if not e.private:
                    assert not all_names & set(e.text.split()) and not all_names & set(_strings(e.data))
            p = g.prompt()
            if p is not None and not p.secret:
                assert not all_names & set(p.text.split() + [o.label for o in p.options])
                assert p.kind != "shuffle"  # a full-mode shuffle's order tells every card
            checked += 1

        play_game(Lockdown, setup, rng, on_input=on_input)
    assert checked > 1000


# Full-mode prompts whose action is not finished yet: the table mode has already done it and
# waits for reports that the full game's next input will tell.
_UNFINISHED = {"deal_shuffle", "clear_shuffle", "redeal_shuffle", "reshuffle", "take_pick", "give_card"}


class Mirror:
    """Plays in table mode what a full-mode game shows the table, input by input."""

    def __init__(self, full: Lockdown):
        self.t = Lockdown(Setup(full.players, {**full.setup.options, "mode": "table"}))

    def _flush(self, unless: int | None = None) -> None:
        while (p := self.t.prompt()) is not None and p.tag == "report" and p.player != unless:
            self.t.apply(pick("none"))

    def follow(self, tag: str, inp: Input, events, finished: bool) -> None:
        t = self.t
        if tag == "give_card":
            if t.prompt().tag == "give_card":
                t.apply(pick("other"))  # a full-mode give is never a just-received card
        elif inp.kind == "choice":
            t.apply(inp)
        for e in events:
            if e.private or e.kind not in ("shown", "pair", "triplet", "out"):
                continue
            if e.kind == "shown":
                t.apply(pick(e.data["value"]))
                continue
            self._flush(unless=e.player)
            p = t.prompt()
            if p is None or p.tag != "report":
                assert e.kind == "out" and not t.public_view()["players"][e.player]["in"]
                continue  # the table deduced it
            t.apply(pick(e.kind))
            if t.prompt() is not None and t.prompt().tag == "value":
                t.apply(pick(e.data["value"]))
        if finished:
            self._flush()


def test_table_mode_accepts_and_shows_exactly_what_a_real_game_shows():
    """Every full-mode game, told to a table-mode game as players would report it, is
    accepted (the table's refusals never refuse what really happened) and shows the same
    public view after every action."""
    games = compared = 0
    for i in range(30):
        rng = random.Random(500 + i)
        setup = random_setup(Lockdown, rng, players=rng.randint(2, 5), options={"mode": "full"})
        full = Lockdown(setup)
        mirror = Mirror(full)
        while (p := full.prompt()) is not None:
            inp = bot_input(full, p, rng)
            events = full.apply(inp)
            if any(e.kind == "misdeal" for e in events):
                break  # a misdeal in full mode is dealt again unseen: nothing to mirror
            nxt = full.prompt()
            finished = nxt is None or nxt.tag not in _UNFINISHED
            mirror.follow(p.tag, inp, events, finished)
            if finished:
                a, b = full.public_view(), mirror.t.public_view()
                for k in ("mode", "step", "to_act"):
                    a.pop(k), b.pop(k)
                assert a == b, (i, len(events))
                compared += 1
        else:
            games += 1
            assert mirror.t.prompt() is None and mirror.t.score() == full.score()
    assert games >= 25 and compared > 500


def test_table_mode_has_no_private_knowledge():
    g = table_game(3)
    assert g.private_view(0) == {} and g.s["cards"] is None


# ----------------------------------------------------------------------------- simulation


@pytest.mark.parametrize("mode", ["full", "table"])
def test_random_games_full_check(mode):
    for i in range(12):
        rng = random.Random(100 + i)
        setup = random_setup(Lockdown, rng, players=rng.randint(2, 4), options={"mode": mode})
        rec = play_game(Lockdown, setup, rng, check="full")
        assert rec.game.prompt() is None and rec.game.score()["winners"]


@pytest.mark.parametrize("mode", ["full", "table"])
def test_random_games_fast_check(mode):
    ends = set()
    for i in range(100):
        rng = random.Random(1000 + i)
        rec = play_game(Lockdown, random_setup(Lockdown, rng, options={"mode": mode}), rng)
        assert rec.rejected == 0  # the bots only pick what the rules allow
        ends.add(rec.game.score().get("why"))
    assert "last" in ends


def test_through_the_table_with_undo_and_correct(tmp_path):
    table = Table(tmp_path / "journal.db")
    try:
        table.new_game("lockdown", Setup(("Ann", "Bob"), {"mode": "full"}))
        table.submit(pick("0"))
        table.submit(shuffle(arrange(C.full_deck(True), PLAIN[1] + PLAIN[0] + ["7H"])))
        assert table.game.private_view(0)["mobile"] == PLAIN[0]
        before = table.game.snapshot()
        table.submit(pick("draw"))
        assert table.game.private_view(0)["mobile"][-1] == "7H"
        table.undo()
        assert table.game.snapshot() == before
        # the dealer's shuffle was misread: correct it (nothing follows it yet)
        table.correct(shuffle(arrange(C.full_deck(True), PLAIN[0] + PLAIN[1])))
        assert table.game.private_view(0)["mobile"] == PLAIN[1]
        status = json.dumps(table.status())
        assert not _hidden_names(table.game) & set(_strings(json.loads(status)))
        table.submit(pick("draw"))
    finally:
        table.close()
    again = Table(tmp_path / "journal.db")
    try:
        assert again.game.public_view()["deck"] == 54 - 8 - 1
    finally:
        again.close()


def _move_unlocked(s: dict, card: str) -> None:
    """Ann gets ``card`` from the deck, counts kept right, but it pairs with her 2C unlocked."""
    s["cards"]["deck"].remove(C.card_id(card))
    s["cards"]["hands"][0].append(C.card_id(card))
    s["pub"]["deck"] -= 1
    s["pub"]["players"][0]["mobile"] += 1


@pytest.mark.parametrize("corrupt", [
    lambda s: s["cards"]["deck"].pop(),                                  # a card lost
    lambda s: s["cards"]["hands"][0].append(s["cards"]["deck"][0]),     # a card twice
    lambda s: s["pub"]["players"][1].update(pairs=1),                  # ledger and cards differ
    lambda s: _move_unlocked(s, "2D"),                                  # a pair left unlocked
])
def test_the_invariants_catch_a_broken_state(corrupt):
    """Each corruption alone breaks one invariant (the simulations rely on them)."""
    g = new(2)
    deal(g, PLAIN[:2])
    g.check_invariants()
    corrupt(g.s)
    with pytest.raises(AssertionError):
        g.check_invariants()
