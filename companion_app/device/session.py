"""One conversation with a dice box over an open port, without I/O or threads.

`HostSession` is the protocol's host half as a state machine: bytes come in through `feed`,
time through `tick`, typed events come out, and the lines to send pile up for `take_output`.
`link.DiceLink` runs it on a real port with a reader thread; tests drive it directly.

What the game wants the box to show (track, armed, Alchemist) is kept as state, sent again
until the box confirms it with ``OK`` (or its heartbeat shows it), and sent afresh to a box
that restarted or came back: a dropped command is repaired, never forgotten.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from companion_app.device import protocol as p
from companion_app.device.events import (
    Connected,
    DeviceInfo,
    DeviceRoll,
    LinkEvent,
    OfflineRollsOffered,
    PressedWhileDisarmed,
    RollArrived,
)
from companion_app.rules.actions import EventDie

HEARTBEAT_S: Final = 1.0
"""The host sends HB this often; the box does too."""
DEVICE_TIMEOUT_S: Final = 4 * HEARTBEAT_S
"""No good line from the box for this long: it is gone (4 missed heartbeats)."""
HELLO_RETRY_S: Final = 1.0
"""Our HELLO unanswered for this long: say it again."""
CONFIRM_S: Final = 0.15
"""A state command without its OK for this long is sent again."""
REORDER_S: Final = 3.0
"""A roll that overtook an earlier one waits this long for it (the box resends after 2 s)."""
SEEN_KEYS: Final = 512
"""Roll keys remembered for de-duplication (the box keeps at most 64 unacknowledged)."""
OFFLINE_MAX: Final = 128
HELD_MAX: Final = 64


@dataclass
class LinkCounters:
    """What went wrong or was repaired on the wire, for the status screen and the tests."""

    lines: int = 0
    bad_frames: int = 0  # too long, not framed, bad characters, CRC mismatch
    bad_messages: int = 0  # framed and CRC-correct, but an unknown type or bad fields
    rolls: int = 0  # distinct rolls passed on (RollArrived or offered)
    duplicates: int = 0  # rolls received again (resends, duplicated lines)
    reordered: int = 0  # rolls held back until an earlier one arrived
    acks: int = 0  # ACK lines sent (re-acks included)
    device_errors: int = 0  # ERR lines from the box: it rejected something we sent
    commands_resent: int = 0
    resend_requests: int = 0  # HELLOs sent because the heartbeat showed a roll we never got
    connects: int = 0
    reconnects: int = 0  # port reopened after it was lost
    disconnects: int = 0
    timeouts: int = 0  # the box went silent


_EVENTS: Final = {die.value: die for die in EventDie}
# boots=1: this host takes rolls of the box's earlier boots (kept in its flash, with boot=).
_HELLO: Final = p.encode("HELLO", {"proto": p.PROTOCOL_VERSION, "boots": 1})


@dataclass
class _Command:
    """One piece of desired device state and whether the box has confirmed it."""

    line: bytes
    ok_type: str
    confirmed: bool = False
    sent_at: float = -1.0


class HostSession:
    """The host side of protocol v1 over the life of a link, across port reopens (so that a
    roll seen before an unplug is still known after it). Not thread-safe: the link locks."""

    def __init__(self, now: float) -> None:
        self.counters = LinkCounters()
        self.info: DeviceInfo | None = None  # the box on the open port, once it said HELLO
        self._last_info: DeviceInfo | None = None
        self.device_unacked = 0
        self._now = now
        self._out = bytearray()
        self._splitter = p.LineSplitter()
        self._first_line = True
        self._last_rx = now
        self._last_hb_tx = -HEARTBEAT_S
        self._hello_at = -HELLO_RETRY_S
        self._seen: OrderedDict[tuple[str, str, int], bool] = OrderedDict()  # key -> acked
        self._high: dict[tuple[str, str], int] = {}  # highest seq seen per (device, boot)
        self._held: list[tuple[float, DeviceRoll]] = []  # rolls waiting for an earlier one
        self._offline: list[DeviceRoll] = []
        self._offline_expected = 0
        self._resend_asked_for = -1
        self._state: dict[str, _Command] = {}
        self._attack_pending = False
        # The display's SHOW line: not a confirmed command (a box from before the display
        # answers it with ERR unknown, and rolls must not wait for it); sent on change and
        # after every HELLO from the box.
        self._show: bytes | None = None
        # Boxes that sent a roll of an earlier boot (boot=): they understand ACK boot=. Any
        # other box would take "ACK seq=1 boot=X" for its own roll 1 and forget it.
        self._boot_aware: set[str] = set()

    # ---- lifecycle -------------------------------------------------------------------------

    def open(self, now: float) -> None:
        """The port was (re)opened: end any partial line in the box, then introduce ourselves."""
        self._now = now
        self.info = None
        self._splitter = p.LineSplitter()
        self._first_line = True
        self._out.clear()
        self._out += b"\r\n"
        self._last_rx = now
        self._send_hello(now)

    def close(self) -> None:
        """The port is gone; what we know about rolls and wanted state stays."""
        self.info = None
        self._out.clear()

    @property
    def connected(self) -> bool:
        return self.info is not None

    def timed_out(self, now: float) -> bool:
        return now - self._last_rx > DEVICE_TIMEOUT_S

    def take_output(self) -> bytes:
        data = bytes(self._out)
        self._out.clear()
        return data

    # ---- commands from the game ------------------------------------------------------------

    def acknowledge(self, roll: DeviceRoll) -> None:
        """The roll is committed: the box may forget it.

        Named by its boot: after a restart the same ``seq`` names a different roll, so a roll
        of an earlier boot (kept in the box's flash) is acknowledged with ``boot=``.
        """
        self._seen[roll.key] = True
        self._seen.move_to_end(roll.key)
        self._trim_seen()
        self._ack(roll.key)

    def set_track(self, position: int, length: int) -> None:
        """Ship on space ``position`` of ``length`` spaces (clamped to what the box shows)."""
        length = max(p.TRACK_MIN_LEN, min(p.TRACK_MAX_LEN, length))
        position = max(0, min(length - 1, position))
        self._want("track", p.encode("TRACK", {"pos": position, "len": length}), "TRACK")

    def set_armed(self, armed: bool) -> None:
        self._want("armed", p.encode("ARM" if armed else "DISARM"), "ARM" if armed else "DISARM")

    def set_alchemist(self, dice: tuple[int, int] | None) -> None:
        if dice is None:
            self._want("alch", p.encode("ALCH"), "ALCH")
        else:
            self._want("alch", p.encode("ALCH", {"y": dice[0], "r": dice[1]}), "ALCH")

    def show(self, turn: str, draws: Sequence[str] = ()) -> None:
        """What the box's display says: whose turn it is, who draws on a castle (tokens of
        letters and digits; the box shows the first characters that fit)."""
        fields: dict[str, p.Value] = {}
        if turn:
            fields["turn"] = turn
        if draws:
            fields["draw"] = ".".join(draws)
        line = p.encode("SHOW", fields)
        if line != self._show:
            self._show = line
            if self.connected:
                self._out += line

    def attack(self) -> None:
        """Play the attack animation once (not repeated to a box that comes back later)."""
        if self.connected:
            self._out += p.encode("ATTACK")
        else:
            self._attack_pending = True

    def _want(self, slot: str, line: bytes, ok_type: str) -> None:
        current = self._state.get(slot)
        if current is not None and current.line == line:
            return
        self._state[slot] = _Command(line, ok_type)
        if self.connected:
            self._send_command(self._state[slot], self._now)

    def _send_command(self, command: _Command, now: float) -> None:
        if command.sent_at >= 0:
            self.counters.commands_resent += 1
        command.sent_at = now
        self._out += command.line

    # ---- time ------------------------------------------------------------------------------

    def tick(self, now: float) -> list[LinkEvent]:
        """Heartbeat, HELLO retry, command re-sends, and rolls that waited long enough."""
        self._now = now
        events: list[LinkEvent] = []
        if now - self._last_hb_tx >= HEARTBEAT_S:
            self._last_hb_tx = now
            self._out += p.encode("HB")
        if not self.connected:
            if now - self._hello_at >= HELLO_RETRY_S:
                self._send_hello(now)
            return events
        for command in self._state.values():
            if not command.confirmed and (
                command.sent_at < 0 or now - command.sent_at >= CONFIRM_S
            ):
                self._send_command(command, now)
        if self._held:
            self._release_held(now, events, force=False)
        return events

    # ---- input -----------------------------------------------------------------------------

    def feed(self, data: bytes, now: float) -> list[LinkEvent]:
        """Bytes from the box; the events they make. Never raises on bad input."""
        self._now = now
        events: list[LinkEvent] = []
        for line in self._splitter.feed(data):
            first, self._first_line = self._first_line, False
            try:
                message = p.decode(line)
            except p.ProtocolError as exc:
                if first and exc.code in ("long", "frame", "crc"):
                    continue  # the tail of output from before we opened the port: not an error
                self.counters.lines += 1
                if exc.code in ("long", "frame", "crc"):
                    self.counters.bad_frames += 1
                else:
                    self._last_rx = now  # a good CRC: the box is there, speaking a newer dialect
                    self.counters.bad_messages += 1
                continue
            self.counters.lines += 1
            self._last_rx = now
            self._message(message, now, events)
        return events

    def _message(self, m: p.Message, now: float, events: list[LinkEvent]) -> None:
        kind = m.type
        if kind != "ROLL":
            self._flush_offline(events)
        if kind == "HELLO":
            self._hello(m, now, events)
        elif not self.connected:
            return  # rolls before the box introduced itself come again after its HELLO
        elif kind == "ROLL":
            self._roll(m, now, events)
        elif kind == "HB":
            self.device_unacked = m.number("unacked")
            self._heartbeat(m, now)
        elif kind == "OFFLINE":
            self._offline_expected = min(m.number("n"), OFFLINE_MAX)
        elif kind == "PRESS":
            events.append(PressedWhileDisarmed())
        elif kind == "OK":
            cmd = m.text("cmd")
            for command in self._state.values():
                if command.ok_type == cmd:
                    command.confirmed = True
        elif kind == "ERR":
            self.counters.device_errors += 1

    def _hello(self, m: p.Message, now: float, events: list[LinkEvent]) -> None:
        info = DeviceInfo(m.text("dev"), m.text("boot"), m.text("fw"), m.number("proto"))
        self.device_unacked = m.number("unacked")
        previous = self.info
        before = self._last_info
        self.info = info
        self._last_info = info
        self._offline_expected = 0
        # The box restarted or lost track of us (the Alchemist is cancelled then): say again
        # what it should show.
        for command in self._state.values():
            command.confirmed = False
            command.sent_at = -1.0
        if previous != info:
            self.counters.connects += 1
            events.append(Connected(info))
            self._resend_asked_for = -1
            if before is not None and before.boot_id != info.boot_id:
                self._release_held(now, events, force=True)  # their gap will never fill now
                # The box restarted without hearing our HELLO (boots=1): say it, so that it
                # offers the rolls it kept in flash from its earlier boot.
                self._out += _HELLO
        for command in self._state.values():
            self._send_command(command, now)
        if self._attack_pending:
            self._attack_pending = False
            self._out += p.encode("ATTACK")
        if self._show is not None:
            self._out += self._show

    def _heartbeat(self, m: p.Message, now: float) -> None:
        """The heartbeat's ``last`` names a roll we never received: ask for all again now
        rather than wait for the box's 2 s resend (once per missing roll)."""
        assert self.info is not None
        last = m.number("last")
        high = self._high.get((self.info.device_id, self.info.boot_id), 0)
        if last > high and m.number("unacked") > 0 and last != self._resend_asked_for:
            self._resend_asked_for = last
            self.counters.resend_requests += 1
            self._out += _HELLO
        armed = self._state.get("armed")
        if armed is not None and armed.confirmed and (armed.ok_type == "ARM") != m.flag("armed"):
            armed.confirmed = False  # the box says otherwise (e.g. its OK was for an older one)

    def _roll(self, m: p.Message, now: float, events: list[LinkEvent]) -> None:
        assert self.info is not None
        # A roll of an earlier boot, kept in the box's flash across a reset, names its boot.
        boot_id = self.info.boot_id
        if "boot" in m.fields:
            boot_id = m.text("boot")
            self._boot_aware.add(self.info.device_id)
        roll = DeviceRoll(
            self.info.device_id,
            boot_id,
            m.number("seq"),
            m.number("y"),
            m.number("r"),
            _EVENTS[m.text("e")],
            offline=m.flag("off"),
            alchemist=m.flag("alc"),
        )
        acked = self._seen.get(roll.key)
        if acked is not None or any(held.key == roll.key for _t, held in self._held):
            self.counters.duplicates += 1
            if acked:
                self._ack(roll.key)  # our ACK was lost on the way
            return
        if roll.offline:
            self._remember(roll)
            self.counters.rolls += 1
            if len(self._offline) < OFFLINE_MAX:
                self._offline.append(roll)
            if len(self._offline) >= self._offline_expected:
                self._flush_offline(events)
            return
        boot = (roll.device_id, roll.boot_id)
        high = self._high.get(boot)
        if high is not None and roll.seq > high + 1 and not self._all_seen(boot, high, roll.seq):
            self.counters.reordered += 1
            self._held.append((now, roll))
            self._held.sort(key=lambda item: item[1].seq)
            if len(self._held) > HELD_MAX:
                self._deliver(self._held.pop(0)[1], events)
            return
        self._deliver(roll, events)
        self._release_held(now, events, force=False)

    def _all_seen(self, boot: tuple[str, str], high: int, seq: int) -> bool:
        return all((*boot, s) in self._seen for s in range(high + 1, seq))

    def _deliver(self, roll: DeviceRoll, events: list[LinkEvent]) -> None:
        self._remember(roll)
        self.counters.rolls += 1
        events.append(RollArrived(roll))

    def _remember(self, roll: DeviceRoll) -> None:
        self._seen[roll.key] = False
        self._trim_seen()
        boot = (roll.device_id, roll.boot_id)
        self._high[boot] = max(self._high.get(boot, 0), roll.seq)
        if len(self._high) > 16:
            del self._high[next(iter(self._high))]

    def _release_held(self, now: float, events: list[LinkEvent], *, force: bool) -> None:
        """Pass on held rolls whose gap has filled, or that waited long enough."""
        while self._held:
            since, roll = self._held[0]
            boot = (roll.device_id, roll.boot_id)
            high = self._high.get(boot, 0)
            gap_filled = roll.seq <= high + 1 or self._all_seen(boot, high, roll.seq)
            if not (force or gap_filled or now - since >= REORDER_S):
                return
            self._held.pop(0)
            self._deliver(roll, events)

    def _flush_offline(self, events: list[LinkEvent]) -> None:
        if self._offline:
            events.append(OfflineRollsOffered(tuple(self._offline)))
            self._offline = []
            self._offline_expected = 0

    def _ack(self, key: tuple[str, str, int]) -> None:
        info = self.info
        if info is None or info.device_id != key[0]:
            return
        if info.boot_id == key[1]:
            self.counters.acks += 1
            self._out += p.encode("ACK", {"seq": key[2]})
        elif key[0] in self._boot_aware:
            self.counters.acks += 1
            self._out += p.encode("ACK", {"seq": key[2], "boot": key[1]})

    def _trim_seen(self) -> None:
        while len(self._seen) > SEEN_KEYS:
            self._seen.popitem(last=False)

    def _send_hello(self, now: float) -> None:
        self._hello_at = now
        self._out += _HELLO

    @property
    def pending_input(self) -> int:
        """Bytes of an unfinished line held (bounded by the line limit)."""
        return self._splitter.pending

    @property
    def held_rolls(self) -> int:
        return len(self._held)

    @property
    def state_confirmed(self) -> bool:
        """Connected, and the box has confirmed everything it should show (track, armed ...)."""
        return self.connected and all(c.confirmed for c in self._state.values())

    @property
    def remembered(self) -> int:
        """Roll keys kept for de-duplication (bounded)."""
        return len(self._seen)
