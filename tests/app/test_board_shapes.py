"""The board's circles: as many sides as keep them round to a hundredth of a pixel, no more
(Kivy's 180 for every circle made Home's first frame slow), and a ring's band where Kivy's wide
circle line puts it (without a window: the vertices, not the canvas)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion_app.app.widgets.board_shapes import ROUND_TOLERANCE_PX, ring_strip, round_sides


def inside_by(radius: float, sides: int) -> float:
    """How far the middle of a side of a regular polygon lies inside its circle."""
    return radius * (1.0 - math.cos(math.pi / sides))


@pytest.mark.parametrize(
    ("radius", "sides"),
    [
        (1.0, 23),  # the smallest pip
        (2.5, 36),  # a pip on Home's board at 1280x800 (hex side 55 px)
        (22.0, 105),  # a number token there
        (80.0, 180),  # a zoomed token: Kivy's own count, the most
        (0.0, 8),  # degenerate: still a polygon
    ],
)
def test_worked_examples(radius: float, sides: int) -> None:
    assert round_sides(radius) == sides


@given(st.floats(min_value=0.05, max_value=2000.0))
def test_fewest_sides_within_the_tolerance(radius: float) -> None:
    sides = round_sides(radius)
    assert 8 <= sides <= 180
    if sides < 180:
        assert inside_by(radius, sides) <= ROUND_TOLERANCE_PX * (1 + 1e-9)
    if sides > 8:
        assert inside_by(radius, sides - 1) > ROUND_TOLERANCE_PX


def test_a_ring_is_the_band_a_wide_line_draws() -> None:
    v = ring_strip(100.0, 50.0, 20.0, 1.5)
    points = [(v[i], v[i + 1]) for i in range(0, len(v), 4)]
    distances = [math.dist(p, (100.0, 50.0)) for p in points]
    assert len(points) == 2 * (round_sides(21.5) + 1)
    assert {round(d, 9) for d in distances[0::2]} == {21.5}  # r + width
    assert {round(d, 9) for d in distances[1::2]} == {18.5}  # r - width
    assert v[:8] == pytest.approx(v[-8:])  # closed: back to the first pair
