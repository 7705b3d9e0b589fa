"""Real photos with no dice in them: how many dice the reader reports that are not there.

The issue counts a die reported where none lies as a wrong reading, like a wrong value.
The dev photos show trays of dice, so they cannot measure this. These photos show no dice:
a page of print, a moon, a field of stars, gravel, grass, coins, a cat, a rocket, and so on.
Each is read as ``vision_accuracy.py`` reads a dev photo: as a 640x480 webcam frame
squeezed into 4:3, and seen 40 and 55 degrees from overhead through a 53-degree webcam
(JPEG 80), with three looks pooled as ``companion dice read`` takes them (``--looks 1``:
one frame, as the settle detector reads each). For each view it prints:

- the dice reported (every one of them a die that is not there);
- how many of those are shown at the controller's default bar or above, which a roll
  with nothing asked about would take without a press;
- the places asked about (no error, but a press for the players).

By default the photos are scikit-image's sample photos, taken from its wheel on PyPI once
into ``~/.cache/table-companion/no-dice`` (without the network it says so and skips).
They are the photos that ``face_net``'s notes counted dice on by hand. ``--dir`` reads any
other folder. Not all are things found on a table (a field of stars, the moon), but print
is: a rulebook or a score pad beside the tray.

    .venv/bin/python benchmarks/vision_no_dice.py [--dir DIR] [--looks N] [--verbose]
"""

from __future__ import annotations

import argparse
import glob
import os
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from vision_accuracy import TAKEN_AT  # noqa: E402

CACHE = os.path.join(os.path.expanduser("~"), ".cache", "table-companion", "no-dice")
# (pinned: the same photos every run)
SAMPLES = "scikit-image==0.26.0"
PHOTO_ENDS = (".png", ".jpg", ".jpeg")
# The views read (tilt from overhead, the webcam's field of view; 0: squeezed into 4:3)
VIEWS = [(0.0, None), (40.0, 53.0), (55.0, 53.0)]


def sample_photos(into: str = CACHE) -> str | None:
    """``into``, holding scikit-image's sample photos (fetched from its wheel where missing);
    None where pip could not fetch it."""
    if glob.glob(os.path.join(into, "*.png")):
        return into
    with tempfile.TemporaryDirectory() as tmp:
        fetched = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                                  "--only-binary", ":all:", "--dest", tmp, SAMPLES])
        wheels = glob.glob(os.path.join(tmp, "*.whl"))
        if fetched.returncode != 0 or not wheels:
            return None
        os.makedirs(into, exist_ok=True)
        wheel = wheels[0]
        with zipfile.ZipFile(wheel) as z:
            for name in z.namelist():
                if name.startswith("skimage/data/") and name.lower().endswith(PHOTO_ENDS):
                    with open(os.path.join(into, os.path.basename(name)), "wb") as out:
                        out.write(z.read(name))
    return into


def main(argv=None) -> int:
    import cv2
    cv2.setNumThreads(1)
    from companion.vision.photo_views import as_frame
    from companion.vision.pooling import STILL_LOOKS, read_still

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", help="photos with no dice (default: scikit-image's sample photos)")
    ap.add_argument("--looks", type=int, default=STILL_LOOKS, help="readings pooled per photo (1: one frame)")
    ap.add_argument("--verbose", action="store_true", help="one line per photo with anything reported")
    args = ap.parse_args(argv)
    folder = args.dir or sample_photos()
    if folder is None:
        # (``make bench`` runs every benchmark: one that needs the network skips without it)
        print(f"skipped: pip could not fetch {SAMPLES} for its sample photos (no network?); "
              "--dir reads a folder of photos with no dice instead")
        return 0
    files = sorted(f for f in glob.glob(os.path.join(folder, "*")) if f.lower().endswith(PHOTO_ENDS))
    photos = []
    for f in files:
        img = cv2.imread(f, cv2.IMREAD_COLOR)
        # (a tiny test pattern is no photo of a table)
        if img is not None and min(img.shape[:2]) >= 64:
            photos.append((os.path.basename(f), img))
    if not photos:
        print(f"no photos (.png, .jpg) in {folder}")
        return 1
    print(f"{len(photos)} photos with no dice ({folder}), as 640x480 JPEG 80 frames, {args.looks} looks pooled")
    for tilt, fov in VIEWS:
        dice = taken = asked = with_any = 0
        for k, (name, img) in enumerate(photos):
            frame, _ = as_frame(img, [], frame="640x480", jpeg=80, tilt=tilt, seed=k, field_of_view=fov)
            reading = read_still(frame, None, args.looks)
            sure = sum(d.confidence >= TAKEN_AT for d in reading.dice)
            dice, taken, asked = dice + len(reading.dice), taken + sure, asked + len(reading.uncertain)
            with_any += bool(reading.dice)
            if args.verbose and (reading.dice or reading.uncertain):
                values = " ".join(f"{d.value}@{d.confidence:.2f}" for d in reading.dice)
                print(f"  {name}: dice [{values}], asked about {len(reading.uncertain)}")
        view = f"seen {tilt:g} degrees from overhead by a camera {fov:g} degrees wide" if tilt else "squeezed into 4:3"
        print(f"{view}: dice reported {dice} (in {with_any} photos), {taken} of them at {TAKEN_AT:g} or more; "
              f"places asked about {asked}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
