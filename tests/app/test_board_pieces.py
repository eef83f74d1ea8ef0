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

from companion_app.presenters.board_picture import (
    HIGHLIGHT,
    HIGHLIGHT_RIM,
    MIN_DRAWN_DP,
    MIN_ROAD_MARK_DP,
    PLAYER_COLOURS,
    text_colour_on,
)

pytestmark = pytest.mark.ui

GALLERY = Path(__file__).with_name("board_gallery.py")
HEIGHT = 800


def _rgb(rgba: tuple[float, ...]) -> tuple[int, int, int]:
    return (round(rgba[0] * 255), round(rgba[1] * 255), round(rgba[2] * 255))


def _gallery(display: str, png: Path, out: Path, *size: str) -> tuple[Image.Image, dict]:
    env = {**os.environ, "DISPLAY": display, "KIVY_NO_CONSOLELOG": "1"}
    proc = subprocess.run(
        [sys.executable, str(GALLERY), str(png), str(out), *size],
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    image = Image.open(png).convert("RGB")
    return image, json.loads(out.read_text())


@pytest.fixture(scope="module")
def drawn(xvfb_display: str, artifacts_dir: Path, tmp_path_factory: pytest.TempPathFactory):
    png = artifacts_dir / "ui_10_board_pieces.png"
    return _gallery(xvfb_display, png, tmp_path_factory.mktemp("gallery") / "where.json")


SMALL_WINDOW = "640x463"
"""A window whose board has the hex side of the game screen's board at 1024x600 (44.5 dp)."""


@pytest.fixture(scope="module")
def small(xvfb_display: str, artifacts_dir: Path, tmp_path_factory: pytest.TempPathFactory):
    png = artifacts_dir / "ui_10_board_pieces_small.png"
    out = tmp_path_factory.mktemp("gallery") / "where.json"
    return _gallery(xvfb_display, png, out, SMALL_WINDOW)


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


# ---- whose road it is, by letter --------------------------------------------------------------

RED_ALONE, ORANGE_ALONE, BROWN_ALONE = 62, 65, 69
"""Roads of the gallery with no piece at either end (``board_gallery.ROADS``)."""
BESIDE_PIECES = {7: RED_ALONE, 53: ORANGE_ALONE, 47: ORANGE_ALONE}
"""Roads leaving a settlement (down from red's on 4, down and up to the left from orange's on
37), each with its owner's road alone."""


def _letter(gallery, edge: int, owner: str) -> frozenset[tuple[int, int]]:
    """The pixels of a road badge's letter, relative to the letter's top left corner (y down):
    inside the badge's outline and outside every piece's square (with its outline), those
    nearer the letter's ink than the badge's colour, in groups that do not touch the edge of
    that window."""
    image, where = gallery
    outline = 2.0 * where["dp"]
    pieces = [
        (px - w / 2 - outline, px + w / 2 + outline, py - h / 2 - outline, py + h / 2 + outline)
        for px, py, w, h in where["pieces"]
    ]
    x, y, width, height = where["road_marks"][str(edge)]
    badge = _rgb(PLAYER_COLOURS[owner])
    ink = _rgb(text_colour_on(PLAYER_COLOURS[owner]))
    ax, ay = 0.4 * width - 0.12 * height, 0.29 * height  # inside the outline ring
    columns = range(round(x - ax), round(x + ax) + 1)
    rows = range(image.height - 1 - round(y + ay), image.height - round(y - ay))
    found = {
        (px, py)
        for py in rows
        for px in columns
        if _distance(image.getpixel((px, py)), ink) < _distance(image.getpixel((px, py)), badge)
        and not any(
            x0 <= px <= x1 and y0 <= image.height - 1 - py <= y1 for x0, x1, y0, y1 in pieces
        )
    }
    letter: set[tuple[int, int]] = set()
    while found:
        group, todo = set(), [found.pop()]
        while todo:
            px, py = todo.pop()
            group.add((px, py))
            near = {(px + dx, py + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)} & found
            found -= near
            todo.extend(near)
        edges = {columns[0], columns[-1]}, {rows[0], rows[-1]}
        if not any(px in edges[0] or py in edges[1] for px, py in group):
            letter |= group
    assert letter, f"no letter on the badge of road {edge}"
    left, top = min(px for px, _ in letter), min(py for _, py in letter)
    return frozenset((px - left, py - top) for px, py in letter)


def _distance(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    return sum((p - q) ** 2 for p, q in zip(a, b, strict=True)) ** 0.5


def _same_shape(a: frozenset[tuple[int, int]], b: frozenset[tuple[int, int]]) -> bool:
    """Every pixel of each letter has one of the other's beside it (a letter drawn a fraction
    of a pixel further has strokes a pixel wider or narrower)."""

    def near(p: tuple[int, int], to: frozenset[tuple[int, int]]) -> bool:
        return any((p[0] + dx, p[1] + dy) in to for dx in (-1, 0, 1) for dy in (-1, 0, 1))

    return all(near(p, b) for p in a) and all(near(p, a) for p in b)


def _size(letter: frozenset[tuple[int, int]]) -> tuple[int, int]:
    return max(px for px, _ in letter) + 1, max(py for _, py in letter) + 1


def test_red_and_orange_roads_are_told_apart_by_their_letters(small) -> None:
    """At the 7-inch tablet's board, red's road carries an R, orange's an O: their letters'
    pixels differ where their colours are close."""
    red = _letter(small, RED_ALONE, "red")
    orange = _letter(small, ORANGE_ALONE, "orange")
    assert not _same_shape(red, orange)
    # The R's upright stem on the left, the O's round left side.
    assert all((0, row) in red for row in range(_size(red)[1])), sorted(red)
    assert (0, 0) not in orange and (0, _size(orange)[1] - 1) not in orange


@pytest.mark.parametrize(("edge", "alone"), sorted(BESIDE_PIECES.items()))
def test_a_road_leaving_a_settlement_shows_its_whole_letter(small, edge: int, alone: int) -> None:
    """The badge of a road leaving a piece sits clear of it: its letter is the same as on the
    owner's road with nothing at its ends."""
    owner = "red" if alone == RED_ALONE else "orange"
    beside, free = _letter(small, edge, owner), _letter(small, alone, owner)
    assert _same_shape(beside, free), (sorted(beside), sorted(free))


def test_road_letters_are_read_from_across_the_table_on_a_7_inch_tablet(small) -> None:
    """Every road has a badge at least MIN_ROAD_MARK_DP high, its letter 12 dp high or more."""
    _image, where = small
    assert where["size"] == pytest.approx(44.5, abs=0.1)
    assert where["road_letter"] >= 18 * where["dp"]
    # One on each road but red's from its walled city on 12 to 8: towards 8, where red's road
    # from 4 ends too, the wall would cover more than half of its letter.
    assert sorted(map(int, where["road_marks"])) == [0, 7, 20, 40, 47, 53, 62, 65, 69]
    for _x, _y, width, height in where["road_marks"].values():
        assert min(width, height) >= MIN_ROAD_MARK_DP * where["dp"]
    for edge, owner in ((RED_ALONE, "red"), (ORANGE_ALONE, "orange"), (BROWN_ALONE, "brown")):
        assert _size(_letter(small, edge, owner))[1] >= 12 * where["dp"], edge
    brown, red = _letter(small, BROWN_ALONE, "brown"), _letter(small, RED_ALONE, "red")
    assert _size(brown)[0] > 1.5 * _size(red)[0]  # "Br", both letters shown


def test_a_piece_at_a_road_end_lies_over_the_road_badge(drawn) -> None:
    """At 1280x800 the orange road between white's destroyed city (above) and blue's knight
    has its badge in the middle, reaching into both pieces' squares: the pieces lie over it,
    the ruin's white body and the knight's blue ring where it reaches (an orange badge on top
    would show there)."""
    image, where = drawn
    s = where["size"]
    half = 0.7 * s / 2  # pieces are 0.7 of a side here
    mx, my = where["road_marks"]["63"][:2]
    assert (mx, my) == pytest.approx(where["edges"]["63"])
    badge = where["road_marks"]["63"][3] / 2
    assert my + badge > where["nodes"]["44"][1] - half + 3  # it reaches into the city's square
    for node, dy, expected in ((44, -half + 3, "white"), (48, half - 3, "blue")):
        x, y = where["nodes"][str(node)]
        pixel = image.getpixel((round(x + 2), HEIGHT - 1 - round(y + dy)))
        assert _close(pixel, _rgb(PLAYER_COLOURS[expected])), (node, pixel)
