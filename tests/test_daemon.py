"""The daemon as systemd runs it: notify, watchdog, SIGTERM, bad config, a camera that goes."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.daemon import CAMERA_RETRY_SECONDS
from companion.devices.camera import FrameSource
from companion.demo import build_demo

COMPANION = [sys.executable, "-m", "companion"]


def start(args, tmp_path, **env):
    return subprocess.Popen([*COMPANION, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            env={**os.environ, "HOME": str(tmp_path), **env})


def test_run_tells_systemd_it_is_ready_pings_the_watchdog_and_stops_cleanly(tmp_path):
    sock_path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(sock_path)
    sock.settimeout(20)
    proc = start(["run", "--sim", "--state", str(tmp_path / "state")], tmp_path,
                 NOTIFY_SOCKET=sock_path, WATCHDOG_USEC="300000")
    try:
        messages = []
        deadline = time.monotonic() + 30
        while sum("WATCHDOG=1" in m for m in messages) < 3 and time.monotonic() < deadline:
            messages.append(sock.recv(4096).decode())
        assert messages[0].startswith("READY=1")
        assert sum("WATCHDOG=1" in m for m in messages) >= 3
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
        assert proc.returncode == 0, err
        assert "STOPPING=1" in sock.recv(4096).decode()
    finally:
        proc.kill()
        sock.close()
    assert "Stopped." in out and "The game is saved." in out
    assert "(*)" not in out.splitlines()[-1] and "(~)" not in out.splitlines()[-1]  # LEDs off
    assert (tmp_path / "state" / "journal.sqlite3").exists()


def test_a_bad_config_fails_at_start_naming_the_key(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[lcd]\naddress = 0x99\n')
    proc = start(["run", "--sim", "--config", str(bad), "--state", str(tmp_path)], tmp_path)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert "lcd.address" in err and "0x99" in err
    assert not (tmp_path / "journal.sqlite3").exists()


def play_until(daemon, bots, condition, steps=5000):
    for _ in range(steps):
        if condition():
            return
        bots.act()
        daemon.step(0)
        daemon.clock.advance(1 / 15)
    raise AssertionError("the condition never came")


def step_frames(daemon, n):
    """``n`` steps of the loop, a frame's time (15 fps) apart."""
    for _ in range(n):
        daemon.step(0)
        daemon.clock.advance(1 / 15)


def roll_read_held_up(tmp_path):
    """(daemon, gate): All Fall Down waiting for 3 dice, a 2, a 6 and a 4 thrown, and the
    look at them held up on the reading thread until the gate opens (the reads queue
    behind a call that waits for it, as behind a slow read on a Pi)."""
    import threading

    from companion.vision.reading_thread import ReadingThread

    reads, gate = ReadingThread(), threading.Event()
    reads.submit(gate.wait, 30)
    daemon, bots = build_demo("all-fall-down", 3, 5, tmp_path, reads=reads)
    play_until(daemon, bots, lambda: daemon.controller.tray() == ("dice", 3))
    daemon.devices.camera.show([2, 6, 4])
    step_frames(daemon, 20)
    assert daemon.detector.reading_now
    return daemon, gate


def until_read(daemon):
    """Steps of the loop until a reading is on screen (the reads take real time)."""
    for _ in range(600):
        step_frames(daemon, 1)
        if daemon.controller.review is not None:
            return
        time.sleep(0.01)


@pytest.mark.parametrize("turn", [12.0, 0.0])
def test_players_are_asked_once_to_level_a_camera_the_rolls_show_turned(turn, tmp_path):
    # A webcam 45 degrees from overhead, turned about its own axis (its picture by 12
    # degrees) or level: once the 4s and 5s reported show how far it is turned, the players
    # are asked to level a turned one, once; a level one is left alone.
    from companion.devices.camera import SyntheticSource

    camera = SyntheticSource(seed=3, style={"slant": 45}, turn=turn)
    daemon, bots = build_demo("game-of-2020", 2, 3, tmp_path, camera=camera)
    asked = {}

    def note():
        asked.update({id(n): n.text for n in daemon.controller.notices if "not level" in n.text})

    def learnt_and_said():
        note()
        return daemon.told_turned

    play_until(daemon, bots, learnt_and_said)
    assert daemon.detector.learnt_roll == pytest.approx(turn, abs=1.5)
    generation = daemon.controller.tray_generation
    play_until(daemon, bots, lambda: note() or daemon.controller.tray_generation >= generation + 4)
    assert list(asked.values()) == (["Camera not level (12 deg): level it to read dice surely"] if turn else [])
    daemon.devices.close()
    daemon.table.close()


@pytest.mark.parametrize("style, said", [({}, ()), ({"die_size": 18}, ("Dice small in picture (18 px)",)),
                                         ({"slant": 58, "field_of_view": 45}, ("Camera steep (58 deg)",))])
def test_players_are_told_once_of_dice_too_small_or_a_camera_too_steep(style, said, tmp_path):
    # A camera whose dice are 18 px wide in its picture, or a webcam beside the tray 58
    # degrees from overhead (as wide as the reader takes one to be), costs readings: once
    # the rolls show it (three rolls' dice sizes; the 4s and 5s that show the slant), the
    # players are told, once, what to do; a camera overhead, its dice 44 px wide, is left
    # alone.
    from companion.devices.camera import SyntheticSource

    daemon, bots = build_demo("game-of-2020", 2, 3, tmp_path, camera=SyntheticSource(seed=3, style=style))
    told = {}

    def note():
        told.update({id(n): n.text for n in daemon.controller.notices
                     if n.text.startswith(("Dice small", "Camera steep"))})

    play_until(daemon, bots, lambda: note() or (daemon.told_small and (daemon.told_steep or "slant" not in style)))
    generation = daemon.controller.tray_generation
    play_until(daemon, bots, lambda: note() or daemon.controller.tray_generation >= generation + 4)
    assert len(told) == len(said) and all(t.startswith(s) for t, s in zip(told.values(), said))
    daemon.devices.close()
    daemon.table.close()


def test_players_are_not_told_a_webcam_40_degrees_from_overhead_is_too_steep_where_the_dice_lay_far_off(tmp_path):
    # A webcam beside the tray, 60 degrees wide, 40 from overhead: this game's first 4s and
    # 5s lay in its far rows, squashed as at 50 degrees, and the players were told to raise
    # the camera. As at the frame's centre (``SettleDetector.camera_slant``) the faces say
    # about 43, and nothing is said.
    from companion.devices.camera import SyntheticSource
    from companion.vision.slant import slant_degrees

    camera = SyntheticSource(seed=5, style={"slant": 40, "field_of_view": 60})
    daemon, bots = build_demo("game-of-2020", 2, 5, tmp_path, camera=camera)
    told = {}

    def judged():
        told.update({id(n): n.text for n in daemon.controller.notices if n.text.startswith("Camera steep")})
        return daemon.told_steep

    play_until(daemon, bots, judged)
    assert told == {}
    assert slant_degrees(daemon.detector.learnt_stretch) > 45   # (the faces' squash as they stood)
    assert daemon.detector.camera_slant == pytest.approx(40, abs=3)
    daemon.devices.close()
    daemon.table.close()


def test_the_watchdog_is_withheld_while_frames_stop_coming(tmp_path):
    daemon, bots = build_demo("game-of-2020", 2, 3, tmp_path)
    play_until(daemon, bots, lambda: daemon.controller.tray() is not None)
    daemon.step(0)
    assert daemon.health() == (True, "ok")
    daemon.clock.advance(10)      # the loop stalls: no frame read for 10 s while a roll is wanted
    ok, why = daemon.health()
    assert not ok and "no camera frame" in why


def test_the_watchdog_is_withheld_while_a_look_at_the_tray_never_ends(tmp_path):
    # A read that hangs no longer holds up the loop, so the loop says it is unhealthy:
    # the watchdog restarts the service (the game is in the journal), as it did before.
    daemon, gate = roll_read_held_up(tmp_path)
    assert daemon.health() == (True, "ok")
    daemon.clock.advance(61)
    step_frames(daemon, 1)
    ok, why = daemon.health()
    assert not ok and "a look at the tray not done after" in why
    gate.set()
    daemon.shutdown()

def test_a_camera_that_disappears_mid_game_falls_back_to_the_buttons_and_comes_back(tmp_path, caplog):
    caplog.set_level("INFO", logger="companion.daemon")
    daemon, bots = build_demo("game-of-2020", 2, 3, tmp_path)
    c = daemon.controller
    play_until(daemon, bots, lambda: c.tray() is not None)
    before = len(daemon.table.active)
    daemon.devices.camera.unplug()
    play_until(daemon, bots, lambda: len(daemon.table.active) > before + 2)
    assert not c.camera_ok and not daemon.camera_open
    sources = [row[0] for row in daemon.table.journal.db.execute(
        "SELECT source FROM entries ORDER BY seq DESC LIMIT 3")]
    assert "buttons" in sources   # dice entered by hand while the camera was gone
    for _ in range(3):   # (still gone when tried again)
        daemon.clock.advance(CAMERA_RETRY_SECONDS)
        daemon.step(0)
    daemon.devices.camera.plug()
    play_until(daemon, bots, lambda: c.camera_ok and c.tray() is not None)
    assert daemon.camera_open
    # The log (journalctl) says what the camera is each time it opens, and that it went once,
    # however often it was tried while gone.
    said = [r.getMessage() for r in caplog.records if r.name == "companion.daemon"]
    opened = f"camera open: {daemon.devices.camera.describe()}"
    assert said[0] == said[-1] == opened and len(said) == 3
    assert "disappeared" in said[1] and "buttons" in said[1]
    daemon.devices.close()
    daemon.table.close()


def test_the_unit_file_passes_systemd_analyze_verify(tmp_path):
    analyze = "/usr/bin/systemd-analyze"
    if not Path(analyze).exists():
        pytest.skip("systemd-analyze is not on this machine")
    unit = (Path(__file__).parent.parent / "systemd" / "companion.service").read_text()
    for key in ("Type=notify", "WatchdogSec=", "Restart=on-failure", "User=companion",
                "StateDirectory=companion", "SupplementaryGroups=gpio video i2c dialout"):
        assert key in unit
    # verify checks that ExecStart's program exists: point it at this test's companion.
    exe = Path(sys.executable).parent / "companion"
    here = tmp_path / "companion.service"
    here.write_text(unit.replace("/opt/table-companion/venv/bin/companion", str(exe)))
    result = subprocess.run([analyze, "verify", str(here)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_install_script_is_valid_bash():
    script = Path(__file__).parent.parent / "systemd" / "install.sh"
    subprocess.run(["bash", "-n", str(script)], check=True)
    assert os.access(script, os.X_OK)


def test_what_the_camera_showed_of_the_dice_holds_from_roll_to_roll_until_it_goes(tmp_path):
    # The camera is fixed: the dice's size one roll measured (and the slant, once shown)
    # holds for the next roll, so the reader need not find it again. A camera that comes
    # back may stand elsewhere: then it is measured anew.
    daemon, bots = build_demo("game-of-2020", 2, 3, tmp_path)
    c = daemon.controller
    play_until(daemon, bots, lambda: daemon.detector is not None and daemon.detector.learnt_die_size)
    size, generation = daemon.detector.learnt_die_size, c.tray_generation

    def armed_anew():
        new = c.tray_generation > generation and daemon.detector is not None
        return new and daemon.detector.state == "armed"

    play_until(daemon, bots, armed_anew)
    assert daemon.detector.learnt_die_size == size
    daemon.devices.camera.unplug()
    play_until(daemon, bots, lambda: not daemon.camera_open)
    daemon.devices.camera.plug()
    generation = c.tray_generation
    play_until(daemon, bots, lambda: daemon.camera_open and armed_anew())
    assert daemon.detector.learnt_die_size is None
    daemon.devices.close()
    daemon.table.close()


def test_the_display_says_the_dice_are_moving_then_being_read_then_what_they_show(tmp_path):
    # A Pi takes a while to read a settled roll: the players see that their roll was seen.
    daemon, bots = build_demo("all-fall-down", 3, 5, tmp_path)
    play_until(daemon, bots, lambda: daemon.controller.tray() == ("dice", 3))   # the bots set it up
    shown = []

    def step():
        daemon.step(0)
        daemon.clock.advance(1 / 15)
        line = daemon.devices.display.lines[2].strip()
        if not shown or shown[-1] != line:
            shown.append(line)

    for _ in range(5):
        step()
    daemon.devices.camera.show([2, 6, 4])
    for _ in range(40):
        step()
    assert shown[:3] == ["Waiting for dice...", "Dice moving...", "Reading dice..."]
    # (read left to right across the tray)
    assert daemon.devices.display.lines[0].startswith("Read: ")
    assert sorted(daemon.controller.review["values"]) == [2, 4, 6]
    daemon.devices.close()
    daemon.table.close()


def test_the_loop_goes_on_while_a_roll_is_read_and_takes_the_reading_when_it_is_done(tmp_path):
    # The service reads a settled roll on a thread of its own: while a slow read goes on,
    # the loop keeps drawing the screen; when it is done, the players see what it read.
    daemon, gate = roll_read_held_up(tmp_path)
    step_frames(daemon, 40)   # 4 s of frames in all, the read held up all along
    assert daemon.devices.display.lines[2].strip() == "Reading dice..."
    assert daemon.controller.review is None
    gate.set()
    until_read(daemon)
    assert daemon.devices.display.lines[0].startswith("Read: ")
    assert sorted(daemon.controller.review["values"]) == [2, 4, 6]
    daemon.shutdown()


def test_a_press_is_answered_while_a_roll_is_being_read_and_the_roll_is_read_on_after(tmp_path):
    # Back on "Reading dice..." pauses the game at once; Continue, and the roll is read on
    # (the same roll: nobody rolls again).
    from companion.devices.events import ButtonEvent

    daemon, gate = roll_read_held_up(tmp_path)
    daemon.devices.events.put(ButtonEvent("back", "press"))
    daemon.step(0)
    assert daemon.devices.display.lines[0].strip() == "Paused"
    assert daemon.detector.reading_now   # (answered before the read was done)
    gate.set()
    for _ in range(15):   # (a webcam's frames go by unread: it keeps the newest)
        daemon.devices.camera.read()
    daemon.devices.events.put(ButtonEvent("back", "press"))   # Continue
    until_read(daemon)
    assert sorted(daemon.controller.review["values"]) == [2, 4, 6]
    daemon.shutdown()


def test_dice_thrown_while_the_game_is_paused_are_read_once_it_goes_on(tmp_path):
    # Paused while a roll is wanted, the roll wanted after is the same one: dice thrown
    # meanwhile are read when play goes on, not waited for again.
    from companion.devices.events import ButtonEvent

    daemon, bots = build_demo("all-fall-down", 3, 5, tmp_path)
    play_until(daemon, bots, lambda: daemon.controller.tray() == ("dice", 3))
    step_frames(daemon, 5)
    daemon.devices.events.put(ButtonEvent("back", "press"))
    step_frames(daemon, 1)
    assert daemon.devices.display.lines[0].strip() == "Paused"
    daemon.devices.camera.show([2, 6, 4])
    for _ in range(15):   # (a webcam's frames go by unread: it keeps the newest)
        daemon.devices.camera.read()
    daemon.devices.events.put(ButtonEvent("back", "press"))   # Continue
    step_frames(daemon, 40)
    assert sorted(daemon.controller.review["values"]) == [2, 4, 6]
    daemon.shutdown()


class LaidOutTray(FrameSource):
    """A webcam over a tray the test throws dice into, each where it says, the dice already
    there lying as they lay: rendered frames replayed through the camera interface."""

    name = "tray laid out by the test"

    def __init__(self):
        super().__init__((640, 480))
        self.lying: list[tuple] = []   # (value, (x, y), angle)
        self.queued: list = []
        self.stills = self._stills()
        self.shown = 0

    def _stills(self):
        """The tray as it lies, a webcam's noise changing from frame to frame."""
        from vision_scenes import laid_tray
        return [laid_tray([v for v, _, _ in self.lying], [p for _, p, _ in self.lying], 10 * len(self.lying) + k,
                          [a for _, _, a in self.lying]) for k in range(3)]

    def throw(self, *dice, take=(), hand_first=False):
        """A hand reaches in, and ``dice`` ((value, (x, y), angle) each) lie beside the rest
        once it is gone, the leftmost die showing each of ``take`` picked up. ``hand_first``:
        the next frame already shows the hand."""
        from companion.vision.render import hand_over
        before = self.stills[0]
        lying = sorted(self.lying, key=lambda d: d[1])
        for value in take:
            lying.remove(next(d for d in lying if d[0] == value))
        self.lying = lying + list(dice)
        self.queued = ([] if hand_first else [before]) + [hand_over(before, (k + 1) / 12) for k in range(6)]
        self.stills = self._stills()

    def throw_all(self, *values):
        """Every die picked up, and ``values`` thrown, left to right across the tray."""
        self.throw(*[(v, (70.0 + 72 * k, 300.0 if k % 2 else 180.0), 0.3 * k) for k, v in enumerate(values)],
                   take=[v for v, _, _ in self.lying])

    def _open(self):
        pass

    def _read(self):
        if self.queued:
            return self.queued.pop(0)
        self.shown += 1
        return self.stills[self.shown % len(self.stills)].copy()

    def unseen(self):
        """A second's frames go by unread (a webcam keeps only its newest)."""
        for _ in range(15):
            self.read()


def first_throw(tmp_path, *dice):
    """(daemon, bots, tray): All Fall Down's rolls for storyteller (3 dice wanted), ``dice``
    thrown into a laid-out tray and read."""
    tray = LaidOutTray()
    daemon, bots = build_demo("all-fall-down", 3, 5, tmp_path, camera=tray)
    play_until(daemon, bots, lambda: daemon.controller.tray() == ("dice", 3))
    step_frames(daemon, 5)
    tray.throw(*dice)
    step_frames(daemon, 30)
    assert daemon.controller.review["values"] == [v for v, _, _ in sorted(dice, key=lambda d: d[1][0])]
    return daemon, bots, tray


def ann_rolled_2(tmp_path):
    """``first_throw`` of Ann's 2, entered as all she rolled: "Ann rolled 2" on screen."""
    daemon, bots, tray = first_throw(tmp_path, (2, (160.0, 200.0), 0.2))
    bots.press("ok")                                   # "that is all we rolled"
    step_frames(daemon, 1)
    assert daemon.devices.display.lines[0].strip() == "Ann rolled 2"
    return daemon, bots, tray


@pytest.mark.parametrize("reaching", [False, True])
def test_a_die_left_lying_from_a_roll_entered_is_not_read_again_with_the_next(reaching, tmp_path):
    # All Fall Down's rolls for storyteller (and survival rolls) may be thrown a few at a
    # time, each player their own die: Ann's die, entered and left lying, is not Ben's roll
    # (read with it, the two fit Ben's prompt, and the service would take them unasked),
    # even where Ben's hand is in the tray already when his roll is wanted (``reaching``:
    # no still frame before it). A roll turned down and thrown again in part (a cocked die
    # picked up) is still the whole tray.
    daemon, bots, tray = ann_rolled_2(tmp_path)
    bots.press("ok")                                   # (seen)
    if reaching:
        tray.throw((5, (470.0, 180.0), 0.9), hand_first=True)
    step_frames(daemon, 1)
    assert daemon.controller.tray() == ("dice", 2)
    if not reaching:
        step_frames(daemon, 4)
        tray.throw((5, (470.0, 180.0), 0.9))
    step_frames(daemon, 30)
    assert daemon.controller.review["values"] == [5]
    bots.press("back")                                 # turned down: roll again
    step_frames(daemon, 5)
    tray.throw((3, (320.0, 330.0), 0.5))                # the 2 and the 5 left lying
    step_frames(daemon, 30)
    assert sorted(daemon.controller.review["values"]) == [3, 5]
    daemon.shutdown()


def test_dice_thrown_while_a_notice_is_on_screen_are_read_once_it_goes(tmp_path):
    # "Ann rolled 2" is on screen for a few seconds; Cy throws meanwhile. His die is read
    # when his prompt comes up, not waited for as if it had lain there before (the players
    # would have to throw again), and shown for a press: nothing was seen moving. A die
    # only picked up meanwhile is no roll.
    daemon, bots, tray = ann_rolled_2(tmp_path)
    tray.throw(take=[2])                               # Ann takes her die back, unseen
    tray.unseen()
    bots.press("ok")
    step_frames(daemon, 30)
    assert daemon.controller.tray() == ("dice", 2) and daemon.controller.review is None
    assert daemon.devices.display.lines[2].strip() == "Waiting for dice..."
    tray.throw((5, (470.0, 180.0), 0.9))                # Ben's, seen
    step_frames(daemon, 30)
    assert daemon.controller.review["values"] == [5]
    bots.press("ok")
    step_frames(daemon, 1)
    assert daemon.devices.display.lines[0].strip() == "Ben rolled 5"
    tray.throw((3, (320.0, 330.0), 0.5))                # Cy's, unseen
    tray.unseen()
    bots.press("ok")
    step_frames(daemon, 30)
    # (whole, but not taken unasked: dice slid there by hand would look the same)
    assert daemon.controller.review["values"] == [3] and daemon.controller.review["whole"]
    assert not daemon.controller.review["sure"]
    daemon.shutdown()


def test_a_die_picked_up_from_a_roll_turned_down_is_no_roll_until_it_is_thrown(tmp_path):
    # The players turn a reading down and Ben picks up his die to throw it again: Ann's,
    # left lying, is part of the roll, but not a roll by itself (read the moment Ben's
    # hand is gone, the players would be shown half a roll).
    daemon, bots, tray = first_throw(tmp_path, (2, (160.0, 200.0), 0.2), (4, (320.0, 330.0), 0.5))
    bots.press("back")                                 # turned down: roll again
    step_frames(daemon, 5)
    tray.throw(take=[4])
    step_frames(daemon, 30)
    assert daemon.controller.review is None
    assert daemon.devices.display.lines[2].strip() == "Waiting for dice..."
    tray.throw((6, (470.0, 180.0), 0.9))
    step_frames(daemon, 30)
    assert daemon.controller.review["values"] == [2, 6]
    daemon.shutdown()


def test_a_roll_entered_by_hand_meanwhile_is_not_read_as_the_next(tmp_path):
    # Ben enters his 5 by hand, his die left lying: the tray as the last reading left it
    # is no longer known to the camera, and Ben's die is not read as Cy's roll (a 5 that
    # fits Cy's prompt whole and sure: the service would take it unasked).
    daemon, bots, tray = ann_rolled_2(tmp_path)
    bots.press("ok")                                   # (seen)
    step_frames(daemon, 5)
    assert daemon.controller.tray() == ("dice", 2)
    bots.press("down")                                 # by hand
    step_frames(daemon, 1)
    tray.throw((5, (470.0, 180.0), 0.9))
    tray.unseen()
    for button in ["up"] * 4 + ["ok"]:
        bots.press(button)
        step_frames(daemon, 1)
    assert [i.value for i in daemon.table.inputs[-2:]] == [(2,), (5,)]
    bots.press("ok")                                   # (Ben rolled 5: seen)
    step_frames(daemon, 30)
    assert daemon.controller.tray() == ("dice", 1) and daemon.controller.review is None
    tray.throw((3, (320.0, 330.0), 0.5))
    step_frames(daemon, 30)
    assert daemon.controller.review["values"] == [3]
    daemon.shutdown()


def test_one_die_thrown_again_among_the_dice_of_a_cover_up_is_read_alone(tmp_path):
    # Down-in-one Street: the cover-up roll fails, and the group spends a work thing on
    # rerolling die 1 (its prompt wants that one die). The other six lie as they lay and
    # went in with the cover-up: the reading is the die thrown, taken as it is. (Read with
    # them, seven dice for one: the players had to enter it by hand.)
    from companion.devices.camera import SyntheticSource

    unplugged = SyntheticSource()
    unplugged.unplug()   # (the game up to its cover-up, played by the bots with the buttons)
    daemon, bots = build_demo("down-in-one-street", 3, 0, tmp_path, camera=unplugged)
    play_until(daemon, bots, lambda: daemon.table.game is not None and daemon.table.game.s["phase"] == "cover-up")
    daemon.shutdown()
    tray = LaidOutTray()
    daemon, bots = build_demo("down-in-one-street", 3, 0, tmp_path, camera=tray)   # (resumed)
    assert daemon.controller.expected().text == "Cover up: roll 7 dice (need 14)"
    step_frames(daemon, 1)
    assert daemon.devices.display.lines[0].startswith("Resumed")
    bots.press("ok")
    step_frames(daemon, 5)
    tray.throw_all(*[1] * 7)
    step_frames(daemon, 30)
    assert daemon.controller.review["values"] == [1] * 7
    bots.press("ok")
    for _ in range(10):   # (what the failed cover-up means, a notice at a time)
        step_frames(daemon, 1)
        if daemon.controller.expected().tag == "reroll-choice" and not daemon.controller.notices:
            break
        bots.press("ok")
    assert daemon.devices.display.lines[0].startswith("Work thing (2 left)")
    bots.press("down")                                 # "Reroll die 1 (1)"
    bots.press("ok")
    step_frames(daemon, 5)
    assert daemon.controller.tray() == ("dice", 1)
    tray.throw((6, (320.0, 420.0), 0.7), take=[1])
    step_frames(daemon, 30)
    assert daemon.controller.review["values"] == [6] and daemon.controller.review["sure"]
    bots.press("ok")
    step_frames(daemon, 1)
    assert daemon.table.inputs[-1].value == (6,) and daemon.table.game.s["party"]["dice"] == [6] + [1] * 6
    daemon.shutdown()
