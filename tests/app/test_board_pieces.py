"""Every kind of piece drawn by the board view under Xvfb with real GL, checked pixel by pixel
at the places the geometry gives (``board_gallery.py`` draws them in a child process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from companion_app.app.board_picture import HIGHLIGHT, HIGHLIGHT_RIM, MIN_DRAWN_DP
from companion_app.app.presenter import PLAYER_COLOURS

pytestmark = pytest.mark.ui

GALLERY = Path(__file__).with_name("board_gallery.py")
HEIGHT = 800


def _rgb(rgba: tuple[float, ...]) -> tuple[int, int, int]:
    return (round(rgba[0] * 255), round(rgba[1] * 255), round(rgba[2] * 255))


@pytest.fixture(scope="module")
def drawn(xvfb_display: str, artifacts_dir: Path, tmp_path_factory: pytest.TempPathFactory):
    png = artifacts_dir / "ui_10_board_pieces.png"
    out = tmp_path_factory.mktemp("gallery") / "where.json"
    env = {**os.environ, "DISPLAY": xvfb_display, "KIVY_NO_CONSOLELOG": "1"}
    proc = subprocess.run(
        [sys.executable, str(GALLERY), str(png), str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    image = Image.open(png).convert("RGB")
    return image, json.loads(out.read_text())


def _at(drawn, kind: str, ident: int, dx: float, dy: float) -> tuple[int, int, int]:
    """The pixel at an offset (in hex sizes) from a node or hex centre (window y grows up)."""
    image, where = drawn
    x, y = where[kind][str(ident)]
    s = where["size"]
    return image.getpixel((round(x + dx * s), HEIGHT - 1 - round(y + dy * s)))


def _close(pixel: tuple[int, int, int], expected: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 12 for a, b in zip(pixel, expected, strict=True))


@pytest.mark.parametrize(
    ("what", "kind", "ident", "dx", "dy", "expected"),
    [
        ("red settlement", "nodes", 4, 0.25, -0.25, _rgb(PLAYER_COLOURS["red"])),
        ("red city", "nodes", 12, 0.27, -0.25, _rgb(PLAYER_COLOURS["red"])),
        ("wall under the red city", "nodes", 12, -0.4, -0.4, (89, 76, 64)),
        ("blue city", "nodes", 20, 0.27, -0.25, _rgb(PLAYER_COLOURS["blue"])),
        ("trade metropolis ring", "nodes", 20, 0.448, 0.0, (242, 204, 38)),
        ("white destroyed city", "nodes", 44, -0.25, 0.0, _rgb(PLAYER_COLOURS["white"])),
        ("active red knight", "nodes", 30, 0.16, 0.0, _rgb(PLAYER_COLOURS["red"])),
        ("inactive red knight", "nodes", 33, 0.16, 0.0, (64, 64, 69)),
        ("active blue knight", "nodes", 36, 0.16, 0.0, _rgb(PLAYER_COLOURS["blue"])),
        ("inactive blue knight", "nodes", 48, 0.16, 0.0, (64, 64, 69)),
        ("robber on its hex's middle", "hexes", 13, -0.28, 0.0, (26, 26, 31)),
        ("merchant on its hex's middle", "hexes", 14, 0.28, 0.0, (128, 46, 158)),
        ("token on hex 0", "hexes", 0, 0.25, 0.0, (247, 237, 209)),
        ("a level 3 knight's third bar", "nodes", 36, 0.105, -0.1, (255, 255, 255)),
        ("a level 1 knight has one bar", "nodes", 30, 0.105, -0.1, _rgb(PLAYER_COLOURS["red"])),
        ("the ring round a legal intersection", "nodes", 2, 0.344, 0.0, _rgb(HIGHLIGHT)),
        ("the marker along a legal road", "edges", 16, 0.0, 0.0, _rgb(HIGHLIGHT)),
        ("the marker round a legal fields hex", "hexes", 7, -0.866, 0.0, _rgb(HIGHLIGHT)),
        ("its dark rim inside the fields", "hexes", 7, -0.77, 0.0, _rgb(HIGHLIGHT_RIM)),
    ],
)
def test_each_piece_is_drawn_where_the_geometry_puts_it(
    drawn, what: str, kind: str, ident: int, dx: float, dy: float, expected: tuple[int, int, int]
) -> None:
    pixel = _at(drawn, kind, ident, dx, dy)
    assert _close(pixel, expected), f"{what}: {pixel} != {expected}"


def test_no_piece_where_there_is_none(drawn) -> None:
    """Guards the sampling itself: below node 0 (the top corner of hex 0) is bare mountains."""
    below_node_0 = _at(drawn, "nodes", 0, 0.0, -0.3)
    assert _close(below_node_0, (140, 143, 153)), below_node_0  # mountains


def test_every_piece_token_and_marker_is_drawn_at_44_dp_or_more(drawn) -> None:
    """At 1280x800 (one dp a pixel) the board's hexes have sides of 77 px: pieces 54 px."""
    _image, where = drawn
    kinds = {kind for kind, _w, _h in where["drawn"]}
    assert kinds == {
        "settlement",
        "city",
        "destroyed_city",
        "knight",
        "robber",
        "merchant",
        "node spot",
        "edge spot",
        "hex spot",
    }
    for kind, width, height in where["drawn"]:
        shown = width if kind == "edge spot" else min(width, height)
        assert shown >= MIN_DRAWN_DP, (kind, width, height)
    pieces = [w for kind, w, _h in where["drawn"] if kind in ("settlement", "knight")]
    assert pieces and all(w == pytest.approx(0.7 * where["size"]) for w in pieces)
