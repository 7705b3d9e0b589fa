"""Sneak: camps from a shuffle, turns, challenges, purchases, votes, scoring, and secrecy.

Hand-worked cases from ``rulebooks/sneak.txt`` for each rule, every rejected input, whole
simulated games checking that no public view, public event, public prompt or score ever
gives a current camp away (and that they would be the same with other camps), and the
daemon's controller showing camps on the LCD only to their player while OK is held.
"""

import json
import random

import pytest

from companion.rules.core import BadSetup, IllegalInput, Setup, number, pick, shuffle
from companion.rules.sneak import FOON, SNEAK, SPORK, Sneak, slips
from companion.simulation import play_game, random_setup
from companion.table import Table

NAMES = ("Ann", "Bob", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou")
CAMP_WORDS = {SNEAK: "sneak", SPORK: "spork", FOON: "foon"}


# --------------------------------------------------------------------------- helpers


def new_game(n=5, extra=SPORK):
    return Sneak(Setup(NAMES[:n], {"extra_camp": extra}))


def order_for(g, camps):
    """The shuffle that deals ``camps`` (one per player, in seat order)."""
    deck = slips(g.n, g.setup.options["extra_camp"])
    free = list(range(len(deck)))
    order = []
    for c in camps:
        k = next(k for k in free if deck[k] == c)
        free.remove(k)
        order.append(k)
    return shuffle(order)


def start(g, camps, hat=0):
    events = []
    if g.s["phase"] == "hat":
        events += g.apply(pick(str(hat)))
    events += g.apply(order_for(g, camps))
    return events


def idx(name):
    return str(NAMES.index(name))


def challenge(g, page, kind="write", moves=()):
    events = g.apply(pick("challenge"))
    events += g.apply(number(page))
    events += g.apply(pick(kind))
    if "counters" in kind:
        for giver, receiver in moves:
            events += g.apply(pick(idx(giver)))
            events += g.apply(pick(idx(receiver)))
        events += g.apply(pick("done"))
    return events


def buy(g, target, price, page):
    events = g.apply(pick("buy"))
    events += g.apply(pick(idx(target)))
    events += g.apply(pick(str(price)))
    events += g.apply(pick(str(page)))
    return events


def enter_cards(g, cards):
    """``cards``: for each player in seat order, the name on their card or "sneak"."""
    events = []
    for c in cards:
        events += g.apply(pick("sneak" if c == "sneak" else idx(c)))
    return events


def rejected(g, inp, *words):
    """``inp`` is refused with a message naming ``words``, and nothing changes."""
    before, prompt = g.snapshot(), g.prompt()
    with pytest.raises(IllegalInput) as e:
        g.apply(inp)
    for w in words:
        assert w.lower() in str(e.value).lower(), str(e.value)
    assert g.snapshot() == before and g.prompt() == prompt
    return str(e.value)


def gains(g, match):
    return g.public_view()["history"][match - 1]["gains"]


STANDARD = [SPORK, SPORK, SNEAK, FOON, FOON]   # Ann, Bob Sporks; Cal the Sneak; Dee, Eve Foons


# --------------------------------------------------------------------------- setup and camps


def test_table_sizes_four_to_twelve():
    for n in (4, 12):
        Sneak(Setup(NAMES[:n]))
    for n in (3, 13):
        with pytest.raises(BadSetup, match="4 to 12"):
            Sneak(Setup(tuple(f"P{i}" for i in range(n))))
    with pytest.raises(BadSetup, match="extra_camp"):
        Sneak(Setup(NAMES[:6], {"extra_camp": "sneak"}))


def test_even_split_when_the_non_sneaks_are_even():
    g = new_game(5)
    assert slips(5, SPORK) == [SNEAK, SPORK, SPORK, FOON, FOON]
    assert g.apply(pick("0"))[0].text == "Ann owns the hat"
    p = g.prompt()
    assert p.kind == "shuffle" and p.count == 5 and p.player is None
    events = g.apply(shuffle([3, 0, 4, 1, 2]))
    public = [e for e in events if not e.private]
    assert [e.text for e in public] == ["Match 1: 1 Sneak, 2 Sporks, 2 Foons"]
    assert public[0].data["counts"] == {SNEAK: 1, SPORK: 2, FOON: 2}
    # player i draws slip order[i]: slips are Sneak, Spork, Spork, Foon, Foon
    assert [g.private_view(i)["camp"] for i in range(5)] == [FOON, SNEAK, FOON, SPORK, SPORK]
    private = [e for e in events if e.private]
    assert [(e.player, e.data["camp"]) for e in private] == list(enumerate([FOON, SNEAK, FOON, SPORK, SPORK]))
    assert private[1].text == "Your camp: the Sneak"
    view = g.public_view()
    assert view["extra_camp"] is None and view["camp_counts"] == {SNEAK: 1, SPORK: 2, FOON: 2}


@pytest.mark.parametrize("extra, sporks, foons", [(SPORK, 3, 2), (FOON, 2, 3)])
def test_odd_non_sneaks_give_the_announced_camp_an_extra_player(extra, sporks, foons):
    g = new_game(6, extra)
    assert g.public_view()["extra_camp"] == extra  # known before the camps are dealt
    events = g.apply(pick("0")) + g.apply(shuffle(range(6)))
    assert events[1].text == f"Match 1: 1 Sneak, {sporks} Sporks, {foons} Foons"
    camps = [g.private_view(i)["camp"] for i in range(6)]
    assert camps.count(SPORK) == sporks and camps.count(FOON) == foons and camps.count(SNEAK) == 1


def test_a_bad_shuffle_is_refused():
    g = new_game(5)
    g.apply(pick("0"))
    rejected(g, shuffle([0, 1, 2, 3]), "shuffle of 5")
    rejected(g, shuffle([0, 1, 2, 3, 3]), "each of 0..4 once")


# --------------------------------------------------------------------------- turns


def test_turns_go_clockwise_from_the_hat_owner_in_every_match():
    g = new_game(4)
    start(g, [SNEAK, SPORK, SPORK, FOON], hat=2)
    seen = []
    for k in range(4):
        seen.append(g.prompt().player)
        challenge(g, 506 + k, "act")
    assert [NAMES[p] for p in seen] == ["Cal", "Dee", "Ann", "Bob"]
    assert g.public_view()["turn"] == {"player": "Cal", "round": 2, "rounds": 3, "turns_taken": 4}
    g.apply(pick("vote"))
    enter_cards(g, ["sneak", "Ann", "Ann", "Ann"])
    start(g, [SPORK, SNEAK, SPORK, FOON])
    assert g.prompt().player == 2 and g.prompt().text == "Cal: your turn"


def test_a_challenge_is_recorded_by_page_type_and_switch():
    g = new_game(5)
    start(g, STANDARD)
    events = challenge(g, 512, "write")
    assert [e.text for e in events] == ["Ann: Write p.512"]
    challenge(g, 530, "act")
    view = g.public_view()
    assert view["challenges"] == [
        {"player": "Ann", "page": 512, "kind": "write", "switched": False, "round": 1},
        {"player": "Bob", "page": 530, "kind": "act", "switched": False, "round": 1}]
    assert view["write_pages"] == [512] and view["pages_this_round"] == [512, 530]


def test_a_page_already_done_this_round_is_refused_until_the_next_round():
    g = new_game(4)
    start(g, [SNEAK, SPORK, SPORK, FOON])
    challenge(g, 520)
    g.apply(pick("challenge"))
    msg = rejected(g, number(520), "page 520", "already done this round")
    assert "flip" in msg
    g.apply(number(521))
    g.apply(pick("act"))
    challenge(g, 522)
    challenge(g, 523)
    # round 2: page 520 may come up again
    challenge(g, 520)
    assert g.public_view()["pages_this_round"] == [520]


def test_the_page_must_be_a_challenge_page():
    g = new_game(4)
    start(g, [SNEAK, SPORK, SPORK, FOON])
    g.apply(pick("challenge"))
    rejected(g, number(505), "506 to 587")
    rejected(g, number(588), "506 to 587")


def test_flip_again_records_nothing_and_asks_for_a_new_page():
    g = new_game(4)
    start(g, [SNEAK, SPORK, SPORK, FOON])
    g.apply(pick("challenge"))
    g.apply(number(540))
    assert g.apply(pick("flip")) == []
    assert g.prompt().tag == "page" and g.prompt().player == 0
    g.apply(number(540))        # not performed, so not a repeat
    g.apply(pick("write"))
    assert g.public_view()["pages_this_round"] == [540]
    assert len(g.public_view()["challenges"]) == 1


def test_show_a_write_card_needs_a_write_challenge_earlier_in_the_match():
    g = new_game(4)
    start(g, [SNEAK, SPORK, SPORK, FOON])
    challenge(g, 510, "act")
    g.apply(pick("challenge"))
    g.apply(number(511))
    rejected(g, pick("show"), "no write challenge yet", "flip again")
    g.apply(pick("flip"))
    g.apply(number(512))
    g.apply(pick("write"))
    events = challenge(g, 511, "show")   # now allowed; no camp-switch or counter step
    assert events[0].text == "Cal: Show-a-card p.511"
    assert g.prompt().tag == "turn" and g.prompt().player == 3
    # a new match starts without Write cards
    g.apply(pick("vote"))
    enter_cards(g, ["sneak", "Ann", "Ann", "Ann"])
    start(g, [SNEAK, SPORK, SPORK, FOON])
    g.apply(pick("challenge"))
    g.apply(number(511))
    rejected(g, pick("show"), "no write challenge yet")


def test_a_camp_switch_swaps_sporks_and_foons_and_keeps_the_sneak():
    g = new_game(6, SPORK)
    start(g, [SPORK, SNEAK, FOON, SPORK, SPORK, FOON])
    events = challenge(g, 550, "write-switch")
    assert [g.private_view(i)["camp"] for i in range(6)] == [FOON, SNEAK, SPORK, FOON, FOON, SPORK]
    public = [e for e in events if not e.private]
    assert [e.text for e in public] == ["Ann: Write p.550", "Camps switch! Check your card"]
    # every player, the Sneak too, is told privately: who is told reveals nothing
    private = [e for e in events if e.private]
    assert [e.player for e in private] == list(range(6))
    assert private[1].text == "Camp switch: the Sneak" and private[0].text == "Camp switch: a Foon"
    assert all(g.private_view(i)["camp_switches"] == 1 for i in range(6))
    view = g.public_view()
    assert view["camp_switches"] == 1 and view["camp_counts"] == {SNEAK: 1, SPORK: 2, FOON: 3}
    assert view["challenges"][0]["switched"] is True
    challenge(g, 551, "act-switch")
    assert [g.private_view(i)["camp"] for i in range(6)] == [SPORK, SNEAK, FOON, SPORK, SPORK, FOON]


def test_an_act_challenge_moves_counters_one_at_a_time_between_players():
    g = new_game(4)
    start(g, [SNEAK, SPORK, SPORK, FOON])
    g.apply(pick("challenge"))
    g.apply(number(560))
    g.apply(pick("act-counters"))
    assert g.prompt().tag == "giver" and g.prompt().option_keys() == ["done", "0", "1", "2", "3"]
    g.apply(pick("1"))
    assert g.prompt().option_keys() == ["0", "2", "3"]   # not to oneself
    assert g.apply(pick("3"))[0].text == "Bob gave Dee 1 counter"
    for _ in range(3):
        g.apply(pick("1"))
        g.apply(pick("0"))
    assert g.public_view()["counters"] == {"Ann": 7, "Bob": 0, "Cal": 4, "Dee": 5}
    assert "1" not in g.prompt().option_keys()   # Bob has nothing left to give
    g.apply(pick("done"))
    assert g.prompt().tag == "turn" and g.prompt().player == 1
    assert len(g.public_view()["counter_moves"]) == 4
    challenge(g, 561, "act")                # an Act that moved no counters: next turn at once
    assert g.prompt().tag == "turn" and g.prompt().player == 2


# --------------------------------------------------------------------------- purchases


def test_a_one_counter_purchase_is_shown_to_all_and_paid_to_the_target():
    g = new_game(5)
    start(g, STANDARD)
    challenge(g, 512)                      # Ann: Write
    g.apply(pick("buy"))                   # Bob buys
    g.apply(pick(idx("Dee")))
    g.apply(pick("1"))
    assert not g.prompt().secret           # the whole table sees which card
    events = g.apply(pick("512"))
    assert [e.text for e in events] == ["Dee shows all card p.512"]
    view = g.public_view()
    assert view["counters"] == {"Ann": 4, "Bob": 3, "Cal": 4, "Dee": 5, "Eve": 4}
    assert view["purchases"] == [{"buyer": "Bob", "target": "Dee", "price": 1, "page": 512}]


def test_a_two_counter_purchase_is_shown_to_the_buyer_only():
    g = new_game(5)
    start(g, STANDARD)
    challenge(g, 512)
    challenge(g, 533, "write")
    g.apply(pick("buy"))                    # Cal
    g.apply(pick(idx("Ann")))
    g.apply(pick("2"))
    assert g.prompt().secret and g.prompt().option_keys() == ["512", "533"]
    events = g.apply(pick("533"))
    public = [e for e in events if not e.private]
    assert [e.text for e in public] == ["Cal pays Ann 2 to look"]
    assert "533" not in json.dumps([e.to_json() for e in public])
    [look] = [e for e in events if e.private]
    assert look.player == 2 and look.text == "Ann shows you card p.533"
    view = g.public_view()
    assert view["purchases"] == [{"buyer": "Cal", "target": "Ann", "price": 2}]
    assert view["counters"]["Cal"] == 2 and view["counters"]["Ann"] == 6
    assert g.private_view(2)["bought"] == [{"from": "Ann", "page": 533, "price": 2}]
    assert all(g.private_view(i)["bought"] == [] for i in (0, 1, 3, 4))


def test_purchase_rejections_self_target_cannot_pay_and_no_write_card_yet():
    g = new_game(4)
    start(g, [SNEAK, SPORK, SPORK, FOON])
    rejected(g, pick("buy"), "nobody has a write card yet")         # Ann, before any Write
    challenge(g, 512)                                               # Ann: Write
    g.apply(pick("buy"))                                            # Bob
    rejected(g, pick(idx("Bob")), "your own card")
    g.apply(pick(idx("Ann")))
    g.apply(pick("2"))
    g.apply(pick("512"))
    # Cal's Act challenge: Dee gives Ann all 4, Cal gives Ann 3
    challenge(g, 520, "act-counters", moves=[("Dee", "Ann")] * 4 + [("Cal", "Ann")] * 3)
    assert g.public_view()["counters"] == {"Ann": 13, "Bob": 2, "Cal": 1, "Dee": 0}
    rejected(g, pick("buy"), "dee has no counters")
    challenge(g, 521)                                               # Dee
    challenge(g, 522)                                               # Ann
    challenge(g, 523)                                               # Bob
    g.apply(pick("buy"))                                            # Cal, 1 counter
    g.apply(pick(idx("Ann")))
    rejected(g, pick("2"), "only 1 counter", "pay 1")
    g.apply(pick("1"))
    g.apply(pick("521"))
    assert g.public_view()["counters"] == {"Ann": 14, "Bob": 2, "Cal": 0, "Dee": 0}


# --------------------------------------------------------------------------- votes and scoring


def test_vote_caller_right_scores_plus_eight_in_total():
    g = new_game(5)
    start(g, STANDARD)
    events = g.apply(pick("vote"))                         # Ann calls
    assert events[0].text == "Ann calls a vote!"
    assert g.public_view()["vote"] == {"caller": "Ann", "forced": False, "cards": {}}
    events = enter_cards(g, ["Cal", "Cal", "sneak", "Bob", "Cal"])
    # Ann +5 +3; Bob +5 and +1 named wrongly by Dee; Cal -1 x3 +3 x1; Dee -1; Eve +5
    assert gains(g, 1) == {"Ann": 8, "Bob": 6, "Cal": 0, "Dee": -1, "Eve": 5}
    assert [e.text for e in events][-2:] == ["The Sneak was Cal", "Match 1 scored"]
    assert g.score()["points"] == {"Ann": 8, "Bob": 6, "Cal": 0, "Dee": -1, "Eve": 5}


def test_vote_caller_wrong_scores_minus_three_in_total():
    g = new_game(5)
    start(g, STANDARD)
    g.apply(pick("vote"))
    enter_cards(g, ["Bob", "Cal", "sneak", "Cal", "Dee"])
    # Ann -1 -2; Bob +5 +1; Cal +3 -1 -1 +3; Dee +5 +1; Eve -1
    assert gains(g, 1) == {"Ann": -3, "Bob": 6, "Cal": 4, "Dee": 6, "Eve": -1}


def test_every_wrong_naming_of_a_non_sneak_scores_one():
    g = new_game(5)
    start(g, STANDARD)
    challenge(g, 512)
    g.apply(pick("vote"))                                  # Bob calls, names Ann: -1 -2
    enter_cards(g, ["Dee", "Ann", "sneak", "Ann", "Ann"])
    assert gains(g, 1) == {"Ann": -1 + 3, "Bob": -3, "Cal": 12, "Dee": -1 + 1, "Eve": -1}


def test_the_sneak_calling_the_vote_gets_no_bonus_and_cancels_it():
    g = new_game(5)
    start(g, STANDARD)
    challenge(g, 512)
    challenge(g, 513)
    g.apply(pick("vote"))                                  # Cal, the Sneak, calls
    enter_cards(g, ["Cal", "Dee", "sneak", "Cal", "Cal"])
    assert gains(g, 1) == {"Ann": 5, "Bob": -1, "Cal": 0, "Dee": 6, "Eve": 5}
    assert g.public_view()["history"][0]["caller"] == "Cal"


def test_a_force_vote_after_three_full_rounds_has_no_bonus():
    g = new_game(4)
    start(g, [SPORK, SNEAK, SPORK, FOON], hat=1)
    for k in range(11):
        challenge(g, 506 + k % 4, "act")
        assert g.prompt().tag == "turn"
    events = challenge(g, 509, "act")                      # the 12th turn: everyone had three
    assert events[-1].text == "Force Vote! Write your guess"
    assert g.prompt().tag == "vote" and g.prompt().player == 0
    assert g.public_view()["vote"] == {"caller": None, "forced": True, "cards": {}}
    enter_cards(g, ["Bob", "sneak", "Bob", "Ann"])
    # right guesses are +5 with no +3, the wrong one -1 with no -2
    assert gains(g, 1) == {"Ann": 5 + 1, "Bob": -1 - 1 + 3, "Cal": 5, "Dee": -1}
    assert g.public_view()["history"][0]["forced"] is True


def test_vote_cards_must_match_the_camps():
    g = new_game(5)
    start(g, STANDARD)
    g.apply(pick("vote"))
    assert g.prompt().option_keys() == ["sneak", "1", "2", "3", "4"]   # nobody names themselves
    rejected(g, pick("sneak"), "only the sneak", "ann is not the sneak")
    rejected(g, pick("0"), "not allowed")
    enter_cards(g, ["Cal", "Dee"])
    rejected(g, pick("0"), "cal is the sneak")
    g.apply(pick("sneak"))


def test_camps_are_revealed_in_public_history_only_after_the_vote():
    g = new_game(5)
    start(g, STANDARD)
    challenge(g, 512, "write-switch")
    g.apply(pick("vote"))
    enter_cards(g, ["Cal", "Cal", "sneak", "Cal"])
    assert g.public_view()["history"] == []
    events = g.apply(pick(idx("Cal")))
    reveal = next(e for e in events if e.kind == "reveal")
    assert reveal.data["camps"] == {"Ann": FOON, "Bob": FOON, "Cal": SNEAK, "Dee": SPORK, "Eve": SPORK}
    assert g.public_view()["history"][0]["camps"] == reveal.data["camps"]


def test_three_matches_fresh_camps_and_counters_and_a_single_winner():
    g = new_game(4)
    start(g, [SNEAK, SPORK, SPORK, FOON])
    challenge(g, 512)
    buy(g, "Ann", 2, 512)
    assert g.public_view()["counters"]["Bob"] == 2
    g.apply(pick("vote"))                                           # Cal calls, right
    enter_cards(g, ["sneak", "Ann", "Ann", "Cal"])
    assert g.score()["winners"] == [] and g.score()["text"] == "M2 lead Cal 9"
    p = g.prompt()
    assert p.kind == "shuffle" and p.text == "Match 2: deal the camps"
    start(g, [SPORK, SPORK, FOON, SNEAK])
    view = g.public_view()
    assert view["counters"] == {n: 4 for n in NAMES[:4]} and view["write_pages"] == []
    assert view["purchases"] == [] and view["match"] == 2
    g.apply(pick("vote"))                                           # Ann calls, wrong
    enter_cards(g, ["Bob", "Dee", "Dee", "sneak"])
    start(g, [FOON, SNEAK, SPORK, SPORK])
    g.apply(pick("vote"))                                           # Ann calls, right
    enter_cards(g, ["Bob", "sneak", "Bob", "Bob"])
    assert [h["gains"] for h in g.public_view()["history"]] == [
        {"Ann": 1, "Bob": 5, "Cal": 9, "Dee": -1},     # Ann the Sneak: -1 -1 +3; Cal +8 +1
        {"Ann": -3, "Bob": 6, "Cal": 5, "Dee": 1},     # Ann -1 -2; Bob +5 +1; Dee -1 -1 +3
        {"Ann": 8, "Bob": -3, "Cal": 5, "Dee": 5}]
    assert g.prompt() is None
    s = g.score()
    assert s["points"] == {"Ann": 6, "Bob": 8, "Cal": 19, "Dee": 5}
    assert s["winners"] == ["Cal"] and s["text"] == "Cal wins: 19"
    st = g.stats()
    assert st["score"] == 19 and st["votes_called"] == 3 and st["force_votes"] == 0
    assert st["sneak_caught"] == 3 and st["correct_guesses"] == 7
    with pytest.raises(IllegalInput, match="game is over"):
        g.apply(pick("vote"))


def test_the_most_points_win_and_a_tie_for_first_names_every_tied_player():
    g = new_game(4)
    # Ann calls every vote; the Sneak is Bob, then Cal, then Dee; everyone names the Sneak.
    for camps in ([SPORK, SNEAK, SPORK, FOON], [SPORK, SPORK, SNEAK, FOON], [SPORK, SPORK, FOON, SNEAK]):
        start(g, camps)
        sneak = NAMES[camps.index(SNEAK)]
        g.apply(pick("vote"))
        enter_cards(g, ["sneak" if c == SNEAK else sneak for c in camps])
    # Ann 3 x 8; Bob, Cal, Dee each -3 once and +5 twice = 7
    s = g.score()
    assert s["points"] == {"Ann": 24, "Bob": 7, "Cal": 7, "Dee": 7}
    assert s["winners"] == ["Ann"]
    g = new_game(4)
    # Bob calls right in match 1, Cal in match 2, Ann in match 3; everyone names the Sneak.
    plan = [([SNEAK, SPORK, SPORK, FOON], 1), ([SNEAK, SPORK, FOON, SPORK], 2), ([SPORK, FOON, SPORK, SNEAK], 0)]
    for camps, caller in plan:
        start(g, camps)
        for _ in range(caller):
            challenge(g, 506 + len(g.public_view()["challenges"]), "act")
        g.apply(pick("vote"))
        sneak = NAMES[camps.index(SNEAK)]
        enter_cards(g, ["sneak" if c == SNEAK else sneak for c in camps])
    # Ann -3 -3 +8 = 2; Bob 8 +5 +5 = 18; Cal 5 +8 +5 = 18; Dee 5 +5 -3 = 7
    s = g.score()
    assert s["points"] == {"Ann": 2, "Bob": 18, "Cal": 18, "Dee": 7}
    assert s["winners"] == ["Bob", "Cal"] and s["text"] == "Tie 18: Bob, Cal"
    assert g.stats()["first_place_players"] == 2 and g.stats()["score"] == 18


# --------------------------------------------------------------------------- secrecy


def _strings_and_pairs(tree, out_strings, out_pairs):
    if isinstance(tree, dict):
        for k, v in tree.items():
            out_pairs.append((k, v))
            _strings_and_pairs(v, out_strings, out_pairs)
    elif isinstance(tree, list):
        for v in tree:
            _strings_and_pairs(v, out_strings, out_pairs)
    elif isinstance(tree, str):
        out_strings.append(tree)


def camp_leaks(public, g):
    """Places in ``public`` where a player's name sits with their current camp."""
    camps = g.s["camps"]
    if not camps:
        return []
    strings, pairs = [], []
    _strings_and_pairs(public, strings, pairs)
    leaks = []
    for i, name in enumerate(g.players):
        word = CAMP_WORDS[camps[i]]
        leaks += [s for s in strings if name in s and word in s.lower()]
        leaks += [(k, v) for k, v in pairs if k == name and word in json.dumps(v).lower()]
    return leaks + [(k, v) for k, v in pairs if k in ("camp", "camps")]


def public_output(g, events):
    """All a table sees: the prompt (unless secret), score, public view, public events.
    Past matches' history is public by rule; it is checked apart."""
    p = g.prompt()
    view = g.public_view()
    view.pop("history")
    return {"prompt": None if p is None else p.to_json() if not p.secret else {"secret": True},
            "score": g.score(), "view": view,
            "events": [e.to_json() for e in events if not e.private]}


def test_no_public_output_ever_holds_a_current_camp_over_whole_games():
    rng = random.Random(4)
    checked = 0
    for i in range(40):
        n = rng.randint(4, 12)
        setup = Sneak.check_setup(Setup(NAMES[:n], {"extra_camp": rng.choice((SPORK, FOON))}))

        def check(g, inp, events):
            nonlocal checked
            if g.s["phase"] == "over" or (g.s["phase"] == "votes" and g.s["cards"]):
                return  # the cards are held up: this match's camps are public now
            out = public_output(g, events)
            assert camp_leaks(out, g) == [], (inp, out)
            for e in events:
                if e.private:
                    assert e.player is not None
            checked += 1

        play_game(Sneak, setup, rng, check="fast", on_input=check)
    assert checked > 2000


def test_public_output_is_the_same_whoever_holds_which_camp():
    """Swap the camps of two players (a different shuffle): until the cards are held up,
    every public view, public event, prompt and score is identical."""
    rng = random.Random(11)
    compared = 0
    for _ in range(12):
        n = rng.randint(4, 12)
        setup = Sneak.check_setup(Setup(NAMES[:n], {"extra_camp": rng.choice((SPORK, FOON))}))
        rec = play_game(Sneak, setup, rng, check="fast")
        shuffles = [k for k, inp in enumerate(rec.inputs) if inp.kind == "shuffle"]
        for k in shuffles:
            a, b = Sneak(setup), Sneak(setup)
            for inp in rec.inputs[:k]:
                a.apply(inp)
                b.apply(inp)
            order = list(rec.inputs[k].value)
            deck = slips(n, setup.options["extra_camp"])
            i = next(i for i in range(n) if deck[order[i]] == SNEAK)
            j = (i + 1) % n
            order[i], order[j] = order[j], order[i]
            ea, eb = a.apply(rec.inputs[k]), b.apply(shuffle(order))
            assert a.private_view(i)["camp"] != b.private_view(i)["camp"]   # the test can fail
            for inp in rec.inputs[k + 1:]:
                assert public_output(a, ea) == public_output(b, eb)
                compared += 1
                if a.s["phase"] == "votes":
                    break   # the cards are up: the camps are about to be public
                ea, eb = a.apply(inp), b.apply(inp)
    assert compared > 300


def test_private_view_holds_the_players_own_camp_and_purchases_only():
    g = new_game(5)
    assert g.private_view(0)["camp"] is None
    start(g, STANDARD)
    assert g.private_view(2) == {"player": "Cal", "match": 1, "camp": SNEAK, "camp_text": "the Sneak",
                                 "camp_switches": 0, "bought": []}
    for i in range(5):
        others = json.dumps([g.private_view(j) for j in range(5) if j != i])
        assert g.private_view(i)["camp"] == STANDARD[i]
        assert NAMES[i] in json.dumps(g.private_view(i)) and NAMES[i] not in others


# --------------------------------------------------------------------------- simulation and table


def test_random_games_with_full_checking():
    rng = random.Random(2024)
    # A full check replays the game after every input (quadratic): mostly mid-sized tables,
    # and the largest one once.
    for k in range(20):
        setup = random_setup(Sneak, rng, players=12 if k == 0 else rng.randint(4, 8))
        rec = play_game(Sneak, setup, rng, check="full")
        g = rec.game
        assert g.prompt() is None and len(g.public_view()["history"]) == 3
        assert set(g.stats()) >= {"score", "votes_called", "force_votes", "sneak_caught"}
        assert g.stats()["votes_called"] + g.stats()["force_votes"] == 3


def test_many_random_games_fast():
    rng = random.Random(7)
    rejected_total = 0
    for _ in range(150):
        rec = play_game(Sneak, random_setup(Sneak, rng), rng, check="fast")
        rejected_total += rec.rejected
        assert rec.game.score()["winners"]
    assert rejected_total > 0   # the bots sometimes try something illegal, and it is refused


def test_a_game_through_the_table_with_correction_undo_and_resume(tmp_path):
    path = tmp_path / "journal.sqlite3"
    t = Table(path)
    t.new_game("sneak", Setup(NAMES[:4]))
    t.submit(pick("1"))
    t.submit(shuffle([0, 1, 2, 3]))                 # Ann the Sneak
    assert t.game.private_view(0)["camp"] == SNEAK
    public = t.status()["public"]
    t.correct(shuffle([1, 0, 2, 3]))                # a re-deal (a camp was seen): Bob the Sneak
    assert t.game.private_view(0)["camp"] == SPORK and t.game.private_view(1)["camp"] == SNEAK
    assert t.status()["public"] == public           # a re-deal shows nothing in public
    t.submit(pick("challenge"))
    t.submit(number(512))
    t.submit(pick("write"))                         # Bob: Write
    t.submit(pick("challenge"))
    with pytest.raises(IllegalInput, match="already done this round"):
        t.submit(number(512))
    t.undo()                                        # Cal's "challenge" taken back
    assert t.game.prompt().tag == "turn" and t.game.prompt().player == 2
    t.submit(pick("vote"))
    for key in ("2", "sneak", "1", "1"):
        t.submit(pick(key))
    assert t.game.public_view()["history"][0]["sneak"] == "Bob"
    t.undo()                                        # Dee's card was misread
    assert t.game.public_view()["history"] == []
    t.submit(pick("0"))
    snap = t.game.snapshot()
    status = t.status()
    assert status["public"]["match"] == 2 and status["prompt"]["kind"] == "shuffle"
    # Cal called and was right: +8, +1 named by Ann; Bob the Sneak +3 -1 +3; Ann -1 +1
    assert status["score"]["points"] == {"Ann": 0, "Bob": 5, "Cal": 9, "Dee": -1}
    t.close()
    again = Table(path)
    assert again.game.snapshot() == snap
    again.close()


class _Lcd:
    """Drives the daemon's controller with its buttons and records every LCD screen."""

    def __init__(self, tmp_path, names):
        from companion.controller import Controller, Settings
        self.now = 0.0
        self.table = Table(tmp_path / "lcd.sqlite3")
        self.table.new_game("sneak", Setup(names))
        self.ctl = Controller(self.table, Settings(), clock=lambda: self.now, shuffler=random.Random(5))
        self.screens = []   # (phase, revealing, owner, text)

    def look(self):
        c, g = self.ctl, self.table.game
        owner = c.reveals[0].player if c.revealing else None
        self.screens.append((g.s["phase"], c.revealing, owner, " ".join(" ".join(c.lines()).split())))

    def press(self, name, kind="press"):
        self.ctl.button(name, kind)
        self.look()

    def settle(self):
        c = self.ctl
        for _ in range(500):
            self.look()
            if c.notices:                     # events on screen: let them time out
                self.now += 10
                c.tick()
            elif c.reveals:
                self.press("ok")              # "Pass to Ann ... Hold OK to see": Ann holds OK
                self.press("ok", "hold")
                self.press("ok", "release")   # hidden again
            elif c.game.prompt() is not None and c.game.prompt().kind == "shuffle":
                c.tick()                      # the companion draws the camps
            else:
                return

    def choose(self, key):
        self.settle()
        p = self.ctl.game.prompt()
        if p.secret:
            self.press("ok")
        for _ in range(p.option_keys().index(key)):
            self.press("down")
        self.press("ok")
        self.settle()

    def number(self, value):
        self.settle()
        for _ in range(value - self.ctl.game.prompt().low):
            self.press("up")
        self.press("ok")
        self.settle()


def test_lcd_screens_show_a_camp_only_to_its_player_while_ok_is_held(tmp_path):
    lcd = _Lcd(tmp_path, NAMES[:5])
    game = lcd.table.game
    lcd.choose("0")                                # Ann owns the hat
    camps = [game.private_view(i)["camp"] for i in range(5)]
    lcd.choose("challenge")
    lcd.number(512)
    lcd.choose("write-switch")                     # everyone is shown their new camp
    assert [game.private_view(i)["camp"] for i in range(5)] != camps
    lcd.choose("buy")                              # Bob buys a private look from Cal
    lcd.choose("2")
    lcd.choose("2")
    lcd.choose("512")
    lcd.choose("vote")                             # Cal calls
    sc = lcd.screens
    reveals = [(sc[k][2], sc[k][3]) for k in range(1, len(sc)) if sc[k][1] and not sc[k - 1][1]]
    # 5 camps dealt, 5 camps after the switch, Bob's private look
    assert [o for o, _ in reveals] == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 1]
    assert "Cal shows you card p.512" in reveals[-1][1]
    for k, (owner, text) in enumerate(reveals[:10]):
        camp = camps[owner] if k < 5 else {SPORK: FOON, FOON: SPORK, SNEAK: SNEAK}[camps[owner]]
        assert {SNEAK: "the Sneak", SPORK: "a Spork", FOON: "a Foon"}[camp] in text
    # until the vote: once the cards are held up the camps are public
    screens = [s for s in lcd.screens if s[0] != "votes"]
    for k, (phase, revealing, owner, text) in enumerate(screens):
        if revealing:
            before = next(s for s in reversed(screens[:k]) if not s[1])
            assert f"Pass to {NAMES[owner]}" in before[3]   # handed over first
        else:
            assert not any(w in text for w in ("the Sneak", "a Spork", "a Foon")), text
    assert len(screens) > 60


def test_a_write_page_done_in_two_rounds_is_one_card_choice():
    g = new_game(4)
    start(g, [SNEAK, SPORK, SPORK, FOON])
    for page in (512, 513, 514, 515, 512):          # round 1, then Ann again in round 2
        challenge(g, page)
    g.apply(pick("buy"))
    g.apply(pick(idx("Ann")))
    g.apply(pick("1"))
    assert g.prompt().option_keys() == ["512", "513", "514", "515"]
