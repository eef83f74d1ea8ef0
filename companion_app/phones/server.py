"""The table server: each seat's page and its WebSocket, on aiohttp, in a thread of its own.

:class:`PhoneServer` is the aiohttp application and runs only on its own event loop; it never
touches the game. The tablet hands it finished pages (:meth:`TableServer.publish`) and gets
the phones' answers back on its own thread through ``decide`` (see :mod:`.table`).
:class:`TableServer` owns the thread, the loop and the listening socket, and is the part
other threads call.

Every frame from a phone is hostile: bounded in size (the WebSocket reader refuses frames
over :data:`MAX_WS_BYTES` and closes; :mod:`.messages` refuses anything over
``MAX_FRAME_BYTES``), rate-limited per connection, parsed by the untrusted-JSON reader, and
refused with a one-line reason that is counted in :attr:`PhoneServer.counters`.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import secrets
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Protocol, TypeVar

from aiohttp import WSMsgType, web

from companion_app.i18n import SOURCE, catalogue
from companion_app.phones.messages import (
    PhoneBuildRequest,
    PhoneHintRequest,
    PhoneMessageError,
    PhonePing,
    parse_frame,
    short,
)
from companion_app.phones.page_words import (
    choose_language,
    html_text,
    language_options,
    script_words,
    translate_marks,
)
from companion_app.phones.pairing import PAGE_PATH, SeatTokens, seat_url
from companion_app.rules.actions import Action
from companion_app.rules.messages import Msg, msg
from companion_app.rules.pieces import NOBODY

MAX_WS_BYTES = 16 * 1024
"""Frames longer than this close the connection (WebSocket close code 1009)."""
CLOSE_REPAIRED = 4001
"""Close code: the seat was paired again; this page's token is void."""
CLOSE_REPLACED = 4002
"""Close code: more phones opened this seat's page than allowed; the oldest gives way."""
CLOSE_TABLE_CLOSED = 1001
ANSWER_TIMEOUT_S = 10.0
"""How long a phone's answer may wait for the tablet before it is reported as not taken."""
SEND_TIMEOUT_S = 5.0
MAX_HINT_CHARS = 600
"""The longest Expert's answer sent to a phone (its choice and reason are a line or two)."""
SERVER_NAME = "catan-companion"
"""The ``Server`` header: no Python or aiohttp version for a scanner to match."""

Decide = Callable[[int, Action], Awaitable[Msg | str | None]]


class Page(Protocol):
    """A seat's state message, rendered in a phone's language (``view.SeatPage``)."""

    def text(self, code: str) -> str: ...


"""Takes a phone's action for a seat; returns None if the table applied it, else why not."""
Request = Callable[[int], Awaitable[Msg | str | None]]
"""Takes a seat's "I'll build"; returns None if the table shows it, else why not."""


@dataclass(frozen=True, slots=True)
class HintWork:
    """The Expert's thinking about one seat's decision, on a copy of the game taken on the
    tablet's thread: run off the server's loop (it may take half a second); returns the words
    of its choice and reason."""

    think: Callable[[], Msg]


Hint = Callable[[int], Awaitable[HintWork | Msg | str]]
"""Takes a seat's "What would the Expert do?": the thinking to run, else why not."""
_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on what phones may do; tests loosen the rate to reach the parser."""

    connections_per_seat: int = 3
    """A phone that reconnects after sleep may leave a half-dead connection behind: the
    oldest connection gives way to the newest."""
    messages_per_second: float = 5.0
    burst: int = 20
    heartbeat_s: float = 15.0
    """The server pings each phone this often and drops one that stops answering."""
    idle_s: float = 5.0
    """A connection that has not sent a whole request's headers this long after it opened or
    after its last response is closed: a client sending its headers a byte a second holds a
    socket only this long (aiohttp's keep-alive timer, which runs from the connection's start)."""


@dataclass(eq=False)
class _Connection:
    seat: int
    ws: web.WebSocketResponse
    opened: float
    allowance: float
    checked: float
    outbox: collections.deque[str] = field(default_factory=lambda: collections.deque(maxlen=32))
    state: Page | None = None
    language: str = SOURCE
    """The phone's language (its page's ``?lang=``, else its browser's)."""
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def take_allowance(self, rate: float, burst: int) -> bool:
        """Token bucket: one frame costs one; ``rate`` come back per second up to ``burst``."""
        now = time.monotonic()
        self.allowance = min(float(burst), self.allowance + (now - self.checked) * rate)
        self.checked = now
        if self.allowance < 1.0:
            return False
        self.allowance -= 1.0
        return True


def _static(name: str) -> str:
    return resources.files("companion_app.phones").joinpath("static", name).read_text("utf-8")


DEFAULT_LIMITS = Limits()


class PhoneServer:
    """The aiohttp application. Every method runs on the server's event loop."""

    def __init__(
        self,
        tokens: SeatTokens,
        names: tuple[str, ...],
        decide: Decide,
        limits: Limits = DEFAULT_LIMITS,
        request: Request | None = None,
        hint: Hint | None = None,
    ) -> None:
        self.tokens = tokens
        self.names = names
        self.decide = decide
        self.request = request
        self.hint = hint
        self._hinting: set[int] = set()
        """Seats whose Expert's hint is being thought about: one at a time per seat."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.limits = limits
        self.counters: collections.Counter[str] = collections.Counter()
        """Frames taken and refused, by reason (``refused:rate``, ``refused:malformed``...)."""
        self._connections: dict[int, list[_Connection]] = {s: [] for s in range(tokens.seats)}
        self._pages: dict[int, Page] = {}
        self._closing: set[asyncio.Future[bool]] = set()
        self._template = _static("phone.html")
        self._style = _static("phone.css")
        self._script = _static("phone.js")
        self._refusal_page = _static("pairing.html")

    # ---- the web application ----------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(client_max_size=4096, middlewares=[_security_headers])
        app.router.add_get(PAGE_PATH + "{token}", self._page)
        app.router.add_get("/ws/{token}", self._socket)
        app.router.add_route("*", "/{tail:.*}", self._refuse)
        app.on_shutdown.append(self._close_all)
        return app

    def _seat(self, request: web.Request) -> int:
        return self.tokens.seat_of(request.match_info.get("token", ""))

    async def _refuse(self, request: web.Request) -> web.Response:
        """Anything without a valid seat token: the pairing page's error, nothing else."""
        self.counters["refused:token"] += 1
        code = _language(request)
        page = translate_marks(self._refusal_page, code).replace("{{LANG}}", code)
        return web.Response(text=page, status=403, content_type="text/html", charset="utf-8")

    async def _page(self, request: web.Request) -> web.Response:
        seat = self._seat(request)
        if seat == NOBODY:
            return await self._refuse(request)
        nonce = secrets.token_urlsafe(12)
        code = _language(request)
        html = (
            translate_marks(self._template, code)
            .replace("{{NONCE}}", nonce)
            .replace("{{LANG}}", code)
            .replace("{{LANGUAGES}}", language_options(code))
            .replace("{{STYLE}}", self._style)
            .replace(
                "{{SCRIPT}}", self._script.replace("{{WORDS}}", script_words(self._script, code))
            )
            .replace("{{NAME}}", html_text(self.names[seat]))
        )
        response = web.Response(text=html, content_type="text/html", charset="utf-8")
        response.headers["Content-Security-Policy"] = (
            f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; "
            "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; "
            "frame-ancestors 'none'"
        )
        response.headers["Content-Language"] = code
        response.headers["Vary"] = "Accept-Language"
        return response

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        seat = self._seat(request)
        if seat == NOBODY:
            return await self._refuse(request)
        ws = web.WebSocketResponse(
            heartbeat=self.limits.heartbeat_s, max_msg_size=MAX_WS_BYTES, compress=False
        )
        await ws.prepare(request)
        now = time.monotonic()
        conn = _Connection(seat, ws, now, float(self.limits.burst), now)
        conn.language = _language(request)
        self._admit(conn)
        sender = asyncio.create_task(self._send_loop(conn))
        try:
            await self._receive_loop(conn)
        finally:
            self._connections[seat] = [c for c in self._connections[seat] if c is not conn]
            sender.cancel()
            await ws.close()
        return ws

    def _admit(self, conn: _Connection) -> None:
        conns = self._connections[conn.seat]
        while len(conns) >= self.limits.connections_per_seat:
            oldest = conns.pop(0)
            self.counters["closed:replaced"] += 1
            self._close(oldest, CLOSE_REPLACED, b"a newer page took this seat")
        conns.append(conn)
        conn.state = self._pages.get(conn.seat)
        conn.wake.set()

    async def _receive_loop(self, conn: _Connection) -> None:
        async for received in conn.ws:
            if received.type is WSMsgType.TEXT:
                await self._frame(conn, received.data)
            elif received.type is WSMsgType.BINARY:
                self._refuse_frame(conn, "binary", "binary frames are not read; send JSON text")
            elif received.type is WSMsgType.ERROR:
                self.counters["refused:protocol"] += 1
                break

    async def _frame(self, conn: _Connection, text: str) -> None:
        self.counters["frames"] += 1
        if not conn.take_allowance(self.limits.messages_per_second, self.limits.burst):
            self._refuse_frame(conn, "rate", "too many messages: slow down")
            return
        try:
            answer = parse_frame(text)
        except PhoneMessageError as exc:
            self._refuse_frame(conn, "malformed", str(exc))
            return
        if isinstance(answer, PhonePing):
            self._queue(conn, {"type": "pong"})
            return
        if isinstance(answer, PhoneHintRequest):
            # Answered on its own task: the connection's pings and frames go on meanwhile.
            task = asyncio.create_task(self._hint(conn, answer.id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return
        if isinstance(answer, PhoneBuildRequest):
            if self.request is None:
                self._refuse_frame(conn, "no_requests", "this table takes no requests", answer.id)
                return
            verdict = self.request(conn.seat)
        elif answer.action.player != conn.seat:
            self._refuse_frame(
                conn, "not_yours", "a phone answers only for its own seat", answer.id
            )
            return
        else:
            verdict = self.decide(conn.seat, answer.action)
        try:
            reason = await asyncio.wait_for(verdict, ANSWER_TIMEOUT_S)
        except TimeoutError:
            reason = "the tablet did not answer in time; try again"
        if reason is None:
            self.counters[
                "requests:taken" if isinstance(answer, PhoneBuildRequest) else "answers:taken"
            ] += 1
            self._queue(conn, {"type": "result", "id": answer.id, "ok": True})
        else:
            self.counters["refused:by_table"] += 1
            words = catalogue(conn.language).render(reason)
            self._queue(
                conn, {"type": "result", "id": answer.id, "ok": False, "error": short(words)}
            )

    async def _hint(self, conn: _Connection, hint_id: int) -> None:
        """ "What would the Expert do?" for the connection's own seat, answered to it alone:
        the tablet checks the seat decides now and copies the game, the Expert thinks in an
        executor (never on this loop), one question per seat at a time."""
        seat = conn.seat
        if self.hint is None:
            self._refuse_frame(conn, "no_hints", "this table gives no hints", hint_id)
            return
        if seat in self._hinting:
            self.counters["refused:hint_busy"] += 1
            busy = msg("the Expert is still thinking about your last question")
            self._hint_reply(conn, hint_id, busy, ok=False)
            return
        self._hinting.add(seat)
        try:
            try:
                work = await asyncio.wait_for(self.hint(seat), ANSWER_TIMEOUT_S)
            except TimeoutError:
                work = "the tablet did not answer in time; try again"
            if not isinstance(work, HintWork):
                self.counters["refused:by_table"] += 1
                self._hint_reply(conn, hint_id, work, ok=False)
                return
            try:
                words = await asyncio.get_running_loop().run_in_executor(None, work.think)
            except Exception as exc:  # the hint is a help: its failure is one line
                self.counters["hints:failed"] += 1
                self._hint_reply(conn, hint_id, str(exc) or type(exc).__name__, ok=False)
                return
            self.counters["hints:given"] += 1
            self._hint_reply(conn, hint_id, words, ok=True)
        finally:
            self._hinting.discard(seat)

    def _hint_reply(self, conn: _Connection, hint_id: int, words: Msg | str, *, ok: bool) -> None:
        text = catalogue(conn.language).render(words)
        if ok:
            line = " ".join(text.split())
            if len(line) > MAX_HINT_CHARS:
                line = line[: MAX_HINT_CHARS - 1] + "…"
            self._queue(conn, {"type": "hint", "id": hint_id, "ok": True, "text": line})
        else:
            self._queue(conn, {"type": "hint", "id": hint_id, "ok": False, "error": short(text)})

    def _refuse_frame(
        self, conn: _Connection, reason: str, words: str, answer_id: int | None = None
    ) -> None:
        self.counters[f"refused:{reason}"] += 1
        message: dict[str, Any] = {"type": "refused", "error": short(words)}
        if answer_id is not None:
            message["id"] = answer_id
        self._queue(conn, message)

    def _queue(self, conn: _Connection, message: Mapping[str, Any]) -> None:
        conn.outbox.append(json.dumps(message))
        conn.wake.set()

    async def _send_loop(self, conn: _Connection) -> None:
        """One writer per connection: replies in order, then only the newest page (a slow
        phone skips the pages it was too slow for instead of piling them up)."""
        ws = conn.ws
        while not ws.closed:
            await conn.wake.wait()
            conn.wake.clear()
            try:
                while conn.outbox:
                    await asyncio.wait_for(ws.send_str(conn.outbox.popleft()), SEND_TIMEOUT_S)
                state, conn.state = conn.state, None
                if state is not None:
                    text = state.text(conn.language)
                    await asyncio.wait_for(ws.send_str(text), SEND_TIMEOUT_S)
            except (ConnectionError, TimeoutError, RuntimeError):
                await ws.close()
                return

    # ---- from the tablet (through TableServer) --------------------------------------------

    def publish(self, pages: Mapping[int, Page]) -> None:
        """New state messages per seat: every connection of that seat gets the newest."""
        for seat, page in pages.items():
            self._pages[seat] = page
            for conn in self._connections.get(seat, ()):
                conn.state = page
                conn.wake.set()

    def drop_seat(self, seat: int, code: int, why: bytes) -> list[asyncio.Future[bool]]:
        """Start closing every connection of ``seat`` (its token was replaced, or the table
        closes); returns the closings, which a slow phone cannot hold up."""
        conns, self._connections[seat] = self._connections[seat], []
        return [self._close(conn, code, why) for conn in conns]

    def _close(self, conn: _Connection, code: int, why: bytes) -> asyncio.Future[bool]:
        closing = asyncio.ensure_future(conn.ws.close(code=code, message=why))
        self._closing.add(closing)
        closing.add_done_callback(self._closing.discard)
        return closing

    def connected(self) -> dict[int, int]:
        return {seat: len(conns) for seat, conns in self._connections.items() if conns}

    async def _close_all(self, _app: web.Application) -> None:
        for task in list(self._tasks):  # a hint still thinking is not waited for
            task.cancel()
        closings = [
            closing
            for seat in list(self._connections)
            for closing in self.drop_seat(seat, CLOSE_TABLE_CLOSED, b"the table closed")
        ]
        if closings:
            await asyncio.wait(closings, timeout=2.0)


@web.middleware
async def _security_headers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    response = await handler(request)
    if not response.prepared:
        response.headers.setdefault("Cache-Control", "no-store")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def _language(request: web.Request) -> str:
    """The page's language: the phone's choice (``?lang=``), else its browser's."""
    return choose_language(request.query.get("lang"), request.headers.get("Accept-Language", ""))


def _hide_versions() -> None:
    """``Server`` names the app without versions on every response, aiohttp's own 400s for
    malformed requests included: those are made below the application (no middleware or
    ``on_response_prepare`` sees them; aiohttp issue #6463), and aiohttp fills the header from
    its ``web_response.SERVER_SOFTWARE``, this process's only HTTP server's default."""
    from aiohttp import web_response

    if not hasattr(web_response, "SERVER_SOFTWARE"):
        raise RuntimeError("aiohttp no longer names its Server header in SERVER_SOFTWARE")
    web_response.SERVER_SOFTWARE = SERVER_NAME


_hide_versions()


class _NoTokensInLog(logging.Filter):
    """Rewrites each record of the server's log to its one line, without the exception's text
    or traceback: aiohttp quotes up to 100 bytes of a malformed request line there, and a page's
    URL holds its seat's token. The exception's kind and the peer's address stay."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        args = record.args if isinstance(record.args, tuple) else ()
        if isinstance(record.msg, str) and all(map(_plain_arg, args)):
            line = record.getMessage()
        else:  # an argument that could hold anything: the message's fixed words only
            line = str(record.msg).split("%", 1)[0].rstrip()
        if exc is not None:
            line += f" ({type(exc).__name__})"
        record.msg, record.args = line, ()
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True


def _plain_arg(arg: object) -> bool:
    """A number, or an address (aiohttp's messages name the peer), never a request's text."""
    if arg is None or isinstance(arg, int | float):
        return True
    return (
        isinstance(arg, str)
        and len(arg) <= 45
        and all(c in "0123456789abcdefABCDEF.:" for c in arg)
    )


SERVER_LOG = logging.getLogger("companion_app.phones.http")
"""aiohttp's request handling logs here (in place of ``aiohttp.server``), token-free."""
SERVER_LOG.addFilter(_NoTokensInLog())


def runner_options(limits: Limits) -> dict[str, Any]:
    """What `web.AppRunner` is given: no access log (URLs hold tokens), the token-free log,
    the header deadline."""
    return {
        "handle_signals": False,
        "access_log": None,
        "logger": SERVER_LOG,
        "keepalive_timeout": limits.idle_s,
        "shutdown_timeout": 1.0,
    }


class TableServer:
    """A :class:`PhoneServer` on its own thread and loop, bound to ``host``:``port``.

    ``decide(seat, action)`` is called on the tablet's thread through ``schedule`` (Kivy's
    ``Clock.schedule_once`` in the app, a queue in the headless server) and returns None if
    it applied the action, else the reason it did not. Every public method may be called
    from any thread.
    """

    def __init__(
        self,
        names: tuple[str, ...],
        decide: Callable[[int, Action], Msg | str | None],
        schedule: Callable[[Callable[[], None]], None],
        *,
        host: str,
        port: int = 0,
        limits: Limits = DEFAULT_LIMITS,
        request: Callable[[int], str | None] | None = None,
        hint: Callable[[int], HintWork | Msg | str] | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.tokens = SeatTokens(len(names))
        self._decide_on_table = decide
        self._request_on_table = request
        self._hint_on_table = hint
        self._schedule = schedule
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._stopped = threading.Event()
        self.limits = limits
        self.server = PhoneServer(
            self.tokens,
            names,
            self._decide,
            limits,
            None if request is None else self._request,
            None if hint is None else self._hint,
        )

    # ---- lifetime -----------------------------------------------------------------------

    def start(self) -> None:
        """Bind and serve; returns once the socket listens. :raises OSError: bind failed."""
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._serve())
            except BaseException as exc:  # reported to start()'s caller
                failure.append(exc)
                ready.set()
                loop.close()
                return
            ready.set()
            loop.run_forever()
            loop.run_until_complete(self._cleanup())
            loop.close()

        self._thread = threading.Thread(target=run, name="table-server", daemon=True)
        self._thread.start()
        ready.wait()
        if failure:
            self._thread.join()
            raise failure[0]

    async def _serve(self) -> None:
        self._runner = web.AppRunner(self.server.app(), **runner_options(self.limits))
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        addresses = self._runner.addresses
        if addresses:
            self.port = int(addresses[0][1])

    async def _cleanup(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def stop(self) -> None:
        """Close every phone's connection and the socket; waits for the thread to end."""
        loop, thread = self._loop, self._thread
        if loop is None or thread is None or self._stopped.is_set():
            return
        self._stopped.set()
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive() and not self._stopped.is_set()

    # ---- pairing ----------------------------------------------------------------------------

    def pair(self, seat: int) -> str:
        """A new token for ``seat`` (the old one's pages are closed); returns the page URL."""
        token = self.tokens.pair(seat)
        loop = self._loop
        if loop is not None and self.running:
            loop.call_soon_threadsafe(
                self.server.drop_seat, seat, CLOSE_REPAIRED, b"this seat was paired again"
            )
        return self.url(seat, token)

    def url(self, seat: int, token: str | None = None, *, host: str | None = None) -> str:
        token = token or self.tokens.token(seat) or self.tokens.pair(seat)
        return seat_url(host or self.host, self.port, token)

    # ---- to and from the phones ----------------------------------------------------------

    def publish(self, pages: Mapping[int, Page]) -> None:
        """Hand new state messages (one per seat, in each phone's language) to the phones."""
        loop = self._loop
        if loop is not None and self.running:
            loop.call_soon_threadsafe(self.server.publish, dict(pages))

    def connected(self) -> dict[int, int]:
        """Phones connected per seat (a snapshot; seats without one are left out)."""
        return dict(self.server.connected())

    def counters(self) -> dict[str, int]:
        return dict(self.server.counters)

    async def _decide(self, seat: int, action: Action) -> Msg | str | None:
        """On the server's loop: run ``decide`` on the tablet's thread, await its verdict."""
        return await self._on_table(lambda: self._decide_on_table(seat, action))

    async def _request(self, seat: int) -> Msg | str | None:
        """On the server's loop: a seat's "I'll build" to the tablet's thread."""
        request = self._request_on_table
        assert request is not None, "requests are taken only when the table asks for them"
        return await self._on_table(lambda: request(seat))

    async def _hint(self, seat: int) -> HintWork | Msg | str:
        """On the server's loop: a seat's "What would the Expert do?" to the tablet's thread
        (which checks it and copies the game; the thinking is the server's, off its loop)."""
        hint = self._hint_on_table
        assert hint is not None, "hints are asked only when the table gives them"
        return await self._on_table(lambda: hint(seat))

    async def _on_table(self, call: Callable[[], _T]) -> _T | Msg:
        """Run ``call`` on the tablet's thread and await its verdict (a failure of the table's
        own is the verdict, in words)."""
        loop = asyncio.get_running_loop()
        verdict: asyncio.Future[_T | Msg] = loop.create_future()

        def settle(reason: _T | Msg) -> None:
            if not verdict.done():
                verdict.set_result(reason)

        def on_table() -> None:
            reason: _T | Msg
            try:
                reason = call()
            except Exception as exc:  # the table's own failure: the phone hears of it
                reason = msg("the table could not take it: {problem}", problem=str(exc))
            loop.call_soon_threadsafe(settle, reason)

        self._schedule(on_table)
        return await verdict
