"""The board drawn with Kivy graphics, and taps on it turned into spots.

The widget draws a :class:`~companion_app.presenters.board_picture.BoardPicture` and highlights the
spots it is given (the places of legal actions); a tap on an offered spot fires ``on_spot``.
It decides nothing: which spots are offered and what a tap does belong to the screen and, in the
end, to the rules core's ``legal_actions()``. Which touch takes which spot (a road by its two
ends where the board is small) is :class:`~companion_app.presenters.board_taps.BoardTaps`.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.stencilview import StencilView

from companion_app.app.screens import load_kv
from companion_app.app.widgets.board_shapes import (
    OUTLINE,
    TOKEN_LIGHT,
    capsule,
    disc,
    flat,
    pirate_token,
    polygon,
    ring,
    ship_badge,
    ship_bar,
)
from companion_app.presenters.board_picture import (
    FRAME_SEA,
    HIGHLIGHT,
    HIGHLIGHT_RIM,
    RESOURCE_COLOURS,
    RGBA,
    ROAD_LETTER_SHARE,
    SEA,
    TERRAIN_COLOURS,
    TRACK_COLOURS,
    UNKNOWN_TERRAIN,
    WALL_MARGIN,
    BoardGeometry,
    BoardPicture,
    BuildingView,
    Drawn,
    KnightView,
    Spot,
    drawn_things,
    road_marks,
    ship_marks,
    text_colour_on,
)
from companion_app.presenters.board_taps import (
    MIN_TARGET_DP,
    BoardTaps,
    BoardZoom,
    Target,
    needs_zoom,
)
from companion_app.rules.cards import Harbour, Terrain, Track
from companion_app.rules.topology import ISLAND_19

SEA_EDGE: RGBA = (0.09, 0.24, 0.42, 1.0)
TOKEN: RGBA = (0.97, 0.93, 0.82, 1.0)
TOKEN_TEXT: RGBA = (0.10, 0.10, 0.10, 1.0)
TOKEN_RED: RGBA = (0.80, 0.05, 0.05, 1.0)
ROBBER: RGBA = (0.10, 0.10, 0.12, 1.0)
MERCHANT: RGBA = (0.50, 0.18, 0.62, 1.0)
GOLD_GLEAM: RGBA = (1.0, 0.90, 0.48, 1.0)
TOKEN_RED_ON_DARK: RGBA = (1.0, 0.45, 0.40, 1.0)
WALL: RGBA = (0.35, 0.30, 0.25, 1.0)
INACTIVE_KNIGHT: RGBA = (0.25, 0.25, 0.27, 1.0)
PIER: RGBA = (0.45, 0.30, 0.15, 1.0)
GENERIC_HARBOUR: RGBA = (0.96, 0.96, 0.96, 1.0)
HARBOUR_COLOURS: dict[Harbour | None, RGBA] = {
    None: UNKNOWN_TERRAIN,
    **{h: GENERIC_HARBOUR if h.resource is None else RESOURCE_COLOURS[h.resource] for h in Harbour},
}
"""A harbour in its resource's colour; 3:1 harbours white; grey while a table's harbour is
still being entered."""


PINCH = "board pinch"
"""Marks a touch that was one of two fingers on the board: lifting it takes nothing."""


class BoardView(StencilView):
    """Draws ``picture``; highlights the keys of ``spots`` and reports taps on them. Where its
    hexes are smaller than a finger it zooms (``zoom``; a tap on the overview zooms into the
    region, a tap on nothing or a spot taken zooms out, two fingers pinch); drawing is clipped
    to the widget."""

    picture: Any = ObjectProperty(None, allownone=True)
    spots: Any = ObjectProperty({})
    """Offered spots (``Spot`` keys; values are for the screen, e.g. the action they take)."""
    selected: Any = ObjectProperty(None, allownone=True)
    """A spot drawn as chosen (the board entry's current hex or harbour)."""
    show_hex_ids = BooleanProperty(False)
    hex_words = StringProperty("hex {number}")
    """How a hex's id reads; ``board_view.kv`` says it in the table's language, so a switch of
    language redraws the board."""
    highlight_spots = BooleanProperty(True)
    """False where every position is tappable anyway (entering a board): no yellow marks."""
    zoom: Any = ObjectProperty(BoardZoom())
    """The zoom now (only where the board is too small for a finger: :attr:`zooms`)."""
    for_looking = BooleanProperty(False)
    """A picture of the board that takes no taps (Home's): it never zooms."""

    __events__ = ("on_spot",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._labels: dict[tuple[str, int, bool, RGBA], Any] = {}
        self.drawn: tuple[Drawn, ...] = ()
        """What the last redraw put on the board with its sizes (the tour's layout check reads
        it)."""
        self.road_marks: tuple[Drawn, ...] = ()
        """The badges with their owners' letters on the roads of the last redraw."""
        self.ship_marks: tuple[Drawn, ...] = ()
        """The same on the ships."""
        self.taps = BoardTaps(self.geometry, (), dp(MIN_TARGET_DP))
        """The touch targets of the spots offered now; a new set lets go of a held road end."""
        self._fingers: dict[Any, Any] = {}
        """Touches held on a board that zooms (two of them pinch), by their uid."""
        self._spread = 0.0
        """The distance between the two pinching fingers at their last move."""
        self._redraw_trigger = Clock.create_trigger(self._redraw, -1)
        self.bind(size=self._zoom_out, spots=self._zoom_out)
        self.bind(
            pos=self._new_targets,
            size=self._new_targets,
            spots=self._new_targets,
            picture=self._new_targets,
            zoom=self._new_targets,
        )
        self.bind(
            zoom=self._redraw_trigger,
            pos=self._redraw_trigger,
            size=self._redraw_trigger,
            picture=self._redraw_trigger,
            spots=self._redraw_trigger,
            selected=self._redraw_trigger,
            show_hex_ids=self._redraw_trigger,
            hex_words=self._redraw_trigger,
            highlight_spots=self._redraw_trigger,
        )
        self._redraw_trigger()

    @property
    def whole(self) -> BoardGeometry:
        """The whole board in the widget (the overview where it zooms)."""
        picture: BoardPicture | None = self.picture
        topology = ISLAND_19 if picture is None else picture.topology
        return BoardGeometry(self.x, self.y, self.width, self.height, topology=topology)

    @property
    def geometry(self) -> BoardGeometry:
        """The board as drawn now: zoomed, where it zooms."""
        whole = self.whole
        return self.zoom.geometry(whole) if self.zooms else whole

    @property
    def zooms(self) -> bool:
        """Its hex sides are shorter than a finger, and it takes taps: it zooms."""
        return not self.for_looking and needs_zoom(self.whole, dp(MIN_TARGET_DP))

    @property
    def overview(self) -> bool:
        """Zoomed out on a board that zooms: a tap zooms in, it takes no spot."""
        return self.zooms and self.zoom.factor <= 1.0

    def _zoom_out(self, *_args: object) -> None:
        self.zoom = BoardZoom()

    # ---- touch ------------------------------------------------------------------------------

    def _new_targets(self, *_args: object) -> None:
        self.taps = BoardTaps(self.geometry, self.spots or (), dp(MIN_TARGET_DP))

    def roads_by_ends(self, spots: Any) -> bool:
        """Whether roads among ``spots`` would be taken by their two ends on this board."""
        return BoardTaps(self.geometry, spots or (), dp(MIN_TARGET_DP)).by_ends

    def touch_targets(self) -> list[Target]:
        """The touch targets now, in the widget's coordinates (the tour's layout check): none
        on an overview (a tap there zooms), and only those in sight when zoomed."""
        if self.overview:
            return []
        return [t for t in self.taps.targets() if self.collide_point(t.x, t.y)]

    def taps_for(self, spot: Spot) -> list[tuple[float, float]]:
        """Where to touch, in order and in window coordinates, to take an offered spot: on an
        overview, first on the spot to zoom in around it."""
        if not self.overview:
            return [self.to_window(x, y) for x, y in self.taps.taps_for(spot)]
        least = dp(MIN_TARGET_DP)
        first = self.geometry.spot_position(spot)
        zoom = self.zoom.into(self.whole, *first, least)
        zoomed = BoardTaps(zoom.geometry(self.whole), self.spots or (), least)
        return [self.to_window(x, y) for x, y in [first, *zoomed.taps_for(spot)]]

    def on_touch_down(self, touch: Any) -> bool:
        if self.for_looking or not self.collide_point(*touch.pos):
            return bool(super().on_touch_down(touch))
        if self.zooms:
            # A board that zooms acts when the finger is lifted: a second finger on it first
            # makes the two a pinch, and a pinch takes nothing.
            touch.grab(self)
            self._fingers[touch.uid] = touch
            if len(self._fingers) == 2:
                for finger in self._fingers.values():
                    finger.ud[PINCH] = True
                a, b = self._fingers.values()
                self._spread = math.dist(a.pos, b.pos)
            return True
        return self._tap(touch)

    def _tap(self, touch: Any) -> bool:
        """A tap: on the overview it zooms in around it; zoomed, a tap on nothing zooms out;
        else it takes the offered spot under it (or holds a road's end)."""
        if self.overview:
            self.zoom = self.zoom.into(self.whole, touch.x, touch.y, dp(MIN_TARGET_DP))
            return True
        if self.zooms and (not self.spots or self.taps.target_at(touch.x, touch.y) is None):
            self._zoom_out()
            return True
        if not self.spots:
            return bool(super().on_touch_down(touch))
        held = self.taps.held
        spot = self.taps.tap(touch.x, touch.y)
        if self.taps.held != held:
            self._redraw_trigger()
        if spot is None:
            return self.taps.held != held
        self.dispatch("on_spot", spot)
        if self.zooms:
            self._zoom_out()
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is not self or len(self._fingers) != 2:
            return bool(super().on_touch_move(touch))
        a, b = self._fingers.values()
        spread = math.dist(a.pos, b.pos)
        if self._spread > 0 and spread > 0:
            middle = ((a.x + b.x) / 2.0, (a.y + b.y) / 2.0)
            ratio = spread / self._spread
            self.zoom = self.zoom.pinched(self.whole, middle, ratio, dp(MIN_TARGET_DP))
        self._spread = spread
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return bool(super().on_touch_up(touch))
        touch.ungrab(self)
        self._fingers.pop(touch.uid, None)
        if not touch.ud.get(PINCH) and self.collide_point(*touch.pos):
            self._tap(touch)
        return True

    def on_spot(self, spot: Spot) -> None:
        """Default handler; screens bind to it."""

    # ---- drawing ----------------------------------------------------------------------------

    def _redraw(self, *_args: object) -> None:
        """Draw the board in layers, bottom to top: land and numbers, what sits on hexes,
        roads and their spots, pieces, the letters of pieces a road spot crosses, node spots."""
        self.canvas.clear()
        picture: BoardPicture | None = self.picture
        self.drawn = ()
        if picture is None or self.width <= 0 or self.height <= 0:
            return  # no board, or none to see yet (Home's before its first layout)
        geo = self.geometry
        self.drawn = drawn_things(picture, geo, dp(1), self._offered())
        with self.canvas:
            self._sea(geo)
            # Off an island's coast a harbour lies on the sea round it; on a sea board on a sea
            # hex or the frame, drawn over them.
            if not picture.topology.has_sea:
                self._harbours(geo, picture)
            self._land(geo, picture)
            if picture.topology.has_sea:
                self._harbours(geo, picture)
            self._on_hexes(geo, picture)
            self._roads(geo, picture)
            self._pieces(picture)
            self._letters_over_road_spots(picture)
            occupied = {b.node for b in picture.buildings} | {k.node for k in picture.knights}
            for thing in self._drawn_of("node spot"):
                self._node_spot(thing, thing.spot[1] not in occupied)

    def _drawn_of(self, *kinds: str) -> list[Drawn]:
        return [thing for thing in self.drawn if thing.kind in kinds]

    def _land(self, geo: BoardGeometry, picture: BoardPicture) -> None:
        """The hexes, and the numbers of those the robber or the merchant does not stand on."""
        s = geo.size
        for hv in picture.hexes:
            corners = geo.hex_corners(hv.hex)
            Color(*TERRAIN_COLOURS[hv.terrain])
            polygon(corners)
            if hv.terrain is Terrain.GOLD:
                # A gleam inside the rim: gold tells itself from the fields without colour.
                x, y = geo.hex_centre(hv.hex)
                inner = [(x + (cx - x) * 0.8, y + (cy - y) * 0.8) for cx, cy in corners]
                Color(*GOLD_GLEAM)
                Line(points=flat(inner), close=True, width=max(1.5, s * 0.07))
            # The sea's hexes in the sea's own rim: the water reads as one.
            Color(*(SEA_EDGE if hv.terrain is Terrain.SEA else OUTLINE))
            Line(points=flat(corners), close=True, width=max(1.0, s * 0.03))
        covered = {picture.robber_hex, picture.merchant_hex}
        for hv in picture.hexes:
            if hv.token is not None and hv.hex not in covered:
                self._token(geo, hv.hex, hv.token, hv.pips, hv.red)
            if self.show_hex_ids:
                x, y = geo.hex_centre(hv.hex)
                self._text(
                    self.hex_words.format(number=hv.hex),
                    x,
                    y + s * 0.55,
                    s * 0.2,
                    (1, 1, 1, 1),
                    bold=False,
                )

    def _on_hexes(self, geo: BoardGeometry, picture: BoardPicture) -> None:
        """Offered hexes, then the robber and the merchant (showing the number they cover)."""
        for thing in self._drawn_of("hex spot"):
            self._hex_spot(geo, thing)
        tokens = {hv.hex: (hv.token, hv.red) for hv in picture.hexes}
        for thing in self._drawn_of("robber", "merchant"):
            self._hex_token(thing, tokens.get(thing.spot[1], (None, False)))
        for thing in self._drawn_of("pirate"):
            pirate_token(thing)
        self._selected_hex(geo)

    def _roads(self, geo: BoardGeometry, picture: BoardPicture) -> None:
        for edge, owner in picture.roads:
            self._road(geo, edge, picture.colours[owner])
        self._road_marks(geo, picture)
        self._ships(geo, picture)
        for thing in self._drawn_of("edge spot"):
            self._edge_spot(thing)

    def _pieces(self, picture: BoardPicture) -> None:
        buildings = {b.node: b for b in picture.buildings}
        knights = {k.node: k for k in picture.knights}
        for thing in self._drawn_of("knight", "settlement", "city", "destroyed_city"):
            node = thing.spot[1]
            if thing.kind == "knight":
                k = knights[node]
                self._knight(thing, k, picture.colours[k.owner], _mark(picture, k.owner))
            else:
                b = buildings[node]
                self._building(thing, b, picture.colours[b.owner], _mark(picture, b.owner))

    def _letters_over_road_spots(self, picture: BoardPicture) -> None:
        """A road spot's outline crosses the pieces at its ends: their letters go on top again."""
        ends: set[int] = set()
        edge_nodes = picture.topology.edge_nodes
        for thing in self._drawn_of("edge spot"):
            self._edge_spot_outline(thing)
            ends.update(edge_nodes[thing.spot[1]])
        buildings = {b.node: b for b in picture.buildings}
        knights = {k.node: k for k in picture.knights}
        for thing in self._drawn_of("knight", "settlement", "city"):
            node = thing.spot[1]
            if node not in ends:
                continue
            if thing.kind == "knight":
                k = knights[node]
                fill = picture.colours[k.owner] if k.active else INACTIVE_KNIGHT
                self._letter(thing, fill, _mark(picture, k.owner))
            else:
                b = buildings[node]
                self._letter(thing, picture.colours[b.owner], _mark(picture, b.owner))

    def _ships(self, geo: BoardGeometry, picture: BoardPicture) -> None:
        """Each ship (§13.3): a thinner bar than a road's along its edge, in its owner's colour
        rimmed with sea foam (a road's rim is dark), and a badge with the owner's letter under
        a white sail, placed as a road's badge is."""
        for edge, owner in picture.ships:
            ship_bar(geo.edge(edge), geo.size, picture.colours[owner])
        self.ship_marks = ship_marks(picture, geo, dp(1))
        owners = dict(picture.ships)
        for t in self.ship_marks:
            owner = owners[t.spot[1]]
            colour = picture.colours[owner]
            r = t.height / 2.0
            ship_badge(t, colour)
            size = t.height * ROAD_LETTER_SHARE * 0.85
            self._text(_mark(picture, owner), t.x, t.y - r * 0.2, size, text_colour_on(colour))

    def _sea(self, geo: BoardGeometry) -> None:
        topology = geo.topology
        if topology.has_sea:
            # A sea board's frame is its cells (§13.1): nothing round them.
            for cell in range(topology.hex_count, topology.cell_count):
                corners = geo.hex_corners(cell)
                Color(*FRAME_SEA)
                polygon(corners)
                Color(*SEA_EDGE)
                Line(points=flat(corners), close=True, width=max(1.0, geo.size * 0.03))
            return
        corners = geo.sea_corners()
        Color(*SEA)
        polygon(corners)
        Color(*SEA_EDGE)
        Line(points=flat(corners), close=True, width=max(1.0, geo.size * 0.06))

    def _harbours(self, geo: BoardGeometry, picture: BoardPicture) -> None:
        s = geo.size
        for slot, label, harbour in picture.harbours:
            hx, hy = geo.harbour(slot)
            (ax, ay), (bx, by) = geo.harbour_edge(slot)
            Color(*PIER)
            Line(points=[ax, ay, hx, hy, bx, by], width=max(1.5, s * 0.06))
            r = s * 0.42
            colour = HARBOUR_COLOURS[harbour]
            Color(*colour)
            disc(hx, hy, r)
            Color(*OUTLINE)
            ring(hx, hy, r, max(1.0, s * 0.025))
            words = label.split(" ")
            ink = text_colour_on(colour)
            if len(words) == 1:
                self._text(words[0], hx, hy, s * 0.28, ink)
            else:
                self._text(words[0], hx, hy + s * 0.13, s * 0.22, ink)
                self._text(words[1], hx, hy - s * 0.13, s * 0.2, ink)
            if self.selected == ("harbour", slot):
                Color(*HIGHLIGHT)
                ring(hx, hy, r * 1.15, max(2.0, s * 0.06))

    def _token(self, geo: BoardGeometry, h: int, token: int, pips: int, red: bool) -> None:
        """A number token as large as the middle of its hex left free by pieces on the corners
        (a side apart, up to a side across): the number read from across the table."""
        s = geo.size
        x, y = geo.hex_centre(h)
        r = s * 0.4
        Color(*TOKEN)
        disc(x, y, r)
        Color(*OUTLINE)
        ring(x, y, r, max(1.0, s * 0.02))
        ink = TOKEN_RED if red else TOKEN_TEXT
        self._text(str(token), x, y + s * 0.07, s * (0.42 if red else 0.38), ink)
        dot = max(2.0, s * 0.045)
        gap = dot * 2.5
        Color(*ink)
        for i in range(pips):
            px = x + (i - (pips - 1) / 2.0) * gap
            disc(px, y - s * 0.24, dot)

    def _hex_token(self, t: Drawn, number: tuple[int | None, bool]) -> None:
        """The robber (black, a pawn) or the merchant (purple, a cone): a round token over the
        hex's number, which it shows under its figure."""
        x, y, d = t.x, t.y, t.width
        r = d / 2.0
        token, red = number
        Color(*(ROBBER if t.kind == "robber" else MERCHANT))
        disc(x, y, r)
        Color(*TOKEN_LIGHT)
        ring(x, y, r * 0.95, max(1.5, r * 0.06))
        # The figure alone in the middle, or above the number.
        k = 0.8 if token is not None else 1.0
        fy = y + (r * 0.36 if token is not None else r * 0.1)
        if t.kind == "robber":
            body = [
                (x - r * 0.34 * k, fy - r * 0.42 * k),
                (x + r * 0.34 * k, fy - r * 0.42 * k),
                (x + r * 0.14 * k, fy + r * 0.12 * k),
                (x - r * 0.14 * k, fy + r * 0.12 * k),
            ]
            polygon(body)
            head = r * 0.2 * k
            disc(x, fy + r * 0.08 * k + head, head)
        else:
            polygon(
                [
                    (x - r * 0.34 * k, fy - r * 0.42 * k),
                    (x + r * 0.34 * k, fy - r * 0.42 * k),
                    (x, fy + r * 0.3 * k),
                ]
            )
            head = r * 0.15 * k
            disc(x, fy + r * 0.22 * k + head, head)
        if token is not None:
            ink = TOKEN_RED_ON_DARK if red else TOKEN_LIGHT
            self._text(str(token), x, y - r * 0.42, r * 0.62, ink)

    def _road(self, geo: BoardGeometry, edge: int, colour: RGBA) -> None:
        """A bar in its owner's colour, thick enough that a chain of roads reads as roads
        between their badges and the pieces at their ends (a thin line read as beads)."""
        (ax, ay), (bx, by) = geo.edge(edge)
        k = 0.12
        x1, y1 = ax + (bx - ax) * k, ay + (by - ay) * k
        x2, y2 = bx + (ax - bx) * k, by + (ay - by) * k
        Color(*OUTLINE)
        Line(points=[x1, y1, x2, y2], width=geo.size * 0.14, cap="round")
        Color(*colour)
        Line(points=[x1, y1, x2, y2], width=geo.size * 0.105, cap="round")

    def _road_marks(self, geo: BoardGeometry, picture: BoardPicture) -> None:
        """Each road's owner by letter too, on a badge in the owner's colour (over every road's
        line, under the markers of legal roads and the pieces): a shape of its own per player
        would need six shapes told apart at 24 dp, a letter is the one the pieces carry."""
        self.road_marks = road_marks(picture, geo, dp(1))
        owners = dict(picture.roads)
        for t in self.road_marks:
            owner = owners[t.spot[1]]
            colour = picture.colours[owner]
            r, rim = t.height / 2.0, max(1.0, t.height * 0.06)
            Color(*colour)
            if t.width > t.height:  # two letters: a bar with round ends
                outline = capsule(t, steps=8)
                polygon(outline)
                Color(*OUTLINE)
                Line(points=flat(outline), close=True, width=rim)
            else:
                disc(t.x, t.y, r)
                Color(*OUTLINE)
                ring(t.x, t.y, r, rim)
            size = t.height * ROAD_LETTER_SHARE
            self._text(_mark(picture, owner), t.x, t.y, size, text_colour_on(colour))

    def _building(self, t: Drawn, b: BuildingView, colour: RGBA, mark: str) -> None:
        """A settlement is a house, a city a house with a tower, a destroyed city a crossed-out
        house; each carries its owner's letter."""
        x, y = t.x, t.y
        w, h = t.width / 2.0, t.height / 2.0
        s = t.width
        if b.wall:
            m = s * WALL_MARGIN
            Color(*WALL)
            Rectangle(pos=(x - w - m, y - h - m), size=(2 * (w + m), 2 * (h + m) * 0.75))
            Color(*OUTLINE)
            Line(rectangle=(x - w - m, y - h - m, 2 * (w + m), 2 * (h + m) * 0.75), width=1.2)
        if b.kind == "city":
            shape = [
                (x - w, y - h),
                (x + w, y - h),
                (x + w, y + h * 0.15),
                (x + w * 0.05, y + h * 0.15),
                (x + w * 0.05, y + h * 0.6),
                (x - w * 0.47, y + h),
                (x - w, y + h * 0.6),
            ]
        else:
            shape = [
                (x - w, y - h),
                (x + w, y - h),
                (x + w, y + h * 0.1),
                (x, y + h),
                (x - w, y + h * 0.1),
            ]
        if b.metropolis:
            Color(*TRACK_COLOURS[Track(b.metropolis)])
            ring(x, y, w * 1.28, max(2.0, s * 0.09))
        Color(*colour)
        polygon(shape)
        Color(*OUTLINE)
        Line(points=flat(shape), close=True, width=max(1.2, s * 0.04))
        if b.kind == "destroyed_city":
            Line(points=[x - w, y - h, x + w, y + h * 0.6], width=max(1.5, s * 0.05))
        self._letter(t, colour, mark)
        if b.metropolis:
            # The track's initial on a badge in its colour: which metropolis, without colour too.
            track = TRACK_COLOURS[Track(b.metropolis)]
            br = s * 0.24
            bx, by = x + w * 0.95, y + h * 0.95
            Color(*track)
            disc(bx, by, br)
            Color(*OUTLINE)
            ring(bx, by, br, 1.2)
            self._text(b.metropolis[:1].upper(), bx, by, br * 1.3, text_colour_on(track))

    def _knight(self, t: Drawn, k: KnightView, colour: RGBA, mark: str) -> None:
        """An active knight is a shield in its owner's colour, an inactive one a dark disc with
        its owner's ring; the owner's letter on top and the level as 1 to 3 bars under it."""
        x, y = t.x, t.y
        r = t.width / 2.0
        if k.active:
            shield = [
                (x - r, y + r),
                (x + r, y + r),
                (x + r, y - r * 0.15),
                (x, y - r),
                (x - r, y - r * 0.15),
            ]
            fill = colour
            Color(*fill)
            polygon(shield)
            Color(*OUTLINE)
            Line(points=flat(shield), close=True, width=max(1.5, r * 0.08))
        else:
            fill = INACTIVE_KNIGHT
            Color(*fill)
            disc(x, y, r)
            Color(*colour)
            ring(x, y, r * 0.88, max(2.0, r * 0.13))
            Color(*OUTLINE)
            ring(x, y, r, 1.0)
        ink = text_colour_on(fill)
        self._letter(t, fill, mark)
        bar_w, bar_h, gap = r * 0.17, r * 0.5, r * 0.13
        left = x - (k.level * bar_w + (k.level - 1) * gap) / 2.0
        Color(*ink)
        for i in range(k.level):
            Rectangle(pos=(left + i * (bar_w + gap), y - r * 0.55), size=(bar_w, bar_h))

    def _letter(self, t: Drawn, fill: RGBA, mark: str) -> None:
        """The owner's letter on a piece: in a knight's upper half, in a city's body, under a
        settlement's roof."""
        if not mark:
            return
        one = len(mark) == 1
        if t.kind == "knight":
            at, size = (t.x, t.y + t.height * 0.2), t.width * (0.36 if one else 0.28)
        else:
            below = 0.21 if t.kind == "city" else 0.15
            at, size = (t.x, t.y - t.height * below), t.width * (0.42 if one else 0.34)
        self._text(mark, *at, size, text_colour_on(fill))

    def _hex_spot(self, geo: BoardGeometry, t: Drawn) -> None:
        corners = flat(geo.hex_corners(t.spot[1]))
        Color(*HIGHLIGHT_RIM)
        Line(points=corners, close=True, width=geo.size * 0.11)
        Color(*HIGHLIGHT)
        Line(points=corners, close=True, width=geo.size * 0.06)

    def _selected_hex(self, geo: BoardGeometry) -> None:
        if self.selected and self.selected[0] == "hex":
            Color(1, 1, 1, 1)
            Line(points=flat(geo.hex_corners(self.selected[1])), close=True, width=geo.size * 0.1)

    def _edge_spot(self, t: Drawn) -> None:
        """A light bar with a dark rim along the road it offers, as long as the marker."""
        half = t.width / 2.0 - t.height / 2.0
        dx, dy = math.cos(math.radians(t.angle)) * half, math.sin(math.radians(t.angle)) * half
        points = [t.x - dx, t.y - dy, t.x + dx, t.y + dy]
        Color(*HIGHLIGHT_RIM)
        Line(points=points, width=t.height / 2.0, cap="round")
        Color(*HIGHLIGHT)
        Line(points=points, width=t.height / 2.0 - max(2.0, t.height * 0.16), cap="round")

    def _edge_spot_outline(self, t: Drawn) -> None:
        """The road marker's outline again over the pieces: its whole length shows while the
        piece it leaves from stays visible inside it."""
        outline = flat(capsule(t))
        Color(*HIGHLIGHT_RIM)
        Line(points=outline, close=True, width=max(1.5, t.height * 0.1))
        Color(*HIGHLIGHT)
        Line(points=outline, close=True, width=max(1.0, t.height * 0.05))

    def _node_spot(self, t: Drawn, empty: bool) -> None:
        """A light ring with a dark rim round the intersection (round the piece on it)."""
        r = t.width / 2.0
        band = max(3.0, r * 0.16)
        if empty:
            Color(*HIGHLIGHT[:3], 0.3)
            disc(t.x, t.y, r)
        Color(*HIGHLIGHT_RIM)
        ring(t.x, t.y, r - band, band)
        Color(*HIGHLIGHT)
        ring(t.x, t.y, r - band, band * 0.55)

    def _offered(self) -> list[Spot]:
        return self.taps.shown() if self.spots and self.highlight_spots else []

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


def _mark(picture: BoardPicture, owner: int) -> str:
    return picture.marks[owner] if owner < len(picture.marks) else ""


load_kv(__file__)
