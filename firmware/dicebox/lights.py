"""What the LED strip, the status LED and the buzzer show, as pure functions of state and time.

The strip has ``track_leds`` barbarian-track spaces followed by one attack LED. `frame(now)`
returns the colours to show; the hardware layer writes them. Animations (castle-colour flash,
attack, disarmed blink, LED test) run for a fixed time and then the track view returns.
"""

OFF = (0, 0, 0)
SEA = (0, 0, 6)  # an empty track space
SHIP = (90, 60, 30)  # the barbarian ship
WAKE = (12, 8, 4)  # spaces the ship has passed
ALARM = (160, 0, 0)  # attack LED / attack animation
AMBER = (90, 40, 0)  # disarmed blink
CASTLE = {"trade": (110, 90, 0), "politics": (0, 30, 140), "science": (0, 120, 20)}
TEST_COLOURS = ((120, 0, 0), (0, 120, 0), (0, 0, 120), (80, 80, 80))

# Animation kinds, highest priority first: small ints (names in strings would each be a qstr).
LEDTEST = 0
ATTACK = 1
BLINK = 2
FLASH = 3


class Lights:
    FLASH_MS = 900  # castle-colour flash after an event die: 3 blinks of 300 ms
    ATTACK_MS = 3000  # attack animation: the whole strip pulses red
    ATTACK_PERIOD_MS = 250
    BLINK_MS = 600  # press while disarmed: 2 amber blinks
    TEST_STEP_MS = 500  # LED test: each colour across the strip, then a chase
    ROLL_TONE_MS = 40
    ROLL_TONE_HZ = 2000
    ATTACK_TONES_HZ = (440, 330)
    BLINK_TONE_HZ = 220

    def __init__(self, led_count: int) -> None:
        self.led_count = led_count
        self.track_leds = led_count - 1
        self.pos = 0
        self.length = self.track_leds
        self._anim = {}  # kind -> (start_ms, parameter)
        self._tone_until = 0  # negative: a tone of that many ms, not played yet
        self._tone_hz = 0

    # ---- state changes ----------------------------------------------------------------------
    def set_track(self, pos: int, length: int) -> None:
        self.length = length
        self.pos = pos

    def start(self, kind: int, now_ms: int, event: object = None) -> None:
        """Start an animation; ``event``: FLASH's event (its castle's colour)."""
        self._anim[kind] = (now_ms, event)

    def cancel(self, kind: int) -> None:
        self._anim.pop(kind, None)

    def running(self, kind: int, now_ms: int) -> bool:
        entry = self._anim.get(kind)
        if entry is None:
            return False
        if kind == ATTACK:
            duration = self.ATTACK_MS
        elif kind == BLINK:
            duration = self.BLINK_MS
        elif kind == FLASH:
            duration = self.FLASH_MS
        else:
            duration = self.TEST_STEP_MS * (len(TEST_COLOURS) + 1)
        if now_ms - entry[0] >= duration:
            del self._anim[kind]
            return False
        return True

    def started(self, kind: int) -> int:
        return self._anim[kind][0]

    def beep(self, now_ms: int, hz: int, ms: int) -> None:
        """A tone of ``ms`` from when `tone` first plays it: a press draws the display and
        writes the flash before the next tick (30-45 ms on the Pico), longer than a click."""
        self._tone_hz = hz
        self._tone_until = -ms

    # ---- rendering --------------------------------------------------------------------------
    def ship_led(self) -> int:
        """Index of the LED for the ship's space (the track is scaled onto the LEDs)."""
        if self.length <= 1:
            return 0
        if self.length == self.track_leds + 1:
            # one LED per space before the last; arriving lights the attack LED as well
            return min(self.pos, self.track_leds - 1)
        return (self.pos * (self.track_leds - 1) + (self.length - 1) // 2) // (self.length - 1)

    def arrived(self) -> bool:
        return self.pos >= self.length - 1

    def track_frame(self) -> list:
        ship = self.ship_led()
        frame = []
        for i in range(self.track_leds):
            frame.append(SHIP if i == ship else (WAKE if i < ship else SEA))
        frame.append(ALARM if self.arrived() else OFF)
        return frame

    def frame(self, now_ms: int) -> list:
        """The strip's colours at ``now_ms``, one (r, g, b) per LED."""
        n = self.led_count
        if self.running(LEDTEST, now_ms):
            step = (now_ms - self._anim[LEDTEST][0]) // self.TEST_STEP_MS
            if step < len(TEST_COLOURS):
                return [TEST_COLOURS[step]] * n
            lit = (now_ms - self._anim[LEDTEST][0] - step * self.TEST_STEP_MS) * n
            lit //= self.TEST_STEP_MS
            return [TEST_COLOURS[3] if i == lit else OFF for i in range(n)]
        if self.running(ATTACK, now_ms):
            phase = (now_ms - self._anim[ATTACK][0]) // self.ATTACK_PERIOD_MS
            colour = ALARM if phase % 2 == 0 else OFF
            return [colour] * (n - 1) + [ALARM]
        frame = self.track_frame()
        if self.running(BLINK, now_ms):
            phase = (now_ms - self._anim[BLINK][0]) * 4 // self.BLINK_MS
            if phase % 2 == 0:
                return [AMBER] * n
            return frame
        if self.running(FLASH, now_ms):
            start, event = self._anim[FLASH]
            phase = (now_ms - start) * 6 // self.FLASH_MS
            colour = CASTLE.get(str(event))
            if colour is not None and phase % 2 == 0:
                frame[n - 1] = colour
                for i in range(self.track_leds):
                    if frame[i] is SEA:
                        frame[i] = colour
        return frame

    def tone(self, now_ms: int) -> int:
        """Buzzer frequency in Hz at ``now_ms`` (0 = silent)."""
        if self._tone_until < 0:
            self._tone_until = now_ms - self._tone_until
        if self.running(ATTACK, now_ms):
            phase = (now_ms - self._anim[ATTACK][0]) // self.ATTACK_PERIOD_MS
            if phase < 6:
                return self.ATTACK_TONES_HZ[phase % 2]
            return 0
        if now_ms < self._tone_until:
            return self._tone_hz
        return 0
