"""Reading dice and coins from camera frames.

Modules:

- ``types``       -- the reading objects (Die, Uncertain, DiceReading, Coin, CoinReading).
- ``calibration`` -- the JSON calibration of a fixed setup (tray, dice size, slant, logo face, coins).
- ``segment``     -- finding die-like and coin-like regions against the tray.
- ``pips``        -- finding pips on a die and checking their layout.
- ``printed``     -- print beside the tray (a rulebook's page, a keyboard's legends): rows of letters, no pips.
- ``slant``       -- how much a camera at a slant squashed the top faces (undone before reading).
- ``faces``       -- linking pips into faces and judging each against its layout and die body.
- ``outlines``    -- what things' outlines say beyond the pips (unread dice, dice cut by the edge).
- ``reasons``     -- why a place is asked about (the reasons ``Uncertain`` carries).
- ``dice``        -- ``read_dice(frame, calibration=None)``: the whole reading, from these.
- ``face_net``    -- the small network (OpenCV dnn) whose second opinion each face needs.
- ``train_faces`` -- trains that network (needs PyTorch; a development tool, never run on the Pi).
- ``coins``       -- ``read_coins(frame, calibration)`` and ``calibrate_coins``.
- ``settle``      -- ``SettleDetector``: one reading per roll from a frame stream.
- ``render``      -- synthetic tray frames and roll sequences for tests and the demo.
- ``setup``       -- measuring a fixed setup for ``companion calibrate``.
- ``annotate``    -- drawing readings on a frame.
- ``commands``    -- the ``companion dice|coins|calibrate`` subcommands.

numpy and OpenCV are imported by the submodules, never by this package itself, so that
``import companion.vision`` stays cheap.
"""
