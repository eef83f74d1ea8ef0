"""One conversation with a dice box over an open port, without I/O or threads.

`HostSession` is the protocol's host half as a state machine: bytes come in through `feed`,
time through `tick`, typed events come out, and the lines to send pile up for `take_output`.
`link.DiceLink` runs it on a real port with a reader thread; tests drive it directly.

What the game wants the box to show (a `box_state.BoxState`: track, armed, Alchemist, the
display, attacks) is kept as state; `want` turns it into the wire's commands and queues only
those that differ from what was wanted before. A command is sent again until the box confirms
it with ``OK`` (or its heartbeat shows it), and afresh to a box that restarted or came back: a
dropped command is repaired, never forgotten.

The dice mode (``MODE``) is wanted state too, but only for a box whose HELLO named its mode
(``dice=``): a box without the modes would answer ``ERR code=unknown``, so it is never sent
one, and its confirmation is not waited for.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from companion_app.device import protocol as p
from companion_app.device.box_state import BoxState
from companion_app.device.events import (
    Connected,
    DeviceInfo,
    DeviceRoll,
    LinkEvent,
    OfflineRollsOffered,
    PressedWhileDisarmed,
    PressedWhileFull,
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
RESEND_REQUEST_S: Final = 2.0
"""While a roll is missing, HELLO (the box then sends every unacknowledged roll) this often."""
SEEN_KEYS: Final = 512
"""Roll keys remembered for de-duplication (the box keeps at most 64 unacknowledged)."""
OFFLINE_MAX: Final = 128
EARLY_MAX: Final = 64
"""Early rolls kept per boot, waiting for an earlier one (the box keeps at most 64 unacked)."""
BOOTS_MAX: Final = 16
CLOCK_SLACK_MS: Final = 500
"""A heartbeat's ``up`` this far behind the box's clock as we follow it means a restart."""
IN_BOX_MAX: Final = 256


@dataclass
class LinkCounters:
    """What went wrong or was repaired on the wire, for the status screen and the tests."""

    lines: int = 0
    bad_frames: int = 0  # too long, not framed, bad characters, CRC mismatch
    bad_messages: int = 0  # framed and CRC-correct, but an unknown type or bad fields
    rolls: int = 0  # distinct rolls passed on (RollArrived or offered)
    duplicates: int = 0  # rolls received again (resends, duplicated lines)
    reordered: int = 0  # rolls that came early and waited for an earlier one
    acks: int = 0  # ACK lines sent (re-acks included)
    device_errors: int = 0  # ERR lines from the box: it rejected something we sent
    state_changes: int = 0  # wanted-state commands queued because the state changed
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
class _BootOrder:
    """Where one boot's rolls stand: every ``seq`` up to ``settled`` has been passed on (or is
    known to be gone from the box); later ones that came early wait in ``early``."""

    settled: int = 0
    highest: int = 0
    highest_t: int = 0  # when the box made roll ``highest`` (ms since its power-up)
    early: dict[int, DeviceRoll] = field(default_factory=dict)


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
        self._made_at: OrderedDict[tuple[str, str, int], int] = OrderedDict()  # key -> its t
        self._box_up = -1  # the box's latest `up` (ms since its power-up), -1 before HELLO
        self._box_up_at = now  # when we heard it
        self._listing = False  # the lines since the box's HELLO were all OFFLINE and ROLL
        self._boots: OrderedDict[tuple[str, str], _BootOrder] = OrderedDict()
        self._in_box: set[tuple[str, str, int]] = set()
        self._box_holds_more = 0  # heartbeats in a row counting more rolls than _in_box
        """Rolls received since the box's last HELLO and not acknowledged: all still in its
        ring. A heartbeat counting no more unacknowledged rolls than these proves that every
        roll we never received is gone for good (acknowledged by an earlier run of the app)."""
        self._offline: list[DeviceRoll] = []
        self._offline_expected = 0
        self._resend_asked_at = -RESEND_REQUEST_S
        self._state: dict[str, _Command] = {}
        self._attack_pending = False
        self._attacks: int | None = None  # barbarian attacks in the last wanted state
        # The display's SHOW line: not a confirmed command (a box from before the display
        # answers it with ERR unknown, and rolls must not wait for it); sent on change and
        # after every HELLO from the box.
        self._show: bytes | None = None
        self._shown: tuple[str, tuple[str, ...]] = ("", ())  # the turn and who draws in it
        # How many names the box's SHOW draws= takes (its HELLO's draws=); 0: a box before it,
        # sent draw= (32 characters, names cut to 7).
        self._box_draws = 0
        # Boxes that sent a roll of an earlier boot (boot=): they understand ACK boot=. Any
        # other box would take "ACK seq=1 boot=X" for its own roll 1 and forget it.
        self._boot_aware: set[str] = set()
        # The box on the port has the dice modes (its HELLO said dice=): it is sent MODE.
        self._mode_aware = False

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

    def want(self, state: BoxState | None, *, first: bool = False) -> None:
        """The box should show ``state`` (None: no game, the button rolls nothing). Only the
        commands whose line differs from the one wanted before are queued; one more attack
        than the last state plays the animation once. ``first``: the first state of a game
        just opened, whose past attacks are not news."""
        if state is None:
            self.set_armed(False)
            return
        self.set_dice_mode(state.dice_mode)  # first: a box told anew rolls in it at once
        self.set_track(*state.track, sea=state.sea)
        if not first and self._attacks is not None and state.attacks > self._attacks:
            self.attack()
        self._attacks = state.attacks
        self.show(state.turn, state.draws)
        self.set_armed(state.armed)
        self.set_alchemist(state.alchemist)

    def acknowledge(self, roll: DeviceRoll) -> None:
        """The roll is committed: the box may forget it.

        Named by its boot: after a restart the same ``seq`` names a different roll, so a roll
        of an earlier boot (kept in the box's flash) is acknowledged with ``boot=``.
        """
        self._seen[roll.key] = True
        self._seen.move_to_end(roll.key)
        self._trim_seen()
        self._in_box.discard(roll.key)
        self._ack(roll.key)

    def set_track(self, position: int, length: int, *, sea: bool = False) -> None:
        """Ship on space ``position`` of ``length`` spaces (clamped to what the box shows);
        ``sea``: a sea board (§13), whose 7 moves the robber or the pirate (``sea=1``, sent
        only then: an island's line is as before, and a box without it ignores the field)."""
        length = max(p.TRACK_MIN_LEN, min(p.TRACK_MAX_LEN, length))
        position = max(0, min(length - 1, position))
        fields: dict[str, p.Value] = {"pos": position, "len": length}
        if sea:
            fields["sea"] = 1
        self._want("track", p.encode("TRACK", fields), "TRACK")

    def set_armed(self, armed: bool) -> None:
        self._want("armed", p.encode("ARM" if armed else "DISARM"), "ARM" if armed else "DISARM")

    def set_alchemist(self, dice: tuple[int, int] | None) -> None:
        if dice is None:
            self._want("alch", p.encode("ALCH"), "ALCH")
        else:
            self._want("alch", p.encode("ALCH", {"y": dice[0], "r": dice[1]}), "ALCH")

    def set_dice_mode(self, mode: str) -> None:
        """The game's dice mode; reaches only a box that has the modes."""
        self._want("mode", p.encode("MODE", {"dice": mode}), "MODE")

    @property
    def box_dice_mode(self) -> str | None:
        """The mode the box rolls in as it last said (HELLO or ``OK cmd=MODE``); None: a box
        without the modes (fair dice), or none connected."""
        return self.info.dice_mode if self.info is not None else None

    def _live(self) -> list[_Command]:
        """The wanted commands this box understands: MODE only to a box with the modes."""
        return [c for slot, c in self._state.items() if slot != "mode" or self._mode_aware]

    def show(self, turn: str, draws: Sequence[str] = ()) -> None:
        """What the box's display says: whose turn it is, who draws on a castle (tokens of
        letters and digits, as many as the game has players; the box shows the first
        characters that fit)."""
        self._shown = (turn, tuple(draws))
        line = self._show_line()
        if line != self._show:
            self.counters.state_changes += 1
            self._show = line
            if self.connected:
                self._out += line

    def _show_line(self) -> bytes:
        """SHOW for the wanted turn and draws, as this box takes it: ``draws=`` (every name,
        up to ``DRAWS_NAMES`` of ``DRAWS_NAME_LEN``) to a box whose HELLO said ``draws=``, else
        ``draw=`` (one token of 32 characters: names cut to 7 when they do not fit whole)."""
        turn, draws = self._shown
        fields: dict[str, p.Value] = {}
        if turn:
            fields["turn"] = turn[:32]
        if draws and self._box_draws:
            names = draws[: min(self._box_draws, p.DRAWS_NAMES)]
            fields["draws"] = ".".join(name[: p.DRAWS_NAME_LEN] for name in names)
        elif draws:
            draw = ".".join(draws)
            if len(draw) > 32:  # a token is at most 32 characters: shorter names then
                draw = ".".join(name[:7] for name in draws)[:32].strip(".")
            fields["draw"] = draw
        return p.encode("SHOW", fields)

    def attack(self) -> None:
        """Play the attack animation once (not repeated to a box that comes back later)."""
        self.counters.state_changes += 1
        if self.connected:
            self._out += p.encode("ATTACK")
        else:
            self._attack_pending = True

    def _want(self, slot: str, line: bytes, ok_type: str) -> None:
        current = self._state.get(slot)
        if current is not None and current.line == line:
            return
        self._state[slot] = _Command(line, ok_type)
        self.counters.state_changes += 1
        if self.connected and (slot != "mode" or self._mode_aware):
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
        for command in self._live():
            if not command.confirmed and (
                command.sent_at < 0 or now - command.sent_at >= CONFIRM_S
            ):
                self._send_command(command, now)
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
                self._listing = False  # what was lost may have been another HELLO
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
        if kind not in ("ROLL", "OFFLINE"):
            self._listing = kind == "HELLO"
        if kind == "HELLO":
            self._hello(m, now, events)
        elif not self.connected:
            return  # rolls before the box introduced itself come again after its HELLO
        elif kind == "ROLL":
            self._roll(m, events)
        elif kind in ("HB", "PRESS") and self._restarted(
            m.number("up" if kind == "HB" else "t"), now
        ):
            return
        elif kind == "HB":
            self.device_unacked = m.number("unacked")
            self._heartbeat(m, now, events)
        elif kind == "OFFLINE":
            self._offline_expected = min(m.number("n"), OFFLINE_MAX)
        elif kind == "PRESS":
            events.append(PressedWhileFull() if m.flag("full") else PressedWhileDisarmed())
        elif kind == "OK":
            self._ok(m)
        elif kind == "ERR":
            self.counters.device_errors += 1
            if m.fields.get("cmd") == "MODE" and m.fields.get("code") == "unknown":
                self._mode_aware = False  # a box without the modes after all: its dice are fair

    def _ok(self, m: p.Message) -> None:
        cmd = m.text("cmd")
        said = m.fields.get("dice")
        if cmd == "MODE" and self.info is not None and isinstance(said, str):
            self.info = self._last_info = replace(self.info, dice_mode=said)
        for slot, command in self._state.items():
            if command.ok_type != cmd:
                continue
            if slot == "mode" and command.line != p.frame(f"MODE dice={said}"):
                continue  # the box confirmed another mode (an older MODE's OK): not ours yet
            command.confirmed = True

    def _hello(self, m: p.Message, now: float, events: list[LinkEvent]) -> None:
        dice = m.text("dice") if "dice" in m.fields else None
        info = DeviceInfo(m.text("dev"), m.text("boot"), m.text("fw"), m.number("proto"), dice)
        self._mode_aware = dice is not None
        self._box_draws = m.number("draws") if "draws" in m.fields else 0
        self.device_unacked = m.number("unacked")
        previous = self.info
        before = self._last_info
        self.info = info
        self._last_info = info
        self._box_up, self._box_up_at = m.number("up"), now
        self._offline_expected = 0
        self._in_box.clear()  # the box lists its unacknowledged rolls again after this
        # The box restarted or lost track of us (the Alchemist is cancelled then): say again
        # what it should show.
        for command in self._state.values():
            command.confirmed = False
            command.sent_at = -1.0
        if previous != info:
            self.counters.connects += 1
            events.append(Connected(info))
            if before is not None and before.boot_id != info.boot_id:
                self._resend_asked_at = -RESEND_REQUEST_S
                # The box restarted without hearing our HELLO (boots=1): say it, so that it
                # offers the rolls it kept in flash from its earlier boot.
                self._out += _HELLO
        for command in self._live():
            self._send_command(command, now)
        if self._attack_pending:
            self._attack_pending = False
            self._out += p.encode("ATTACK")
        if self._show is not None:
            self._show = self._show_line()  # in the form this box takes (draws= or draw=)
            self._out += self._show

    def _heartbeat(self, m: p.Message, now: float, events: list[LinkEvent]) -> None:
        """What the heartbeat proves about missing rolls, and whether to ask for them again."""
        info = self.info
        assert info is not None
        last, unacked = m.number("last"), m.number("unacked")
        current = (info.device_id, info.boot_id)
        if unacked <= len(self._in_box):
            self._box_holds_more = 0
            # The box holds nothing we have not received: every gap is for good (rolls that an
            # earlier run acknowledged, or that a reset took away). Pass the early ones on.
            for boot, order in list(self._boots.items()):
                if boot[0] == info.device_id:
                    limit = last if boot == current else max(order.early, default=order.settled)
                    self._settle(order, limit, events)
        else:
            # The box holds a roll we lack (twice running: not just an ACK on its way), a roll
            # waits for an earlier one, or the box made a roll we never received.
            self._box_holds_more += 1
            mine = self._boots.get(current)
            missing = (
                self._box_holds_more >= 2
                or any(o.early for b, o in self._boots.items() if b[0] == info.device_id)
                or last > (mine.highest if mine is not None else 0)
            )
            if missing and now - self._resend_asked_at >= RESEND_REQUEST_S:
                self._resend_asked_at = now
                self.counters.resend_requests += 1
                self._out += _HELLO
        armed = self._state.get("armed")
        if armed is not None and armed.confirmed and (armed.ok_type == "ARM") != m.flag("armed"):
            armed.confirmed = False  # the box says otherwise (e.g. its OK was for an older one)

    def _roll(self, m: p.Message, events: list[LinkEvent]) -> None:
        """Each boot's rolls are passed on strictly in ``seq`` order, each once: one that
        comes early waits for those before it, however long (the box resends them)."""
        assert self.info is not None
        # The box names the boot that made the roll (every roll since firmware 1.1; before,
        # only one kept across a restart). Only an unnamed roll is filed under the boot of the
        # box's latest HELLO, which a restart whose HELLO was lost would make wrong.
        named = "boot" in m.fields
        roll = DeviceRoll(
            self.info.device_id,
            m.text("boot") if named else self.info.boot_id,
            m.number("seq"),
            m.number("y"),
            m.number("r"),
            _EVENTS[m.text("e")],
            offline=m.flag("off"),
            alchemist=m.flag("alc"),
        )
        if named:
            self._boot_aware.add(roll.device_id)
        key = roll.key
        made_at = m.number("t")
        known_at = self._made_at.get(key)
        order = self._boots.get((roll.device_id, roll.boot_id))
        if roll.offline and not self._listing and not named:
            # Rolled while the box heard no host: it may have restarted since its last HELLO
            # that reached us. Taken from the list that follows its next HELLO instead.
            return
        if not named and (
            (known_at is not None and known_at != made_at)
            or (order is not None and roll.seq > order.highest and made_at < order.highest_t)
        ):
            self._forget_box()  # another roll under a known name: the box restarted
            return
        self._made_at[key] = made_at
        self._made_at.move_to_end(key)
        while len(self._made_at) > SEEN_KEYS:
            self._made_at.popitem(last=False)
        order = self._order((roll.device_id, roll.boot_id))
        acked = self._seen.get(key)
        if acked is None and roll.seq not in order.early and roll.seq <= order.settled:
            # A roll given up for gone exists after all: late is better than lost.
            self.counters.reordered += 1
            self._note_in_box(key)
            self._deliver(roll, events)
            return
        if acked is not None or roll.seq in order.early:
            self.counters.duplicates += 1
            if acked:
                self._ack(key)  # our ACK was lost on the way
            elif acked is not None or roll.seq in order.early:
                self._note_in_box(key)
            return
        self._note_in_box(key)
        if roll.seq > order.highest:
            order.highest, order.highest_t = roll.seq, made_at
        if roll.seq != order.settled + 1:
            self.counters.reordered += 1
            if len(order.early) >= EARLY_MAX:  # a misbehaving box: let the latest come again
                dropped = max(order.early)
                if dropped < roll.seq:
                    return
                del order.early[dropped]
                self._in_box.discard((*key[:2], dropped))
        order.early[roll.seq] = roll
        self._release(order, events)

    def _restarted(self, up: int, now: float) -> bool:
        """A box whose clock is well behind where ours puts it (``up`` since its last one plus
        the time since) restarted without its HELLO reaching us: until it introduces itself
        again its rolls cannot be named (their ``seq`` starts again at 1), so they are left
        for its resend after our HELLO."""
        expected = self._box_up + (now - self._box_up_at) * 1000
        if self._box_up < 0 or up >= expected - CLOCK_SLACK_MS:
            self._box_up, self._box_up_at = up, now
            return False
        self._forget_box()
        return True

    def _forget_box(self) -> None:
        """The box restarted unseen: ask it to introduce itself (HELLO) before anything else."""
        self.info = None
        self._box_up = -1
        self._in_box.clear()
        self._send_hello(self._now)

    def _order(self, boot: tuple[str, str]) -> _BootOrder:
        order = self._boots.get(boot)
        if order is None:
            order = self._boots[boot] = _BootOrder()
            while len(self._boots) > BOOTS_MAX:
                self._boots.popitem(last=False)
        return order

    def _note_in_box(self, key: tuple[str, str, int]) -> None:
        if len(self._in_box) < IN_BOX_MAX:
            self._in_box.add(key)

    def _release(self, order: _BootOrder, events: list[LinkEvent]) -> None:
        """Pass on early rolls while the next one in sequence is there."""
        while (roll := order.early.pop(order.settled + 1, None)) is not None:
            order.settled += 1
            self._deliver(roll, events)

    def _settle(self, order: _BootOrder, limit: int, events: list[LinkEvent]) -> None:
        """Rolls up to ``limit`` that never came are gone: pass on the early ones in order."""
        for seq in sorted(s for s in order.early if s <= limit):
            order.settled = seq - 1
            self._release(order, events)
        order.settled = max(order.settled, limit)
        self._release(order, events)

    def _deliver(self, roll: DeviceRoll, events: list[LinkEvent]) -> None:
        self._seen[roll.key] = False
        self._trim_seen()
        self.counters.rolls += 1
        if not roll.offline:
            # Offline rolls passed on before it wait in a batch (for the rest the box's OFFLINE
            # counted, some of which we may have had before): offered first, they stay first.
            self._flush_offline(events)
            events.append(RollArrived(roll))
            return
        if len(self._offline) < OFFLINE_MAX:
            self._offline.append(roll)
        if len(self._offline) >= self._offline_expected:
            self._flush_offline(events)

    def _flush_offline(self, events: list[LinkEvent]) -> None:
        if self._offline:
            events.append(OfflineRollsOffered(tuple(self._offline)))
            self._offline = []
            self._offline_expected = 0

    def _ack(self, key: tuple[str, str, int]) -> None:
        info = self.info
        if info is None or info.device_id != key[0]:
            return
        if key[0] in self._boot_aware:
            # Named by its boot: a box that restarted unseen must not take it for its own roll.
            self.counters.acks += 1
            self._out += p.encode("ACK", {"seq": key[2], "boot": key[1]})
        elif info.boot_id == key[1]:
            self.counters.acks += 1
            self._out += p.encode("ACK", {"seq": key[2]})

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
    def early_rolls(self) -> int:
        """Rolls that came before an earlier one of their boot and wait for it."""
        return sum(len(order.early) for order in self._boots.values())

    @property
    def state_confirmed(self) -> bool:
        """Connected, and the box has confirmed everything it should show (track, armed ...)."""
        return self.connected and all(c.confirmed for c in self._live())

    @property
    def remembered(self) -> int:
        """Roll keys kept for de-duplication (bounded)."""
        return len(self._seen)
