"""What players see and press: the controller between buttons, the tray and the Table."""

import pytest

from companion.controller import Controller, Settings
from companion.rules import GAME_MODULES
from companion.rules.core import DICE, Event, Game, Prompt, Setup, choice
from companion.table import Table
from companion.vision.types import DiceReading, Die, Uncertain


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


@pytest.fixture(autouse=True)
def race_registered(monkeypatch):
    monkeypatch.setitem(GAME_MODULES, "race", "race_game")


@pytest.fixture
def clock():
    return Clock()


def make(tmp_path, clock, **settings):
    table = Table(tmp_path / "journal.sqlite3")
    table.new_game("race", Setup(("Ann", "Bob")))
    opts = dict(event_seconds=1.0, important_event_seconds=2.0, auto_accept_seconds=3.0)
    opts.update(settings)
    return Controller(table, Settings(**opts), clock=clock)


def read(*values, unclear=0, confidence=0.97):
    dice = [Die(v, 100.0 * i, 50.0, confidence) for i, v in enumerate(values)]
    return DiceReading(dice, [Uncertain(400.0, 60.0, "leaning on the wall")] * unclear)


def text(c):
    return "\n".join(c.lines())


def press(c, *names):
    for n in names:
        c.button(n)


def test_a_dice_prompt_arms_the_tray_and_says_whose_roll_it_is(tmp_path, clock):
    c = make(tmp_path, clock)
    assert c.tray() == ("dice", 2)
    assert "Ann: roll 2 dice" in text(c) and "Waiting for dice" in text(c)
    assert c.leds()["waiting"] == "on"
    assert all(len(line) == 20 for line in c.lines()) and len(c.lines()) == 4


def test_a_sure_reading_is_shown_then_accepted_after_the_pause(tmp_path, clock):
    c = make(tmp_path, clock)
    c.reading(read(3, 5))
    assert "Read: 3 5 = 8" in text(c)
    assert c.tray() is None  # the tray is not read again while the reading is shown
    clock.now += 2.9
    c.tick()
    assert c.table.inputs == []
    clock.now += 0.2
    c.tick()
    assert [i.value for i in c.table.inputs] == [(3, 5)]
    assert c.table.active and c.leds()["accepted"] == "on"


def test_ok_accepts_at_once_and_back_rejects_and_waits_for_a_new_roll(tmp_path, clock):
    c = make(tmp_path, clock)
    generation = c.tray_generation
    c.reading(read(1, 1))
    press(c, "back")
    assert c.table.inputs == [] and c.tray() == ("dice", 2)
    assert c.tray_generation != generation  # the reader forgets the dice it saw
    c.reading(read(4, 2))
    press(c, "ok")
    assert [i.value for i in c.table.inputs] == [(2, 4)] or [i.value for i in c.table.inputs] == [(4, 2)]


def test_an_unsure_reading_is_never_accepted_by_itself(tmp_path, clock):
    c = make(tmp_path, clock)
    c.reading(read(3, unclear=1))     # one die read, one leaning on the wall
    assert "1 unclear" in text(c) and "Re-roll" in text(c)
    clock.now += 60
    c.tick()
    assert c.table.inputs == []
    assert c.leds()["attention"] == "on"
    c.reading(read(3, 5, confidence=0.5))  # ignored: the first is still on screen
    press(c, "back")
    c.reading(read(3, 5, confidence=0.5))  # read, but not sure enough to accept alone
    clock.now += 60
    c.tick()
    assert c.table.inputs == [] and "OK:accept" in text(c)
    press(c, "ok")
    assert len(c.table.inputs) == 1


def test_fewer_dice_than_asked_wait_for_ok_a_whole_roll_does_not(tmp_path, clock):
    # All Fall Down's first roll: three children, rolling one at a time or all together.
    table = Table(tmp_path / "journal.sqlite3")
    table.new_game("all-fall-down", Setup(("Ann", "Bob", "Cy")))
    c = Controller(table, Settings(auto_accept_seconds=3.0), clock=clock)
    assert c.tray() == ("dice", 3)
    c.reading(read(5, 2))             # two dice seen: a third may lie there unread
    assert "2 of 3 dice? OK:yes" in text(c) and c.leds()["waiting"] == "blink"
    clock.now += 60
    c.tick()
    assert table.inputs == []
    press(c, "ok")                    # the players say two is all they rolled
    assert [i.value for i in table.inputs] == [(5, 2)]
    for _ in ("Ann rolled 5", "Bob rolled 2"):   # each shown, then gone
        clock.now += 10
        c.tick()
    assert c.tray() == ("dice", 1)    # Cy still to roll
    c.reading(read(4))                # the whole rest of the roll: taken after the pause
    clock.now += 3.1
    c.tick()
    assert [i.value for i in table.inputs] == [(5, 2), (4,)]


def test_fixing_a_roll_of_a_few_dice_by_hand_keeps_every_die_read(tmp_path, clock):
    table = Table(tmp_path / "journal.sqlite3")
    table.new_game("all-fall-down", Setup(("Ann", "Bob", "Cy")))
    c = Controller(table, Settings(auto_accept_seconds=0), clock=clock)
    c.reading(read(5, 2))             # Ann's and Bob's dice; Bob's shows 3
    press(c, "down")
    assert c.mode == "manual" and "[5] 2 " in text(c)
    press(c, "ok", "up", "ok")
    assert [i.value for i in table.inputs] == [(5, 3)]


def test_a_misread_is_fixed_by_hand_while_the_dice_lie_there(tmp_path, clock):
    c = make(tmp_path, clock, auto_accept_seconds=0)
    c.reading(read(1, 5))             # the dice show 4 and 5
    press(c, "down")                  # fix by hand: starts from what was read
    assert c.mode == "manual" and "[1]" in text(c)
    press(c, "up", "up", "up", "ok", "ok")
    assert [i.value for i in c.table.inputs] == [(4, 5)]


def test_without_a_camera_dice_are_entered_with_the_buttons(tmp_path, clock):
    c = make(tmp_path, clock)
    c.set_camera(False)
    assert "Camera lost" in text(c)
    press(c, "ok")                    # read the notice
    assert c.mode == "manual" and c.tray() is None
    press(c, "down", "ok", "up", "up", "ok")   # 6, then 3
    assert [i.value for i in c.table.inputs] == [(6, 3)]
    press(c, "ok", "ok")              # read "rolled 9"; keep
    # The next roll is entered by hand too, until the camera is back.
    assert c.mode == "manual" and "Bob: roll 2 dice" in text(c)
    c.set_camera(True)
    press(c, "ok")                    # read "Camera back"
    assert c.mode == "manual"         # an entry under way is not snatched away...
    press(c, "back")                  # ...but Back returns to the tray
    assert c.mode == "play" and c.tray() == ("dice", 2)


def test_an_illegal_input_is_explained_and_changes_nothing(tmp_path, clock):
    c = make(tmp_path, clock)
    c.reading(read(6, 6))
    press(c, "ok")
    assert c.table.inputs == []
    assert "Double six is void" in text(c) and c.leds()["attention"] == "blink"
    clock.now += 5
    c.tick()
    assert c.tray() == ("dice", 2)


def test_choices_move_with_up_and_down_and_ok_picks(tmp_path, clock):
    c = make(tmp_path, clock, auto_accept_seconds=0)
    c.reading(read(2, 3))
    press(c, "ok", "ok")              # accept; skip the event notice
    assert ">Keep" in text(c)
    press(c, "down")
    assert ">Pass" in text(c)
    press(c, "down")
    assert ">Keep" in text(c)         # wraps round
    press(c, "up", "ok")
    assert c.table.inputs[-1].value == "pass"


def test_undo_asks_first_then_takes_back_the_last_input(tmp_path, clock):
    c = make(tmp_path, clock, auto_accept_seconds=0)
    c.reading(read(2, 3))
    press(c, "ok", "ok", "ok")        # accept, skip notice, keep
    assert c.game.s["totals"] == [5, 0]
    press(c, "undo")
    assert "Undo choice keep?" in text(c)
    press(c, "back")                  # no
    assert c.game.s["totals"] == [5, 0]
    press(c, "undo", "ok")
    assert c.game.s["totals"] == [0, 0] and "Undone: choice keep" in text(c)
    press(c, "ok")
    assert ">Keep" in text(c)
    kinds = [row[0] for row in c.table.journal.db.execute("SELECT kind FROM entries ORDER BY seq")]
    assert kinds == ["input", "input", "undo"]


def test_the_menu_starts_a_game_with_the_configured_names(tmp_path, clock):
    table = Table(tmp_path / "journal.sqlite3")
    c = Controller(table, Settings(names=("Zoe", "Yan", "Xia")), clock=clock)
    assert "Pick a game" in text(c)
    target = c.games.index("race")
    for _ in range(target):
        press(c, "down")
    press(c, "ok")
    assert "How many players?" in text(c)
    press(c, "down", "ok")            # 3 players
    assert "points to win" in text(c)
    press(c, "ok", "ok")              # the default target; Start
    assert table.game.players == ("Zoe", "Yan", "Xia")
    assert "Zoe: roll 2 dice" in text(c)


def test_a_resumed_game_says_so_and_goes_on(tmp_path, clock):
    c = make(tmp_path, clock)
    c.reading(read(2, 2))
    press(c, "ok")
    c.table.close()
    again = Controller(Table(tmp_path / "journal.sqlite3"), Settings(), clock=clock)
    assert "Resumed" in text(again)
    press(again, "ok")
    assert ">Keep" in text(again)


class Secrets(Game):
    """Each player secretly picks a card; then the picks are revealed, privately first."""

    game_id = "secrets"
    min_players, max_players = 2, 2

    def start(self):
        self.s = {"picks": []}

    def _prompt(self):
        if len(self.s["picks"]) < 2:
            p = len(self.s["picks"])
            return choice(f"{self.name(p)}: pick a card", [("ace", "Ace"), ("king", "King")],
                          player=p, secret=True)
        if "rolled" not in self.s:
            return Prompt(DICE, "Roll 1 die", count=1)
        return None

    def _apply(self, inp):
        if inp.kind == "dice":
            self.s["rolled"] = inp.value[0]
            return []
        self.s["picks"].append(inp.value)
        return [Event("picked", f"You picked {inp.value}", player=inp.player, private=True)]

    def score(self):
        return {"text": "", "points": {}, "winners": []}

    def public_view(self):
        return {"picked": len(self.s["picks"])}


def test_a_secret_choice_is_handed_over_and_its_reveal_is_private(tmp_path, clock, monkeypatch):
    import sys
    import types
    monkeypatch.setitem(sys.modules, "secrets_game", types.SimpleNamespace(GAME=Secrets))
    monkeypatch.setitem(GAME_MODULES, "secrets", "secrets_game")
    table = Table(tmp_path / "journal.sqlite3")
    table.new_game("secrets", Setup(("Ann", "Bob")))
    c = Controller(table, Settings(), clock=clock)
    assert "Pass to Ann" in text(c) and "Ace" not in text(c)
    press(c, "ok")                    # Ann has the device
    press(c, "down", "ok")            # King
    # Ann's private confirmation waits for her: nothing shows until she holds OK.
    assert "Pass to Ann" in text(c) and "King" not in text(c)
    c.button("ok", "press")
    c.button("ok", "hold")
    assert "You picked king" in text(c)
    c.button("ok", "release")         # hidden again on release
    assert "king" not in text(c).lower()
    assert "Pass to Bob" in text(c)
