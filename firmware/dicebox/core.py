"""The dice box's behaviour, without I/O: protocol v1, rolls, the ring of unacknowledged rolls,
standalone barbarian track, heartbeats. Time comes in as ``now_ms`` arguments; bytes come in via
`feed` and go out via `next_line`; the LED strip is read with `frame`. The asyncio runner in
`app.py` drives it on the Pico and on the host; tests drive it directly.
"""

import gc

try:
    from typing import Any
except ImportError:
    pass

# A collection after each module is loaded frees the loader's scratch memory before the next
# module's code is placed, instead of leaving it as holes between code: the firmware then runs in
# a heap 2 KB smaller (`make bench`, firmware peak heap).
from . import FIRMWARE_VERSION
from . import protocol as p

gc.collect()
from .button import Debouncer  # noqa: E402

gc.collect()
from .dice import Dice  # noqa: E402

gc.collect()
from .lights import ATTACK, BLINK, FLASH, LEDTEST, Lights  # noqa: E402

gc.collect()
from .screen import SHAKE_MS, SHAKE_STEP_MS  # noqa: E402

gc.collect()
from .store import roll_line  # noqa: E402

gc.collect()


class Roll:
    """One roll kept until the host acknowledges it. Its ROLL line and its line in the flash
    record are made once, at the press (no encoding on a resend or a write; no object of its
    own for the record: 160 bytes less of the heap per roll); ``boot`` is the boot that made it
    (this one, or an earlier one for a roll restored from flash).

    Every ROLL line names that boot: a host that missed the box's HELLO after a reset would
    otherwise file a new boot's roll under the old boot's name."""

    def __init__(
        self, seq: int, y: int, r: int, e: str, t: int, offline: bool, alc: bool, boot: str
    ) -> None:
        """The arguments are named as the ROLL line's fields (yellow, red, event, up time)."""
        fields = (("seq", seq), ("y", y), ("r", r), ("e", e), ("t", t))
        if offline:
            fields += (("off", 1),)
        if alc:
            fields += (("alc", 1),)
        fields += (("boot", boot),)
        self.seq = seq
        self.offline = offline
        self.sent_ms = -1  # when the ROLL line was last queued (-1: never)
        self.line = p.encode("ROLL", fields)
        self.boot = boot
        self.record = roll_line(boot, seq, y, r, e, t, offline, alc)


class DiceBox:
    HB_INTERVAL_MS = 1000  # heartbeat period, both ways
    PEER_MISSES = 4  # the host is gone after this many heartbeat periods (plus half of one)
    RING_SIZE = 64  # unacknowledged rolls kept; see `press` for a press when it is full
    RESEND_MS = 2000  # an unacknowledged roll is sent again after this long while a host listens
    OUTBOX_LINES = 24  # lines waiting for the serial port; when full the oldest is dropped
    OUTBOX_SPARE = 12  # resends and error replies only go out while this many lines are free
    # Standalone: the rules' 7 advances until the attack (§1), so 8 spaces, the last "arrived".
    STANDALONE_TRACK_LEN = 8
    LONG_PRESS_MS = 2000  # standalone: holding the button this long sends the ship home
    # The dice mode on the box: a second press within DOUBLE_PRESS_MS of the one before, held
    # MODE_HOLD_MS (both presses roll, as every press does), moves on to the next mode.
    DOUBLE_PRESS_MS = 500
    MODE_HOLD_MS = 1000
    ACK_SAVE_MS = 5000  # acknowledged rolls leave the flash record this long after (batched)

    def __init__(
        self,
        dice: Dice,
        device_id: str,
        boot_id: str,
        now_ms: int = 0,
        led_count: int = 8,
        store: "Any" = None,
        mode: int = -1,
    ) -> None:
        """``mode``: the dice mode to start in (an index of `protocol.DICE_MODES`; -1: the one in
        the flash record, fair without one), as if set on the box."""
        self.dice = dice
        self.device_id = device_id
        self.boot_id = boot_id
        self.boot_ms = now_ms
        self.debouncer = Debouncer(now_ms)
        self.splitter = p.LineSplitter()
        self.lights = Lights(led_count)
        self.lights.set_track(0, self.STANDALONE_TRACK_LEN)
        self.ring = []  # type: list[Roll]
        self.outbox = []  # type: list[bytes]
        self.seq = 0
        self.lost = 0  # rolls dropped from a full ring, since boot
        self.dropped_lines = 0  # output lines dropped from a full outbox
        self.errors = 0  # input lines rejected
        self.armed = True
        self.alchemist = None  # type: tuple | None
        self.host = False  # a host is listening (valid line within the peer timeout)
        self.last_rx_ms = -1
        self.next_hb_ms = now_ms
        self._reset_track_at = -1  # standalone: when the attack animation ends (or the next roll)
        self._held_since = -1  # when the button went down for the press it is still held for
        self._last_press_ms = -1  # when the latest press began (-1: none yet)
        self._mode_hold_from = -1  # a second press of a double press, held: when it began
        self.host_modes = False  # the host present has set the dice mode (MODE): its mode rules
        self.attacks = 0  # standalone attacks since power-up
        self.last_roll = None  # type: tuple | None  # (yellow, red, event, press ms) for the screen
        self.turn = ""  # what the tablet's SHOW says: whose turn, who draws on a castle
        self.draws = ""
        self.sea = False  # TRACK's sea=1: a sea board, where a 7 moves the robber or the pirate
        self.host_boots = False  # the host's HELLO said boots=1: it takes earlier boots' rolls
        self.on_roll = None  # type: Any  # called after a press made a roll, before it is kept and sent
        self.store = store  # `store.Store` or None (nothing survives a reset)
        self._save_at = -1  # when the record is due to be written again (-1: it is up to date)
        if store is not None:  # what the flash record kept across the reset
            track, kept, dice_line = store.load()
            if dice_line:
                try:
                    dice.restore(dice_line)
                except ValueError:
                    pass  # a record of another version's dice: fair, fresh decks
            if 0 < track < self.STANDALONE_TRACK_LEN - 1:
                self.lights.set_track(track, self.STANDALONE_TRACK_LEN)
            for k in kept[-self.RING_SIZE :]:
                if k.boot == boot_id:  # the same boot id again (a fixed one on a computer)
                    self.seq = max(self.seq, k.seq)
                self.ring.append(Roll(k.seq, k.y, k.r, k.e, k.t, k.off, k.alc, k.boot))
        if 0 <= mode != dice.mode:
            dice.mode = mode
            self.save()  # as if set on the box: kept in flash, so the next boot starts in it
        self._send(self._hello(now_ms))

    # ---- inputs ---------------------------------------------------------------------------------
    def button(self, pressed: bool, now_ms: int) -> bool:
        """One sample of the roll button (True = pressed); True when it made a press."""
        if self.debouncer.update(pressed, now_ms):
            last, self._last_press_ms = self._last_press_ms, now_ms
            double = last >= 0 and now_ms - last <= self.DOUBLE_PRESS_MS
            self._mode_hold_from = now_ms if double else -1
            self._held_since = now_ms
            self.press(now_ms)
            return True
        if not pressed:
            self._held_since = -1
            self._mode_hold_from = -1
        elif self._mode_hold_from >= 0 and now_ms - self._mode_hold_from >= self.MODE_HOLD_MS:
            self._mode_hold_from = -1
            self._held_since = -1  # this hold changes the dice mode; it does not send the ship home
            self.next_mode(now_ms)
        elif self._held_since >= 0 and now_ms - self._held_since >= self.LONG_PRESS_MS:
            self._held_since = -1
            if not self.host:
                self.reset_track(now_ms)
        return False

    def reset_track(self, now_ms: int) -> None:
        """Standalone, a long press: the ship goes home (a new game)."""
        self._reset_track_at = -1
        self.lights.cancel(ATTACK)
        self.lights.set_track(0, self.STANDALONE_TRACK_LEN)
        self.lights.beep(now_ms, Lights.BLINK_TONE_HZ, 300)
        self.save()

    def next_mode(self, now_ms: int) -> None:
        """The gesture on the box: the next dice mode (fair, balanced, deck, fair ...), kept in
        flash. Refused (a blink) while a host that has set the mode is present: the game's
        mode rules then."""
        self._expire_host(now_ms)
        if self.host and self.host_modes:
            self.lights.start(BLINK, now_ms)
            self.lights.beep(now_ms, Lights.BLINK_TONE_HZ, 120)
            return
        self.dice.mode = (self.dice.mode + 1) % len(p.DICE_MODES)
        self.lights.beep(now_ms, Lights.ROLL_TONE_HZ, 300)
        self.save()

    def press(self, now_ms: int) -> None:
        """A debounced press: roll, or (host listening, disarmed or 64 rolls waiting for it)
        blink and report. A roll a listening host was promised is never dropped; with no host
        the box is the table's only dice and keeps rolling: when the ring is full the oldest
        offline roll (else the oldest) makes room, counted in ``lost``."""
        self._expire_host(now_ms)
        ring = self.ring
        full = len(ring) >= self.RING_SIZE
        if self.host and (full or not self.armed):
            self.lights.start(BLINK, now_ms)
            self.lights.beep(now_ms, Lights.BLINK_TONE_HZ, 120)
            fields = (("armed", 1 if self.armed else 0), ("t", now_ms - self.boot_ms))
            if full:
                fields += (("full", 1),)
            self._send(p.encode("PRESS", fields))
            return
        if full:
            drop = 0
            for i in range(len(ring)):
                if ring[i].offline:
                    drop = i
                    break
            ring.pop(drop)
            self.lost += 1
        alch = self.alchemist if self.host else None
        self.alchemist = None
        if alch is not None:
            yellow, red = alch
            event = self.dice.event()
        else:
            yellow, red, event = self.dice.roll()
        self.seq += 1
        roll = Roll(
            self.seq,
            yellow,
            red,
            event,
            now_ms - self.boot_ms,
            not self.host,
            alch is not None,
            self.boot_id,
        )
        self.ring.append(roll)
        self.last_roll = (yellow, red, event, now_ms)
        if self.on_roll is not None:
            self.on_roll(now_ms)  # the display shows it first
        if not self.host:
            # The box's own track moves as the rules' does. The rules send the ship home at
            # the attack (§7), so the next roll, whatever it is, ends the attack's animation;
            # a ship then sails one space, and one arriving attacks.
            lights = self.lights
            if lights.arrived() or self._reset_track_at >= 0:
                self._reset_track_at = -1
                lights.cancel(ATTACK)
                lights.set_track(0, lights.length)
            if event == "ship":
                lights.set_track(lights.pos + 1, lights.length)
                if lights.arrived():
                    self.attacks += 1
                    lights.start(ATTACK, now_ms)
                    self._reset_track_at = now_ms + Lights.ATTACK_MS
        self.save()  # kept before anyone hears of it: a reset from here on cannot lose it
        roll.sent_ms = now_ms
        self._send(roll.line)
        self.lights.beep(now_ms, Lights.ROLL_TONE_HZ, Lights.ROLL_TONE_MS)
        if event != "ship":
            self.lights.start(FLASH, now_ms, event)

    def feed(self, data: bytes, now_ms: int) -> None:
        """Bytes received from the host."""
        for line in self.splitter.feed(data):
            try:
                self._line(line, now_ms)
            except Exception:  # a bug must not take the protocol down; report and carry on
                self.errors += 1
                self._send(p.encode("ERR", (("code", "internal"),)))

    def tick(self, now_ms: int) -> None:
        """Timers: heartbeat, host timeout, periodic resend, end of the standalone attack."""
        self._expire_host(now_ms)
        if now_ms >= self.next_hb_ms:
            self.next_hb_ms = now_ms + self.HB_INTERVAL_MS
            fields = (
                ("up", now_ms - self.boot_ms),
                ("last", self.seq),
                ("unacked", len(self.ring)),
                ("armed", 1 if self.armed or not self.host else 0),
            )
            self._send(p.encode("HB", fields))
        if self.host:
            self._resend(now_ms)
        if 0 <= self._reset_track_at <= now_ms:
            self._reset_track_at = -1
            self.lights.set_track(0, self.lights.length)
        if 0 <= self._save_at <= now_ms:
            self.save()

    # ---- the flash record -----------------------------------------------------------------------
    def save(self) -> None:
        """Write the record now (unacknowledged rolls, standalone track)."""
        self._save_at = -1
        if self.store is None:
            return
        track = 0 if self.host else self.lights.pos
        self.store.save(track, self.ring, self.dice.state_parts())

    # ---- outputs --------------------------------------------------------------------------------
    def next_line(self) -> bytes | None:
        """The next line to write to the host (oldest first), or None."""
        if self.outbox:
            return self.outbox.pop(0)
        return None

    def frame(self, now_ms: int) -> list:
        return self.lights.frame(now_ms)

    def tone(self, now_ms: int) -> int:
        return self.lights.tone(now_ms)

    def screen_state(self, now_ms: int) -> tuple:
        """Everything the display shows at ``now_ms`` (`screen.Screen.draw` paints it); the
        runner redraws only when this changes."""
        lights = self.lights
        attack = -1
        if lights.running(ATTACK, now_ms):
            attack = (now_ms - lights.started(ATTACK)) // Lights.ATTACK_PERIOD_MS
        yellow = red = 0
        event = ""
        shake = -1
        if self.last_roll is not None:
            yellow, red, event, at = self.last_roll
            if now_ms - at < SHAKE_MS:
                shake = (now_ms - at) // SHAKE_STEP_MS
        waiting = 0
        for roll in self.ring:
            if roll.offline:
                waiting += 1
        host = self.host
        return (
            yellow,
            red,
            event,
            shake,
            lights.pos,
            lights.length,
            attack,
            host,
            self.armed,
            waiting,
            self.turn if host else "",
            self.draws if host else "",
            self.dice.mode,
            self.sea,
        )

    def status_led(self, now_ms: int) -> bool:
        """On-board LED: steady on with a host, a short blink every second without."""
        if self.host:
            return True
        return (now_ms - self.boot_ms) % 1000 < 100

    # ---- internals ------------------------------------------------------------------------------
    def _send(self, line: bytes) -> None:
        if len(self.outbox) >= self.OUTBOX_LINES:
            self.outbox.pop(0)
            self.dropped_lines += 1
        self.outbox.append(line)

    def _hello(self, now_ms: int) -> bytes:
        return p.encode(
            "HELLO",
            (
                ("fw", FIRMWARE_VERSION),
                ("proto", p.PROTOCOL_VERSION),
                ("dev", self.device_id),
                ("boot", self.boot_id),
                ("up", now_ms - self.boot_ms),
                ("unacked", len(self.ring)),
                ("lost", self.lost),
                ("dice", p.DICE_MODES[self.dice.mode]),
                ("draws", 6),  # SHOW may name who draws in draws=: six names of 10
            ),
        )

    def _expire_host(self, now_ms: int) -> None:
        timeout = self.HB_INTERVAL_MS * self.PEER_MISSES + self.HB_INTERVAL_MS // 2
        if self.host and now_ms - self.last_rx_ms > timeout:
            self.host = False
            self.alchemist = None  # a card played on a tablet that is gone does not carry over
            self.host_modes = False

    def _connect(self, now_ms: int) -> None:
        """A host (re)appeared or said HELLO: introduce ourselves and offer every unacked roll."""
        self.host = True
        self._send(self._hello(now_ms))
        # an earlier boot's roll only for a host that takes them (HELLO boots=1)
        offline = [
            roll.seq
            for roll in self.ring
            if roll.offline and (roll.boot == self.boot_id or self.host_boots)
        ]
        if offline:
            fields = (("n", len(offline)), ("first", offline[0]), ("last", offline[-1]))
            self._send(p.encode("OFFLINE", fields))
        for roll in self.ring:
            roll.sent_ms = -1  # due now: `_resend` sends them in order as the port takes them
        self._resend(now_ms)

    def _resend(self, now_ms: int) -> None:
        """Send due unacknowledged rolls, oldest first, without crowding the outbox."""
        for roll in self.ring:
            if len(self.outbox) > self.OUTBOX_LINES - self.OUTBOX_SPARE:
                return
            if roll.boot != self.boot_id and not self.host_boots:
                continue  # an earlier boot's roll: only for a host that takes them (HELLO boots=1)
            if roll.sent_ms < 0 or now_ms - roll.sent_ms >= self.RESEND_MS:
                roll.sent_ms = now_ms
                self._send(roll.line)

    def _error(self, code: str, kind: str = "", want: str = "") -> None:
        self.errors += 1
        if len(self.outbox) > self.OUTBOX_LINES - self.OUTBOX_SPARE:
            return  # a flood of bad input must not push out rolls and greetings
        fields = [("code", code)]
        if kind:
            fields.append(("cmd", kind))
        if want:
            fields.append(("want", want))
        self._send(p.encode("ERR", tuple(fields)))

    def _line(self, line: bytes, now_ms: int) -> None:
        try:
            body = p.unframe(line)
        except p.ProtocolError as exc:
            self._error(exc.code, want=exc.detail if exc.code == "crc" else "")
            return
        # A line with a good CRC comes from a host speaking protocol v1: it is alive.
        self._expire_host(now_ms)
        was_host = self.host
        self.last_rx_ms = now_ms
        try:
            kind, fields = p.decode(line, p.HOST_MESSAGES)
        except p.ProtocolError as exc:
            if not was_host:
                self._connect(now_ms)
            kind = body.split(" ")[0]
            ok_kind = kind if kind and len(kind) <= 12 and kind.isalpha() else ""
            self._error(exc.code, ok_kind)
            return
        if kind == "HELLO":
            self.host_boots = fields.get("boots") == 1
            self.host_modes = False  # a new session: the mode is the box's until it sends MODE
        if kind == "HELLO" or not was_host:
            self._connect(now_ms)
        if kind == "HELLO" or kind == "HB":
            return
        if kind == "ACK":
            seq = fields["seq"]
            boot = fields.get("boot", self.boot_id)
            for i in range(len(self.ring)):
                roll = self.ring[i]
                if roll.seq == seq and roll.boot == boot:
                    self.ring.pop(i)
                    if self._save_at < 0:
                        self._save_at = now_ms + self.ACK_SAVE_MS
                    break
            return
        if kind == "PING":
            n = fields.get("n")
            self._send(p.encode("PONG", (("n", n),) if n is not None else ()))
            return
        if kind == "TRACK":
            self._reset_track_at = -1
            self.lights.cancel(ATTACK)
            self.lights.set_track(fields["pos"], fields["len"])
            self.sea = fields.get("sea") == 1
        elif kind == "ATTACK":
            self.lights.start(ATTACK, now_ms)
        elif kind == "ARM":
            self.armed = True
        elif kind == "DISARM":
            self.armed = False
        elif kind == "ALCH":
            self.alchemist = (fields["y"], fields["r"]) if "y" in fields else None
        elif kind == "LEDTEST":
            self.lights.start(LEDTEST, now_ms)
        elif kind == "SHOW":
            self.turn = fields.get("turn", "").upper()  # the display's font has capitals
            # who draws: names joined by "." (draws=, from a host that read HELLO's draws=; an
            # older host's draw=, 32 characters, names cut to 7)
            self.draws = (fields.get("draws") or fields.get("draw", "")).upper()
        elif kind == "MODE":
            self.host_modes = True
            mode = p.DICE_MODES.index(fields["dice"])
            if mode != self.dice.mode:
                self.dice.mode = mode
                self.save()
            self._send(p.encode("OK", (("cmd", kind), ("dice", fields["dice"]))))
            return
        self._send(p.encode("OK", (("cmd", kind),)))
