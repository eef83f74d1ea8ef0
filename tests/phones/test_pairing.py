"""Seat tokens, the page URL and its QR code."""

from __future__ import annotations

import base64
import ipaddress

from companion_app.phones.pairing import (
    QR_BORDER,
    SeatTokens,
    lan_address,
    qr_rows,
    qr_text,
    seat_url,
)
from companion_app.rules.pieces import NOBODY


def test_a_token_is_128_random_bits_and_pairing_again_voids_the_old_one() -> None:
    tokens = SeatTokens(4)
    first = [tokens.pair(seat) for seat in range(4)]
    assert len(set(first)) == 4
    for token in first:
        assert len(base64.urlsafe_b64decode(token + "==")) == 16
    assert [tokens.seat_of(t) for t in first] == [0, 1, 2, 3]
    again = tokens.pair(2)
    assert again != first[2]
    assert tokens.seat_of(first[2]) == NOBODY
    assert tokens.seat_of(again) == 2
    for wrong in ("", first[1][:-1], first[1] + "A", first[1].upper(), "é" * 22, "x" * 5000):
        assert tokens.seat_of(wrong) == NOBODY


def test_the_qr_code_holds_finder_patterns_inside_its_quiet_zone() -> None:
    url = seat_url("192.168.1.20", 8765, SeatTokens(1).pair(0))
    assert url.startswith("http://192.168.1.20:8765/s/")
    rows = qr_rows(url)
    size = len(rows)
    assert all(len(row) == size for row in rows)
    assert not any(rows[0]) and not any(rows[-1]) and not any(r[0] for r in rows)
    # The top-left finder: a dark 7x7 ring around a dark 3x3 centre, one light ring between.
    b = QR_BORDER
    finder = [row[b : b + 7] for row in rows[b : b + 7]]
    assert all(finder[0]) and all(finder[6]) and all(r[0] and r[6] for r in finder)
    assert not any(finder[1][1:6]) and all(finder[3][2:5])
    art = qr_text(url).splitlines()
    assert len(art) == (size + 1) // 2 and all(len(line) == size for line in art)


def test_the_lan_address_is_an_ipv4_address() -> None:
    assert ipaddress.ip_address(lan_address()).version == 4
