"""The vision command-line contract, through companion.cli.main."""

import json

import cv2
import pytest

from companion.cli import main
from companion.vision.render import render_tray


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    d = tmp_path_factory.mktemp("img")
    paths = {}
    paths["dice"] = str(d / "dice.png")
    cv2.imwrite(paths["dice"], render_tray([2, 5, 6], seed=3))
    paths["bad"] = str(d / "bad.png")
    (d / "bad.png").write_text("not an image")
    for s in range(2):
        cv2.imwrite(str(d / f"h{s}.png"), render_tray([], ["heads"], seed=s))
        cv2.imwrite(str(d / f"t{s}.png"), render_tray([], ["tails"], seed=s + 5))
    paths["coins"] = str(d / "coins.png")
    cv2.imwrite(paths["coins"], render_tray([4], ["heads", "tails", "tails"], seed=9))
    paths["dir"] = d
    return paths


def test_dice_read_json_one_object_per_image(images, capsys):
    assert main(["dice", "read", images["dice"], images["dice"], "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    obj = json.loads(lines[0])
    assert obj["image"] == images["dice"]
    assert sorted(d["value"] for d in obj["dice"]) == [2, 5, 6]
    assert obj["uncertain"] == []
    for d in obj["dice"]:
        assert set(d) == {"value", "x", "y", "confidence"} and 0 <= d["confidence"] <= 1


def test_dice_read_bad_and_missing_files_fail_but_others_are_read(images, capsys):
    missing = str(images["dir"] / "nope.png")
    assert main(["dice", "read", images["bad"], images["dice"], missing, "--json"]) != 0
    cap = capsys.readouterr()
    assert len(cap.out.strip().splitlines()) == 1
    assert "bad.png" in cap.err and "nope.png" in cap.err


def test_a_folder_named_as_an_image_is_called_a_folder(images, capsys):
    # (``companion dice read photos`` for ``photos/*.jpg``: "no such file" would send the
    # user looking for a folder that is there)
    folder = str(images["dir"])
    assert main(["dice", "read", folder, images["dice"], "--json"]) == 1
    cap = capsys.readouterr()
    assert len(cap.out.strip().splitlines()) == 1
    assert cap.err == f"companion: {folder}: a folder, not an image (name its images: {folder}/*.jpg)\n"


def test_a_file_opencv_cannot_decode_gets_one_clear_line(tmp_path, capfd):
    # The start of a phone's HEIC photo, cut short: OpenCV's decoder writes its own error
    # straight to stderr ("[ERROR:0@0.02] global loadsave.cpp:568 imread_ ... can't read
    # header"); the user sees only the companion's line.
    photo = tmp_path / "IMG_0001.heic"
    photo.write_bytes(b"\x00\x00\x00\x18ftypheic")
    assert main(["dice", "read", str(photo), "--json"]) == 1
    out, err = capfd.readouterr()
    assert out == ""
    assert err == f"companion: {photo}: not an image OpenCV can read\n"


@pytest.mark.parametrize("shape", [(1, 2000), (2000, 1), (3, 17)])
def test_an_image_too_thin_for_a_die_or_coin_reads_as_none(shape, capsys, tmp_path):
    # A strip of a tray (a bad crop, a scanner's line) holds no die and no coin: it is read
    # as none, not a crash that would lose the other images on the command line. (The
    # 3 x 17 px crop cuts a speck off a die's edge, a blob of four points once taken for
    # a coin.)
    tray = render_tray([2, 5, 6], ["heads"], seed=3)
    strip = str(tmp_path / "strip.png")
    cv2.imwrite(strip, tray[96:99, 364:381] if shape == (3, 17) else cv2.resize(tray, shape[::-1]))
    for kind in ("dice", "coins"):
        assert main([kind, "read", strip, "--json"]) == 0
        obj = json.loads(capsys.readouterr().out)
        assert obj[kind] == [] and obj["uncertain"] == []


def test_dice_read_human_line_and_annotate(images, capsys, tmp_path):
    assert main(["dice", "read", images["dice"], "--annotate", str(tmp_path / "ann")]) == 0
    out = capsys.readouterr().out
    assert "total 13" in out
    drawn = cv2.imread(str(tmp_path / "ann" / "dice.png"))
    assert drawn is not None and drawn.shape == (480, 640, 3)


def test_coins_calibrate_then_read(images, capsys, tmp_path):
    cal = str(tmp_path / "coins.json")
    d = images["dir"]
    assert main(["coins", "calibrate", "--heads", str(d / "h0.png"), str(d / "h1.png"),
                 "--tails", str(d / "t0.png"), str(d / "t1.png"), "--out", cal]) == 0
    capsys.readouterr()
    assert main(["coins", "read", images["coins"], "--json", "--calibration", cal]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert sorted(c["face"] for c in obj["coins"]) == ["heads", "tails", "tails"]
    assert all(set(c) == {"face", "x", "y", "r", "confidence"} for c in obj["coins"])


def test_coins_calibrate_keeps_the_slant_the_setup_measured(capsys, tmp_path):
    # ``companion calibrate`` wrote the camera's slant (40 degrees from overhead) to the
    # file; the coin photos, taken with that camera, are read at that slant, and so are
    # the frames.
    cal = tmp_path / "setup.json"
    cal.write_text(json.dumps({"stretch": [1.0, 1.305]}))
    paths = {}
    for face, seeds in (("heads", (0, 1)), ("tails", (5, 6))):
        paths[face] = [str(tmp_path / f"{face}{s}.png") for s in seeds]
        for path, s in zip(paths[face], seeds):
            cv2.imwrite(path, render_tray([], [face], seed=s, slant=40))
    assert main(["coins", "calibrate", "--heads", *paths["heads"], "--tails", *paths["tails"],
                 "--out", str(cal)]) == 0
    saved = json.loads(cal.read_text())
    assert saved["stretch"] == saved["coin"]["stretch"] == [1.0, 1.305]
    frame = str(tmp_path / "frame.png")
    cv2.imwrite(frame, render_tray([4], ["heads", "tails", "tails"], seed=9, slant=40))
    capsys.readouterr()
    assert main(["coins", "read", frame, "--json", "--calibration", str(cal)]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert sorted(c["face"] for c in obj["coins"]) == ["heads", "tails", "tails"]


def test_coins_read_with_corrupt_calibration_is_refused(images, capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    assert main(["coins", "read", images["coins"], "--calibration", str(bad)]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_calibrate_writes_a_setup_file_the_reader_loads(images, capsys, tmp_path):
    out = tmp_path / "setup.json"
    assert main(["calibrate", "--out", str(out), "--logo-value", "6", images["dice"]]) == 0
    data = json.loads(out.read_text())
    assert data["logo_value"] == 6 and data["frame_size"] == [640, 480]
    assert 30 < data["die_size"] < 70    # rendered dice are ~44 px
    capsys.readouterr()
    assert main(["dice", "read", images["dice"], "--json", "--calibration", str(out)]) == 0
    assert sorted(d["value"] for d in json.loads(capsys.readouterr().out)["dice"]) == [2, 5, 6]


def test_calibrate_says_what_it_could_not_measure(capsys, tmp_path):
    # A frame of the bare tray: the tray and its light are measured and saved, but the
    # player is told that the dice size and slant were not, and why.
    empty = str(tmp_path / "empty.png")
    cv2.imwrite(empty, render_tray([], seed=4))
    out = tmp_path / "setup.json"
    assert main(["calibrate", "--out", str(out), empty]) == 0
    assert "no die was found" in capsys.readouterr().err
    data = json.loads(out.read_text())
    assert "die_size" not in data and "stretch" not in data and data["frame_size"] == [640, 480]


@pytest.mark.parametrize("turn, said", [(12, "turned about 12 degrees anticlockwise"),
                                         (-12, "turned about 12 degrees clockwise"), (0, None)])
def test_calibrate_tells_the_installer_to_level_a_turned_camera(turn, said, capsys, tmp_path):
    # A webcam 45 degrees from overhead, turned about its own axis (its picture turned by
    # ``turn``, anticlockwise): the reader undoes a slant only along the frame's axes, so
    # calibrating says how far the camera is turned and to level it, and saves the calibration.
    paths = []
    for s in range(3):
        frame = render_tray([4, 5, 4, 5, 4, 5], seed=20 + s, slant=45)
        frame = cv2.warpAffine(frame, cv2.getRotationMatrix2D((320, 240), turn, 1.0), (640, 480),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        paths.append(str(tmp_path / f"f{s}.jpg"))
        cv2.imwrite(paths[-1], frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
    out = tmp_path / "setup.json"
    assert main(["calibrate", "--out", str(out), *paths]) == 0
    err = capsys.readouterr().err
    assert (said in err) if said else "turned" not in err
    assert json.loads(out.read_text())["roll"] == pytest.approx(turn, abs=1.5)


@pytest.mark.parametrize("style, said", [({}, None), ({"die_size": 18}, "the dice are about 18 px wide"),
                                         ({"slant": 58}, "about 58 degrees from overhead")])
def test_calibrate_tells_the_installer_of_dice_too_small_or_a_camera_too_steep(style, said, capsys, tmp_path):
    # Dice 44 px wide seen from overhead read well; 18 px wide, or seen 58 degrees from
    # overhead, fewer are read right: calibrating says so and what to do, and saves the
    # calibration all the same.
    paths = []
    for s in range(3):
        paths.append(str(tmp_path / f"f{s}.png"))
        cv2.imwrite(paths[-1], render_tray([4, 5, 4, 5, 2, 6], seed=20 + s, **style))
    out = tmp_path / "setup.json"
    assert main(["calibrate", "--out", str(out), *paths]) == 0
    err = capsys.readouterr().err
    assert (said in err and ("nearer" in err or "raise" in err)) if said else err == ""
    assert json.loads(out.read_text())["die_size"] > 0


def test_small_dice_in_a_frame_the_reader_shrinks_are_told_as_it_sees_them():
    # A 2000x1500 camera frame is read shrunk to 1000 px long: its 40 px dice are 20 px to
    # the reader, which a larger frame would not mend; a 640x480 frame's 20 px dice, which
    # a larger frame would, are told as they are.
    from companion.vision.calibration import Calibration
    from companion.vision.setup import placement_advice

    big, = placement_advice(Calibration(die_size=40, frame_size=[2000, 1500]))
    assert "about 20 px wide as the reader sees them" in big and "[camera] width" not in big
    small, = placement_advice(Calibration(die_size=20, frame_size=[640, 480]))
    assert "about 20 px wide in the camera's picture" in small and "[camera] width" in small
    assert placement_advice(Calibration(die_size=30, frame_size=[640, 480])) == []


def test_the_field_of_view_is_asked_for_only_where_the_reader_would_use_it():
    # A camera 40 degrees from overhead, tilted down at the tray: the installer hears which
    # field of view the reader takes it to have, and how to give its own, unless given.
    # Nearer overhead, or squashing the dice sideways (a camera turned on its side, whose
    # far side the reader does not know), the reader would not use it.
    from companion.vision.calibration import Calibration
    from companion.vision.perspective import ASSUMED_FIELD_OF_VIEW
    from companion.vision.setup import placement_advice

    asked, = placement_advice(Calibration(stretch=[1.0, 1.3]))
    assert f"{ASSUMED_FIELD_OF_VIEW:.0f} degrees across" in asked and "--field-of-view" in asked
    assert placement_advice(Calibration(stretch=[1.0, 1.3], field_of_view=60)) == []
    assert placement_advice(Calibration(stretch=[1.0, 1.1])) == []
    assert placement_advice(Calibration(stretch=[1.3, 1.0])) == []


def test_calibrate_keeps_the_cameras_field_of_view_and_refuses_an_impossible_one(images, capsys, tmp_path):
    # The installer gives the webcam's field of view from its data sheet: it is saved for
    # the reader (``perspective``). One no camera has is refused, and nothing is saved.
    out = tmp_path / "setup.json"
    assert main(["calibrate", "--out", str(out), "--field-of-view", "60", images["dice"]]) == 0
    assert json.loads(out.read_text())["field_of_view"] == 60
    wide = tmp_path / "wide.json"
    assert main(["calibrate", "--out", str(wide), "--field-of-view", "400", images["dice"]]) == 1
    assert "field_of_view must be degrees" in capsys.readouterr().err
    assert not wide.exists()


def test_calibrate_refuses_a_strip_for_a_frame(capsys, tmp_path):
    strip = str(tmp_path / "strip.png")
    cv2.imwrite(strip, render_tray([2, 5], seed=4)[200:201])
    out = tmp_path / "setup.json"
    assert main(["calibrate", "--out", str(out), strip]) == 1
    assert "640x1 px" in capsys.readouterr().err
    assert not out.exists()
