"""The table server on a real socket (127.0.0.1): what a network sees of it and what its log keeps.

No token in any log (aiohttp quotes a malformed request line in its error log), a client that
sends its headers a byte at a time is dropped after the header deadline, and ``Server`` names
no versions. Every wait is on a socket's state with a bound, never a sleep.
"""

from __future__ import annotations

import asyncio
import json
import logging
import select
import socket
from collections.abc import Iterator

import aiohttp
import pytest

from companion_app.phones.server import SERVER_NAME, Limits, TableServer
from companion_app.rules.actions import Action

QUICK = Limits(idle_s=0.3)
"""A short header deadline, so the test waits fractions of a second."""


def never_decides(_seat: int, _action: Action) -> str | None:
    return "not in this test"


@pytest.fixture
def server() -> Iterator[TableServer]:
    table = TableServer(
        ("Anna", "Bo", "Cy"), never_decides, lambda f: f(), host="127.0.0.1", limits=QUICK
    )
    table.start()
    try:
        yield table
    finally:
        table.stop()


def connect(table: TableServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", table.port), timeout=10)


def read_response(sock: socket.socket) -> bytes:
    """Everything until the server closes (every response here closes its connection)."""
    chunks = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


class Records(logging.Handler):
    """Every record of every logger, formatted as a log file would hold it (traceback too)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def records() -> Iterator[Records]:
    root = logging.getLogger()
    handler, level = Records(), root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


@pytest.mark.parametrize(
    "request_line",
    [
        b"GET /s/{token} HTTP/1.1 trailing\r\n",  # a bad status line, quoted by the parser
        b"G\x01T /s/{token} HTTP/1.1\r\n",  # a bad method
        b"GET /s/{token}\x00 HTTP/1.1\r\n",  # a control byte in the target
    ],
)
def test_no_token_in_any_log_for_a_malformed_request(
    server: TableServer, records: Records, capfd: pytest.CaptureFixture[str], request_line: bytes
) -> None:
    token = server.url(1).rsplit("/", 1)[1]
    with connect(server) as sock:
        sock.sendall(request_line.replace(b"{token}", token.encode()) + b"Host: x\r\n\r\n")
        answer = read_response(sock)
    assert answer.split(b"\r\n", 1)[0].endswith(b" 400 Bad Request"), answer[:80]
    logged = "\n".join(records.lines)
    assert "Error handling request from 127.0.0.1" in logged  # the refusal is still logged
    assert token not in logged
    assert token[:8] not in logged
    out, err = capfd.readouterr()
    assert token[:8] not in out + err


def test_a_slow_header_sender_is_dropped(server: TableServer) -> None:
    """A byte of headers at a time, each well inside any read timeout: the connection is closed
    once the header deadline has passed since it opened, however busy it keeps the socket."""
    token = server.url(0).rsplit("/", 1)[1]
    request = f"GET /s/{token} HTTP/1.1\r\nHost: x\r\nUser-Agent: slow\r\n".encode()
    dropped_after = None
    with connect(server) as sock:
        for sent in range(len(request)):
            try:
                sock.sendall(request[sent : sent + 1])
            except (BrokenPipeError, ConnectionResetError):
                dropped_after = sent
                break
            readable, _, _ = select.select([sock], [], [], QUICK.idle_s / 3)
            if readable:
                try:
                    eof = sock.recv(1024) == b""
                except ConnectionResetError:
                    eof = True
                assert eof, "the server answered headers that never ended"
                dropped_after = sent
                break
    assert dropped_after is not None, "the server waited for the whole slow request"
    assert dropped_after < len(request) - 1


def test_the_server_header_names_no_versions(server: TableServer) -> None:
    good = server.url(0).split(str(server.port), 1)[1].encode()
    for request in (
        b"GET " + good + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",  # the page
        b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",  # refused: 403
        b"GET / HTTP/1.1 x\r\n\r\n",  # malformed: aiohttp's own 400
    ):
        with connect(server) as sock:
            sock.sendall(request)
            head = read_response(sock).split(b"\r\n\r\n", 1)[0].decode("latin-1")
        servers = [line for line in head.split("\r\n") if line.lower().startswith("server:")]
        assert servers == [f"Server: {SERVER_NAME}"], head
        assert "aiohttp" not in head.lower() and "python" not in head.lower()


def test_a_phone_socket_outlives_the_header_deadline(server: TableServer) -> None:
    """The deadline is for headers: an open WebSocket is not cut by it. The socket is opened,
    then a slow sender is dropped (the deadline passed since), then the socket still answers."""

    async def play() -> dict[str, object]:
        url = server.url(2).replace("http://", "ws://").replace("/s/", "/ws/")
        async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
            await asyncio.to_thread(test_a_slow_header_sender_is_dropped, server)
            await ws.send_str(json.dumps({"type": "ping"}))
            while True:
                msg = await asyncio.wait_for(ws.receive(), 10)
                data: dict[str, object] = json.loads(msg.data)
                if data["type"] != "state":
                    return data

    assert asyncio.run(play()) == {"type": "pong"}
