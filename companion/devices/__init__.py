"""The hardware layer: every device the companion touches, behind a small interface with a
real backend and a mock or simulated one, chosen by the configuration (gpiozero's pin
factories are the model).

| module | what it holds |
| --- | --- |
| ``events`` | ``ButtonEvent``, ``EventQueue`` (one queue for every input source), Undo on a long Back |
| ``gpio`` | ``GpioButtons``, ``GpioLeds`` through gpiozero (real pins or ``MockFactory``) |
| ``keyboard`` | ``KeyboardButtons``: the keyboard as buttons, for the simulated table |
| ``leds`` | the ``Leds`` interface (``set(role, "on"/"off"/"blink")``) and ``MemoryLeds`` |
| ``display`` | the ``Display`` interface (``show(lines)``, diffs, recovery), memory and terminal backends, dice glyphs |
| ``lcd_i2c`` | ``I2CDisplay``: HD44780 + PCF8574 through RPLCD and smbus2 |
| ``camera`` | ``FrameSource`` (``open/read/close``, ``CameraError``), OpenCV, folder replay, synthetic tray |
| ``picamera`` | ``Picamera2Source`` (picamera2 imported only there) |
| ``panel`` / ``panel_protocol`` | the USB panel: link, LEDs, LCD; the protocol shared with ``firmware/`` |
| ``build`` | ``open_devices(cfg)`` / ``mock_config(cfg)``: the devices a configuration describes |
| ``commands`` | ``companion devices check`` |

Nothing heavy is imported here: ``companion --help`` must stay fast on a Pi.
"""
