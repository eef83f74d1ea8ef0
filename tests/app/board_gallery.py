"""Child process of ``test_board_pieces.py``: the board view alone, drawing every kind of piece.

Draws a hand-made picture (settlements, cities, a destroyed city, a wall, a metropolis, active
and inactive knights of each level, the robber and the merchant, roads of five players, red and
orange among them) with a legal intersection, road and hex marked (the hex is fields, where a
yellow marker vanished) in a 1280x800 window (or WxH), saves a screenshot and writes where each
piece is (window pixels, y up) and what the view reports it drew (sizes in pixels) to a JSON
file.

Usage: python board_gallery.py PNG JSON [WxH]
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from companion_app.app.main import configure_kivy

WINDOW = tuple(int(v) for v in (sys.argv[3] if len(sys.argv) > 3 else "1280x800").split("x"))
configure_kivy(*WINDOW)

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.metrics import dp  # noqa: E402

from companion_app.app.companion import save_screenshot  # noqa: E402
from companion_app.app.widgets.board_view import BoardView  # noqa: E402
from companion_app.presenters import board_picture as B  # noqa: E402
from companion_app.presenters.board_picture import piece_scale  # noqa: E402
from companion_app.rules.board import STARTER_BOARD  # noqa: E402

PLAYERS = ("red", "blue", "white", "orange", "brown")
COLOURS = tuple(B.PLAYER_COLOURS[name] for name in PLAYERS)
MARKS = tuple(B.player_mark(name) for name in PLAYERS)
BUILDINGS = (
    B.BuildingView(4, 0, "settlement", False, ""),
    B.BuildingView(12, 0, "city", True, ""),
    B.BuildingView(20, 1, "city", False, "trade"),
    B.BuildingView(44, 2, "destroyed_city", False, ""),
    B.BuildingView(37, 3, "settlement", False, ""),
)
KNIGHTS = tuple(
    B.KnightView(node, owner, level, active)
    for node, owner, level, active in (
        (30, 0, 1, True),
        (33, 0, 2, False),
        (36, 1, 3, True),
        (48, 1, 1, False),
        (40, 2, 2, True),
    )
)

ROADS = (
    (0, 0),
    (20, 1),
    (40, 2),
    (7, 0),  # down from the red settlement on 4 to 8
    (12, 0),  # from the red city on 12 to 8 too
    (53, 3),  # down from the orange settlement on 37
    (47, 3),  # and up to the left from it
    (62, 0),  # red and orange side by side, no piece at either end
    (65, 3),
    (69, 4),  # brown: two letters
    (63, 3),  # orange between white's destroyed city on 44 and blue's knight on 48
)
"""(edge, owner): roads leaving a piece, two roads meeting at a free intersection, roads alone,
a road between two pieces of other players."""

SPOTS = {("node", 2): None, ("edge", 16): None, ("hex", 7): None}
"""A legal intersection (empty, on the forest), road and hex (fields)."""

FRAMES_BEFORE_SHOT = 5


def main() -> int:
    png, out = Path(sys.argv[1]), Path(sys.argv[2])
    base = B.board_only_picture(STARTER_BOARD)
    picture = B.BoardPicture(
        hexes=base.hexes,
        harbours=base.harbours,
        roads=ROADS,
        buildings=BUILDINGS,
        knights=KNIGHTS,
        robber_hex=13,
        merchant_hex=14,
        colours=COLOURS,
        marks=MARKS,
    )

    class Gallery(App):
        def build(self) -> BoardView:
            return BoardView(picture=picture, spots=SPOTS)

        def on_start(self) -> None:
            # A few drawn frames, not a time: a loaded machine draws its first frame late.
            self.frames = 0
            Clock.schedule_interval(self.tick, 0)

        def tick(self, dt: float) -> bool:
            self.frames += 1
            if self.frames < FRAMES_BEFORE_SHOT:
                return True
            self.done(dt)
            return False

        def done(self, _dt: float) -> None:
            view: BoardView = self.root
            geo = view.geometry
            save_screenshot(png)
            data = {
                "size": geo.size,
                "nodes": {n: geo.node(n) for n in range(54)},
                "hexes": {h: geo.hex_centre(h) for h in range(19)},
                "edges": {e: geo.edge_mid(e) for e in range(72)},
                "drawn": [[t.kind, t.width, t.height] for t in view.drawn],
                "pieces": [
                    [t.x, t.y, t.width, t.height]
                    for t in view.drawn
                    if t.kind in ("settlement", "city", "destroyed_city", "knight")
                ],
                "road_marks": {t.spot[1]: [t.x, t.y, t.width, t.height] for t in view.road_marks},
                "road_letter": piece_scale(geo.size, dp(1)).road_letter,
                "dp": dp(1),
            }
            out.write_text(json.dumps(data))
            self.stop()

    Gallery().run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
