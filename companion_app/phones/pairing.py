"""Pairing a phone with a seat: a random token per seat, the page's address, its QR code.

A seat's token is 128 random bits from :mod:`secrets`; the page's URL carries it. Pairing a
seat again makes a new token, and the old one stops working at once (the server closes its
connections). Tokens live only in memory: a new table server pairs afresh.
"""

from __future__ import annotations

import hmac
import secrets
import socket
import threading

import segno

from companion_app.rules.pieces import NOBODY

TOKEN_BYTES = 16
"""128 bits."""
PAGE_PATH = "/s/"
"""A seat's page is ``/s/<token>``; its WebSocket ``/ws/<token>``."""
QR_BORDER = 4
"""The quiet zone around a QR code, in modules (the standard asks for 4)."""


class SeatTokens:
    """The current token of each seat. Safe to use from any thread."""

    def __init__(self, seats: int) -> None:
        self._lock = threading.Lock()
        self._tokens: list[str | None] = [None] * seats

    @property
    def seats(self) -> int:
        return len(self._tokens)

    def pair(self, seat: int) -> str:
        """A new token for ``seat``; the previous one (if any) is no longer valid."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        with self._lock:
            self._tokens[seat] = token
        return token

    def token(self, seat: int) -> str | None:
        with self._lock:
            return self._tokens[seat]

    def seat_of(self, token: str) -> int:
        """The seat whose current token is ``token``, or NOBODY. Every seat's token is
        compared in constant time, so the answer's timing says nothing about the token."""
        given = token.encode("utf-8", "replace")
        found = NOBODY
        with self._lock:
            tokens = list(self._tokens)
        for seat, current in enumerate(tokens):
            if current is not None and hmac.compare_digest(given, current.encode()):
                found = seat
        return found


def lan_address() -> str:
    """The address phones on the same network reach this machine at (127.0.0.1 if none).

    Connecting a UDP socket sends nothing; it only asks the system which interface would
    carry traffic off this machine.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, never sent to
            address = str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
    return address if address != "0.0.0.0" else "127.0.0.1"


def seat_url(host: str, port: int, token: str) -> str:
    return f"http://{host}:{port}{PAGE_PATH}{token}"


def qr_rows(url: str) -> list[list[bool]]:
    """The QR code of ``url`` as rows of dark (True) and light modules, quiet zone included."""
    code = segno.make_qr(url, error="m")
    return [[bool(m) for m in row] for row in code.matrix_iter(scale=1, border=QR_BORDER)]


def qr_text(url: str) -> str:
    """The QR code drawn with block characters for a dark terminal (two rows per line): the
    light modules are drawn, so the code reads dark-on-light like on paper."""
    rows = [[not dark for dark in row] for row in qr_rows(url)]
    if len(rows) % 2:
        rows.append([True] * len(rows[0]))
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        lines.append(
            "".join(
                " " if not t and not b else "▀" if t and not b else "▄" if b and not t else "█"
                for t, b in zip(top, bottom, strict=True)
            )
        )
    return "\n".join(lines)
