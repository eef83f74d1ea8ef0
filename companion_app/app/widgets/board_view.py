"""The board drawn with Kivy graphics, and taps on it turned into spots.

The widget draws a :class:`~companion_app.app.presenter.BoardPicture` and highlights the
spots it is given (the places of legal actions); a tap on an offered spot fires ``on_spot``.
It decides nothing: which spots are offered and what a tap does belong to the screen and, in the
end, to the rules core's ``legal_actions()``.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle
from kivy.properties import BooleanProperty, ObjectProperty
from kivy.uix.widget import Widget

from companion_app.app.presenter import (
    HIGHLIGHT,
    RESOURCE_COLOURS,
    RGBA,
    SEA,
    TERRAIN_COLOURS,
    TRACK_COLOURS,
    UNKNOWN_TERRAIN,
    BoardGeometry,
    BoardPicture,
    BuildingView,
    KnightView,
    Spot,
    text_colour_on,
)
from companion_app.rules.cards import Harbour, Track
from companion_app.rules.topology import HARBOUR_EDGES, HEX_COUNT

SEA_EDGE: RGBA = (0.09, 0.24, 0.42, 1.0)
OUTLINE: RGBA = (0.12, 0.10, 0.08, 1.0)
TOKEN: RGBA = (0.97, 0.93, 0.82, 1.0)
TOKEN_TEXT: RGBA = (0.10, 0.10, 0.10, 1.0)
TOKEN_RED: RGBA = (0.80, 0.05, 0.05, 1.0)
ROBBER: RGBA = (0.16, 0.16, 0.18, 1.0)
MERCHANT: RGBA = (0.55, 0.25, 0.65, 1.0)
PIER: RGBA = (0.45, 0.30, 0.15, 1.0)
GENERIC_HARBOUR: RGBA = (0.96, 0.96, 0.96, 1.0)
HARBOUR_COLOURS: dict[Harbour | None, RGBA] = {
    None: UNKNOWN_TERRAIN,
    **{h: GENERIC_HARBOUR if h.resource is None else RESOURCE_COLOURS[h.resource] for h in Harbour},
}
"""A harbour in its resource's colour; 3:1 harbours white; grey while a table's harbour is
still being entered."""


class BoardView(Widget):
    """Draws ``picture``; highlights the keys of ``spots`` and reports taps on them."""

    picture: Any = ObjectProperty(None, allownone=True)
    spots: Any = ObjectProperty({})
    """Offered spots (``Spot`` keys; values are for the screen, e.g. the action they take)."""
    selected: Any = ObjectProperty(None, allownone=True)
    """A spot drawn as chosen (the board entry's current hex or harbour)."""
    show_hex_ids = BooleanProperty(False)
    highlight_spots = BooleanProperty(True)
    """False where every position is tappable anyway (entering a board): no yellow marks."""

    __events__ = ("on_spot",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._labels: dict[tuple[str, int, bool, RGBA], Any] = {}
        self._redraw_trigger = Clock.create_trigger(self._redraw, -1)
        self.bind(
            pos=self._redraw_trigger,
            size=self._redraw_trigger,
            picture=self._redraw_trigger,
            spots=self._redraw_trigger,
            selected=self._redraw_trigger,
            show_hex_ids=self._redraw_trigger,
            highlight_spots=self._redraw_trigger,
        )
        self._redraw_trigger()

    @property
    def geometry(self) -> BoardGeometry:
        return BoardGeometry(self.x, self.y, self.width, self.height)

    # ---- touch ------------------------------------------------------------------------------

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos) or not self.spots:
            return bool(super().on_touch_down(touch))
        spot = self.geometry.spot_at(touch.x, touch.y, self.spots)
        if spot is None:
            return False
        self.dispatch("on_spot", spot)
        return True

    def on_spot(self, spot: Spot) -> None:
        """Default handler; screens bind to it."""

    # ---- drawing ----------------------------------------------------------------------------

    def _redraw(self, *_args: object) -> None:
        self.canvas.clear()
        picture: BoardPicture | None = self.picture
        if picture is None:
            return
        geo = self.geometry
        s = geo.size
        with self.canvas:
            self._sea(geo)
            self._harbours(geo, picture)
            for hv in picture.hexes:
                Color(*TERRAIN_COLOURS[hv.terrain])
                _polygon(geo.hex_corners(hv.hex))
                Color(*OUTLINE)
                Line(points=_flat(geo.hex_corners(hv.hex)), close=True, width=max(1.0, s * 0.03))
            for hv in picture.hexes:
                if hv.token is not None:
                    self._token(geo, hv.hex, hv.token, hv.pips, hv.red)
                if self.show_hex_ids:
                    x, y = geo.hex_centre(hv.hex)
                    self._text(f"hex {hv.hex}", x, y + s * 0.55, s * 0.2, (1, 1, 1, 1), bold=False)
            if picture.robber_hex is not None:
                self._robber(geo, picture.robber_hex)
            if picture.merchant_hex is not None:
                self._merchant(geo, picture.merchant_hex)
            self._highlight_hexes(geo)
            for edge, owner in picture.roads:
                self._road(geo, edge, picture.colours[owner])
            self._highlight_edges(geo)
            for building in picture.buildings:
                mark = picture.marks[building.owner] if picture.marks else ""
                self._building(geo, building, picture.colours[building.owner], mark)
            for knight in picture.knights:
                self._knight(geo, knight, picture.colours[knight.owner])
            self._highlight_nodes(geo)

    def _sea(self, geo: BoardGeometry) -> None:
        cx, cy = geo.centre
        radius = geo.size * 5.6
        corners = [
            (
                cx + radius * math.cos(math.radians(60 * i)),
                cy + radius * math.sin(math.radians(60 * i)),
            )
            for i in range(6)
        ]
        Color(*SEA)
        _polygon(corners)
        Color(*SEA_EDGE)
        Line(points=_flat(corners), close=True, width=max(1.0, geo.size * 0.06))

    def _harbours(self, geo: BoardGeometry, picture: BoardPicture) -> None:
        s = geo.size
        for slot, label, harbour in picture.harbours:
            hx, hy = geo.harbour(slot)
            (ax, ay), (bx, by) = geo.edge(HARBOUR_EDGES[slot])
            Color(*PIER)
            Line(points=[ax, ay, hx, hy, bx, by], width=max(1.5, s * 0.06))
            r = s * 0.42
            colour = HARBOUR_COLOURS[harbour]
            Color(*colour)
            Ellipse(pos=(hx - r, hy - r), size=(2 * r, 2 * r))
            Color(*OUTLINE)
            Line(circle=(hx, hy, r), width=max(1.0, s * 0.025))
            words = label.split(" ")
            ink = text_colour_on(colour)
            if len(words) == 1:
                self._text(words[0], hx, hy, s * 0.28, ink)
            else:
                self._text(words[0], hx, hy + s * 0.13, s * 0.22, ink)
                self._text(words[1], hx, hy - s * 0.13, s * 0.2, ink)
            if self.selected == ("harbour", slot):
                Color(*HIGHLIGHT)
                Line(circle=(hx, hy, r * 1.15), width=max(2.0, s * 0.06))

    def _token(self, geo: BoardGeometry, h: int, token: int, pips: int, red: bool) -> None:
        s = geo.size
        x, y = geo.hex_centre(h)
        r = s * 0.34
        Color(*TOKEN)
        Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r))
        Color(*OUTLINE)
        Line(circle=(x, y, r), width=max(1.0, s * 0.02))
        ink = TOKEN_RED if red else TOKEN_TEXT
        self._text(str(token), x, y + s * 0.05, s * (0.34 if red else 0.3), ink)
        dot = max(2.0, s * 0.045)
        gap = dot * 2.5
        Color(*ink)
        for i in range(pips):
            px = x + (i - (pips - 1) / 2.0) * gap
            Ellipse(pos=(px - dot, y - s * 0.19 - dot), size=(2 * dot, 2 * dot))

    def _robber(self, geo: BoardGeometry, h: int) -> None:
        s = geo.size
        x, y = geo.hex_centre(h)
        x -= s * 0.5
        # A dark pawn with a white outline: visible on every terrain, next to the token.
        body = (x - s * 0.18, y - s * 0.38, s * 0.36, s * 0.56)
        head = (x - s * 0.13, y + s * 0.1, s * 0.26, s * 0.26)
        Color(*ROBBER)
        Ellipse(pos=body[:2], size=body[2:])
        Ellipse(pos=head[:2], size=head[2:])
        Color(0.95, 0.95, 0.95, 1)
        Line(ellipse=body, width=max(1.5, s * 0.035))
        Line(ellipse=head, width=max(1.5, s * 0.035))

    def _merchant(self, geo: BoardGeometry, h: int) -> None:
        s = geo.size
        x, y = geo.hex_centre(h)
        x += s * 0.5
        # A purple cone with a white outline (the robber is round and dark).
        cone = [(x - s * 0.2, y - s * 0.36), (x + s * 0.2, y - s * 0.36), (x, y + s * 0.22)]
        Color(*MERCHANT)
        _polygon(cone)
        Ellipse(pos=(x - s * 0.12, y + s * 0.12), size=(s * 0.24, s * 0.24))
        Color(0.95, 0.95, 0.95, 1)
        Line(points=_flat(cone), close=True, width=max(1.5, s * 0.035))
        Line(circle=(x, y + s * 0.24, s * 0.12), width=max(1.5, s * 0.035))

    def _road(self, geo: BoardGeometry, edge: int, colour: RGBA) -> None:
        (ax, ay), (bx, by) = geo.edge(edge)
        k = 0.17
        x1, y1 = ax + (bx - ax) * k, ay + (by - ay) * k
        x2, y2 = bx + (ax - bx) * k, by + (ay - by) * k
        Color(*OUTLINE)
        Line(points=[x1, y1, x2, y2], width=geo.size * 0.085, cap="round")
        Color(*colour)
        Line(points=[x1, y1, x2, y2], width=geo.size * 0.06, cap="round")

    def _building(self, geo: BoardGeometry, b: BuildingView, colour: RGBA, mark: str) -> None:
        s = geo.size
        x, y = geo.node(b.node)
        if b.wall:
            w = s * 0.4
            Color(0.35, 0.30, 0.25, 1)
            Rectangle(pos=(x - w, y - w * 0.8), size=(2 * w, 1.6 * w))
            Color(*OUTLINE)
            Line(rectangle=(x - w, y - w * 0.8, 2 * w, 1.6 * w), width=1.2)
        if b.kind == "city":
            w, h = s * 0.3, s * 0.22
            shape = [
                (x - w, y - h),
                (x + w, y - h),
                (x + w, y + h * 0.6),
                (x + w * 0.05, y + h * 0.6),
                (x + w * 0.05, y + h * 1.5),
                (x - w * 0.45, y + h * 2.2),
                (x - w, y + h * 1.5),
            ]
        else:
            w, h = s * 0.2, s * 0.18
            shape = [
                (x - w, y - h),
                (x + w, y - h),
                (x + w, y + h * 0.5),
                (x, y + h * 1.6),
                (x - w, y + h * 0.5),
            ]
        if b.metropolis:
            r = s * 0.42
            Color(*TRACK_COLOURS[Track(b.metropolis)])
            Line(circle=(x, y + s * 0.05, r), width=max(2.0, s * 0.06))
        Color(*colour)
        _polygon(shape)
        Color(*OUTLINE)
        Line(points=_flat(shape), close=True, width=max(1.2, s * 0.03))
        if b.kind == "destroyed_city":
            Line(points=[x - w, y - h, x + w, y + h * 0.5], width=max(1.2, s * 0.03))
        if b.metropolis:
            self._text("M", x, y - s * 0.02, s * 0.22, text_colour_on(colour))
        elif mark and b.kind != "destroyed_city":
            # In a city's tower; under a settlement's roof.
            mx, my = (x - s * 0.14, y + s * 0.22) if b.kind == "city" else (x, y + h * 0.5)
            size = s * (0.16 if b.kind == "city" else 0.17)
            self._text(mark, mx, my, size, text_colour_on(colour))

    def _knight(self, geo: BoardGeometry, k: KnightView, colour: RGBA) -> None:
        s = geo.size
        x, y = geo.node(k.node)
        r = s * 0.27
        if k.active:
            # An active knight is a filled shield in its owner's colour...
            shield = [
                (x - r, y + r * 0.8),
                (x + r, y + r * 0.8),
                (x + r, y - r * 0.1),
                (x, y - r * 1.1),
                (x - r, y - r * 0.1),
            ]
            fill = colour
            Color(*fill)
            _polygon(shield)
            Color(*OUTLINE)
            Line(points=_flat(shield), close=True, width=max(1.5, s * 0.035))
        else:
            # ...an inactive one a grey disc with its owner's ring.
            fill = (0.25, 0.25, 0.27, 1.0)
            Color(*fill)
            Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r))
            Color(*colour)
            Line(circle=(x, y, r), width=max(2.0, s * 0.06))
            Color(*OUTLINE)
            Line(circle=(x, y, r + s * 0.03), width=1.0)
        self._text(str(k.level), x, y, s * 0.32, text_colour_on(fill))

    def _highlight_hexes(self, geo: BoardGeometry) -> None:
        # Yellow on a dark band: it stands out on the yellow fields as on the dark forest.
        for kind, ident in self._offered():
            if kind == "hex" and ident < HEX_COUNT:
                corners = _flat(geo.hex_corners(ident))
                Color(*OUTLINE)
                Line(points=corners, close=True, width=geo.size * 0.11)
                Color(*HIGHLIGHT)
                Line(points=corners, close=True, width=geo.size * 0.06)
        if self.selected and self.selected[0] == "hex":
            Color(1, 1, 1, 1)
            Line(points=_flat(geo.hex_corners(self.selected[1])), close=True, width=geo.size * 0.1)

    def _highlight_edges(self, geo: BoardGeometry) -> None:
        for kind, ident in self._offered():
            if kind == "edge":
                x, y = geo.edge_mid(ident)
                r = geo.size * 0.18
                (ax, ay), (bx, by) = geo.edge(ident)
                Color(*OUTLINE)
                Line(points=[ax, ay, bx, by], width=geo.size * 0.07)
                Ellipse(pos=(x - r - 2, y - r - 2), size=(2 * r + 4, 2 * r + 4))
                Color(*HIGHLIGHT[:3], 0.95)
                Line(points=[ax, ay, bx, by], width=geo.size * 0.04)
                Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r))

    def _highlight_nodes(self, geo: BoardGeometry) -> None:
        for kind, ident in self._offered():
            if kind == "node":
                x, y = geo.node(ident)
                r = geo.size * 0.26
                Color(*HIGHLIGHT[:3], 0.9)
                Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r))
                Color(*OUTLINE)
                Line(circle=(x, y, r), width=1.2)

    def _offered(self) -> list[Spot]:
        return list(self.spots) if self.spots and self.highlight_spots else []

    def _text(
        self, text: str, x: float, y: float, size: float, colour: RGBA, *, bold: bool = True
    ) -> None:
        key = (text, round(size), bold, colour)
        texture = self._labels.get(key)
        if texture is None:
            label = CoreLabel(text=text, font_size=max(8, round(size)), bold=bold, color=colour)
            label.refresh()
            texture = label.texture
            self._labels[key] = texture
        w, h = texture.size
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, pos=(x - w / 2.0, y - h / 2.0), size=(w, h))


def _flat(points: list[tuple[float, float]]) -> list[float]:
    return [c for xy in points for c in xy]


def _polygon(points: list[tuple[float, float]]) -> None:
    """A filled convex-ish polygon as a triangle fan around its centroid."""
    cx = sum(p[0] for p in points) / len(points)
    cy = sum(p[1] for p in points) / len(points)
    vertices = [cx, cy, 0.0, 0.0]
    for x, y in [*points, points[0]]:
        vertices += [x, y, 0.0, 0.0]
    Mesh(vertices=vertices, indices=list(range(len(points) + 2)), mode="triangle_fan")
