"""The dice link: a `HostSession` on a serial port, with a reader thread and reconnects.

In the manner of pyserial's ``serial.threaded``: one thread reads the port and hands what it
reads to the protocol; commands from the app are written under a lock from the caller's thread.
When the port fails (unplugged, box reset, silent for 4 heartbeats) the link closes it and opens
it again with a growing back-off, so a box that comes back is found without anyone asking.

The port is opened through a `PortOpener`: a callable returning anything with ``read``,
``write`` and ``close`` (pyserial's ``Serial`` does). That is the one place a different
transport (e.g. Android's usbserial4a) plugs in.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Final

from companion_app.device.box_state import BoxState
from companion_app.device.events import (
    Connected,
    DeviceRoll,
    Disconnected,
    LinkEvent,
    Reconnecting,
)
from companion_app.device.port import READ_TIMEOUT_S, PortOpener, SerialPort
from companion_app.device.session import HostSession, LinkCounters

log = logging.getLogger(__name__)

BACKOFF_FIRST_S: Final = 0.05
BACKOFF_MAX_S: Final = 1.0
"""Reopen attempts wait 0.05, 0.1, 0.2 ... up to this, so a replugged box is back within ~1 s."""


def serial_opener(
    port: str | Callable[[], str | None], *, read_timeout: float = READ_TIMEOUT_S
) -> PortOpener:
    """A pyserial opener for a path, or for a callable giving the current path (a box may come
    back under another name, e.g. a replugged emulator's new pseudo-terminal)."""

    def open_port() -> SerialPort:
        import serial  # type: ignore[import-untyped]

        path = port() if callable(port) else port
        if not path:
            raise OSError("no dice box found")
        opened: SerialPort = serial.Serial(path, 115200, timeout=read_timeout, write_timeout=1.0)
        return opened

    return open_port


def discovery_opener(explicit_port: str | None = None) -> PortOpener:
    """Open ``explicit_port``, or whichever dice box `discovery` finds at each attempt; a
    ``usb:`` port is Android's USB host (`android_usb`)."""
    if explicit_port and explicit_port.startswith("usb:"):
        from companion_app.device.android_usb import android_usb_opener

        return android_usb_opener()
    from companion_app.device.discovery import find_dice_boxes

    def current() -> str | None:
        if explicit_port:
            return explicit_port
        boxes = find_dice_boxes()
        return boxes[0] if boxes else None

    return serial_opener(current)


class DiceLink:
    """The app's connection to a dice box (real or emulated; both look the same here).

    ``on_event`` is called from the reader thread with each `LinkEvent`; a UI marshals it to
    its own thread. Commands (`acknowledge`, `want`) may be called from any thread, connected
    or not: wanted state is kept and sent when the box is (back) there. The session's state is
    read only under the link's lock (`state_confirmed`, `connected`, `counters` ...).
    """

    def __init__(
        self,
        opener: PortOpener,
        on_event: Callable[[LinkEvent], None],
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._opener = opener
        self._on_event = on_event
        self._clock = clock
        self._lock = threading.RLock()
        self._session = HostSession(clock())
        self._port: SerialPort | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._status = "Looking for the dice box"
        self.handler_errors = 0

    # ---- lifecycle -------------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="dice-link", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the reader thread and close the port (idempotent)."""
        self._stop.set()
        with self._lock:
            port, self._port = self._port, None
        if port is not None:
            _close_quietly(port)
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)

    def __enter__(self) -> DiceLink:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- state for the UI (read under the lock) --------------------------------------------

    @property
    def counters(self) -> LinkCounters:
        """Bad frames, duplicates, reconnects ... (a copy taken under the lock)."""
        with self._lock:
            return replace(self._session.counters)

    @property
    def status(self) -> str:
        """One line for the top bar."""
        return self._status

    @property
    def connected(self) -> bool:
        with self._lock:
            return self._session.connected

    @property
    def device_unacked(self) -> int:
        """Rolls the box still keeps for us, from its latest HELLO or heartbeat."""
        with self._lock:
            return self._session.device_unacked

    @property
    def state_confirmed(self) -> bool:
        """Connected, and the box confirmed everything it should show (track, armed ...)."""
        with self._lock:
            return self._session.state_confirmed

    @property
    def dice_mode(self) -> str | None:
        """The mode the box rolls in as it last said; None: a box without the modes (fair)."""
        with self._lock:
            return self._session.box_dice_mode

    # ---- commands --------------------------------------------------------------------------

    def acknowledge(self, roll: DeviceRoll) -> None:
        """``roll`` is committed (call only after the journal has it): the box may forget it."""
        with self._lock:
            self._session.acknowledge(roll)
            self._flush()

    def want(self, state: BoxState | None, *, first: bool = False) -> None:
        """The box should show ``state`` (`box_state.box_state`; None: no game, disarmed).
        Only what differs from the state wanted before goes on the wire; ``first``: the first
        state of a game just opened (its past attacks are not played)."""
        with self._lock:
            self._session.want(state, first=first)
            self._flush()

    # ---- the reader thread -----------------------------------------------------------------

    def _flush(self) -> None:
        """Write what the session has queued (lock held). A failing write is left to the
        reader, which notices the dead port on its next read."""
        data = self._session.take_output()
        port = self._port
        if not data or port is None:
            return
        try:
            port.write(data)
        except Exception as exc:
            log.debug("write failed: %r", exc)

    def _emit(self, event: LinkEvent) -> None:
        try:
            self._on_event(event)
        except Exception:
            self.handler_errors += 1
            log.exception("dice link event handler failed on %r", event)

    def _run(self) -> None:
        attempt = 0
        opened_before = False
        while not self._stop.is_set():
            try:
                port = self._opener()
            except Exception as exc:
                attempt += 1
                delay = min(BACKOFF_MAX_S, BACKOFF_FIRST_S * 2 ** (attempt - 1))
                self._status = f"Looking for the dice box ({_reason(exc)})"
                self._emit(Reconnecting(attempt, delay))
                self._stop.wait(delay)
                continue
            attempt = 0
            with self._lock:
                if self._stop.is_set():
                    _close_quietly(port)
                    return
                self._port = port
                self._session.open(self._clock())
                if opened_before:
                    self._session.counters.reconnects += 1
                self._flush()
            opened_before = True
            self._status = "Dice box port open, waiting for it to answer"
            reason = self._pump(port)
            with self._lock:
                self._port = None
                self._session.close()
            _close_quietly(port)
            if self._stop.is_set():
                return
            with self._lock:
                self._session.counters.disconnects += 1
            self._status = f"Dice box lost: {reason}"
            self._emit(Disconnected(reason))

    def _pump(self, port: SerialPort) -> str:
        """Read and answer until the port fails or the box falls silent; return why."""
        session = self._session
        while not self._stop.is_set():
            try:
                waiting = getattr(port, "in_waiting", 0)
                data = port.read(waiting if isinstance(waiting, int) and waiting > 0 else 1)
            except Exception as exc:
                return f"port closed ({_reason(exc)})"
            now = self._clock()
            with self._lock:
                events = session.feed(data, now) if data else []
                events += session.tick(now)
                self._flush()
                timed_out = session.timed_out(now)
            for event in events:
                if isinstance(event, Connected):
                    info = event.info
                    self._status = f"Dice box {info.device_id} (firmware {info.firmware})"
                self._emit(event)
            if timed_out:
                with self._lock:
                    session.counters.timeouts += 1
                return "no heartbeat from the dice box for 4 s"
        return "closed"


def _reason(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


def _close_quietly(port: SerialPort) -> None:
    try:
        port.close()
    except Exception as exc:
        log.debug("close failed: %r", exc)
