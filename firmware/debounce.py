# Button debouncing with hold detection, by polling (no interrupts: simple and deterministic).
#
# A raw reading must stay the same for bounce_ms before it counts; a press that lasts
# hold_ms gives one "hold". Pure logic: the caller passes the readings and the time (ms).


class Debouncer:
    def __init__(self, count, bounce_ms=30, hold_ms=800):
        self.bounce_ms = bounce_ms
        self.hold_ms = hold_ms
        self.stable = [False] * count       # debounced state: True = pressed
        self.candidate = [False] * count    # the last raw reading that differs from stable
        self.since = [0] * count            # when candidate was first seen
        self.pressed_at = [0] * count
        self.held = [False] * count

    def update(self, index, pressed, now):
        """Feed one raw reading; returns "press", "hold", "release" or None."""
        if pressed != self.stable[index]:
            if pressed != self.candidate[index]:
                self.candidate[index] = pressed
                self.since[index] = now
            elif now - self.since[index] >= self.bounce_ms:
                self.stable[index] = pressed
                if pressed:
                    self.pressed_at[index] = now
                    self.held[index] = False
                    return "press"
                return "release"
        else:
            self.candidate[index] = pressed
            if pressed and not self.held[index] and now - self.pressed_at[index] >= self.hold_ms:
                self.held[index] = True
                return "hold"
        return None
