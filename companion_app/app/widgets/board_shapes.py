"""Shapes the board widget draws with Kivy graphics: filled polygons, a road's capsule, and the
sea's own pieces (a ship on its edge and its badge, the pirate's token, §13), kept apart from
:mod:`~companion_app.app.widgets.board_view` so that widget stays about taps and layers.

Each function draws into the canvas being built (inside the caller's ``with canvas``)."""

from __future__ import annotations

import math

from kivy.graphics import Color, Ellipse, Line, Mesh

from companion_app.presenters.board_picture import RGBA, Drawn

OUTLINE: RGBA = (0.12, 0.10, 0.08, 1.0)
TOKEN_LIGHT: RGBA = (0.96, 0.96, 0.96, 1.0)
PIRATE: RGBA = (0.04, 0.04, 0.05, 1.0)
SEA_FOAM: RGBA = (0.86, 0.94, 1.0, 1.0)
SAIL: RGBA = (0.97, 0.97, 0.94, 1.0)

Point = tuple[float, float]


def flat(points: list[Point]) -> list[float]:
    return [c for xy in points for c in xy]


ROUND_TOLERANCE_PX = 0.01
"""How far a drawn circle's sides may stray inside the true circle, in pixels."""


def round_sides(radius: float) -> int:
    """Sides enough for a circle of ``radius`` pixels: its polygon never strays more than
    ``ROUND_TOLERANCE_PX`` inside the circle (36 for a pip, 105 for a number token on Home's
    board at 1280x800), at most Kivy's default of 180 for any circle."""
    # A side spans 2a where r (1 - cos a) = tolerance.
    a = math.acos(max(-1.0, 1.0 - ROUND_TOLERANCE_PX / max(radius, ROUND_TOLERANCE_PX)))
    return max(8, min(180, math.ceil(math.pi / a)))


def disc(x: float, y: float, r: float) -> None:
    """A filled circle of radius ``r`` round (``x``, ``y``)."""
    Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r), segments=round_sides(r))


def ring(x: float, y: float, r: float, width: float) -> None:
    """A circle's outline, as ``Line(circle=(x, y, r), width=width)`` draws it: a hairline at
    ``width`` 1, else the band from ``r - width`` to ``r + width`` (`ring_strip`). Kivy builds
    a wide line with a round joint at each of its 180 corners: the rings of Home's board took
    its first frame about 60 ms of processor time (Xvfb's software GL) to build and draw; the
    strip takes a few."""
    if width == 1.0:
        Line(circle=(x, y, r))  # one pixel wide: cheap at any number of corners
        return
    vertices = ring_strip(x, y, r, width)
    Mesh(vertices=vertices, indices=list(range(len(vertices) // 4)), mode="triangle_strip")


def ring_strip(x: float, y: float, r: float, width: float) -> list[float]:
    """The vertices (x, y, u, v) of a ring's band as a triangle strip: outer and inner points
    in turn, round the circle and back to the first pair."""
    inner, outer = max(0.0, r - width), r + width
    sides = round_sides(outer)
    vertices: list[float] = []
    for i in range(sides + 1):
        a = 2.0 * math.pi * i / sides
        c, s = math.cos(a), math.sin(a)
        vertices += [x + outer * c, y + outer * s, 0.0, 0.0, x + inner * c, y + inner * s, 0.0, 0.0]
    return vertices


def polygon(points: list[Point]) -> None:
    """A filled convex-ish polygon as a triangle fan around its centroid."""
    cx = sum(p[0] for p in points) / len(points)
    cy = sum(p[1] for p in points) / len(points)
    vertices = [cx, cy, 0.0, 0.0]
    for x, y in [*points, points[0]]:
        vertices += [x, y, 0.0, 0.0]
    Mesh(vertices=vertices, indices=list(range(len(points) + 2)), mode="triangle_fan")


def capsule(t: Drawn, steps: int = 8) -> list[Point]:
    """The outline of a road's marker: a bar ``t.width`` long and ``t.height`` across with
    round ends, along ``t.angle``."""
    r = t.height / 2.0
    half = t.width / 2.0 - r
    a = math.radians(t.angle)
    ux, uy = math.cos(a), math.sin(a)
    points = []
    for end, start in ((1.0, -90.0), (-1.0, 90.0)):
        cx, cy = t.x + ux * half * end, t.y + uy * half * end
        for i in range(steps + 1):
            b = math.radians(t.angle + start + 180.0 * i / steps)
            points.append((cx + r * math.cos(b), cy + r * math.sin(b)))
    return points


def ship_bar(ends: tuple[Point, Point], size: float, colour: RGBA) -> None:
    """A ship along its edge (§13.3): a thinner bar than a road's, in its owner's colour,
    rimmed with sea foam where a road's rim is dark; ``size`` is the hex side."""
    (ax, ay), (bx, by) = ends
    k = 0.12
    x1, y1 = ax + (bx - ax) * k, ay + (by - ay) * k
    x2, y2 = bx + (ax - bx) * k, by + (ay - by) * k
    Color(*SEA_FOAM)
    Line(points=[x1, y1, x2, y2], width=size * 0.1, cap="round")
    Color(*colour)
    Line(points=[x1, y1, x2, y2], width=size * 0.06, cap="round")


def ship_badge(t: Drawn, colour: RGBA) -> None:
    """A ship's badge, placed as a road's is: a hull in the owner's colour under a white sail
    over its right half, a ship and not a road at a glance (the owner's letter goes on top)."""
    r, rim = t.height / 2.0, max(1.0, t.height * 0.06)
    mast = t.x + t.width / 2.0 - r * 0.55
    sail = [(mast, t.y + r * 0.4), (mast, t.y + r * 1.75), (mast - r * 0.95, t.y + r * 0.4)]
    Color(*SAIL)
    polygon(sail)
    Color(*OUTLINE)
    Line(points=flat(sail), close=True, width=rim)
    Color(*colour)
    hull = [
        (t.x - t.width / 2.0, t.y + r * 0.55),
        (t.x + t.width / 2.0, t.y + r * 0.55),
        (t.x + t.width / 2.0 - r * 0.45, t.y - r),
        (t.x - t.width / 2.0 + r * 0.45, t.y - r),
    ]
    polygon(hull)
    Color(*OUTLINE)
    Line(points=flat(hull), close=True, width=rim)


def pirate_token(t: Drawn) -> None:
    """The pirate (§13.4): a black ship on a round black token with a light rim, over the
    sea cell it stands on."""
    x, y, r = t.x, t.y, t.width / 2.0
    Color(*PIRATE)
    disc(x, y, r)
    Color(*TOKEN_LIGHT)
    ring(x, y, r * 0.95, max(1.5, r * 0.06))
    w, h = r * 0.62, r * 0.62
    hull = [
        (x - w, y - h * 0.15),
        (x + w, y - h * 0.15),
        (x + w * 0.6, y - h * 0.7),
        (x - w * 0.6, y - h * 0.7),
    ]
    sail = [(x - w * 0.05, y + h * 0.9), (x - w * 0.05, y), (x - w * 0.7, y)]
    jib = [(x + w * 0.1, y + h * 0.7), (x + w * 0.1, y), (x + w * 0.55, y)]
    Color(*TOKEN_LIGHT)
    for shape in (hull, sail, jib):
        polygon(shape)
