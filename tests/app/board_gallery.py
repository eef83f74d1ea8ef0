"""Child process of ``test_board_pieces.py``: the board view alone, drawing every kind of piece.

Draws a hand-made picture (settlements, cities, a destroyed city, a wall, a metropolis, active
and inactive knights of each level, the robber and the merchant) with a legal intersection, road
and hex marked (the hex is fields, where a yellow marker vanished) in a 1280x800 window, saves a
screenshot and writes where each piece is (window pixels, y up) and what the view reports it
drew (sizes in pixels) to a JSON file.

Usage: python board_gallery.py PNG JSON
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from companion_app.app.main import configure_kivy

configure_kivy(1280, 800)

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402

from companion_app.app import presenter as P  # noqa: E402
from companion_app.app.companion import save_screenshot  # noqa: E402
from companion_app.app.widgets.board_view import BoardView  # noqa: E402
from companion_app.rules.board import STARTER_BOARD  # noqa: E402

COLOURS = (P.PLAYER_COLOURS["red"], P.PLAYER_COLOURS["blue"], P.PLAYER_COLOURS["white"])
BUILDINGS = (
    P.BuildingView(4, 0, "settlement", False, ""),
    P.BuildingView(12, 0, "city", True, ""),
    P.BuildingView(20, 1, "city", False, "trade"),
    P.BuildingView(44, 2, "destroyed_city", False, ""),
)
KNIGHTS = tuple(
    P.KnightView(node, owner, level, active)
    for node, owner, level, active in (
        (30, 0, 1, True),
        (33, 0, 2, False),
        (36, 1, 3, True),
        (48, 1, 1, False),
        (40, 2, 2, True),
    )
)


SPOTS = {("node", 2): None, ("edge", 16): None, ("hex", 7): None}
"""A legal intersection (empty, on the forest), road and hex (fields)."""

FRAMES_BEFORE_SHOT = 5


def main() -> int:
    png, out = Path(sys.argv[1]), Path(sys.argv[2])
    base = P.board_only_picture(STARTER_BOARD)
    picture = P.BoardPicture(
        hexes=base.hexes,
        harbours=base.harbours,
        roads=((0, 0), (20, 1), (40, 2)),
        buildings=BUILDINGS,
        knights=KNIGHTS,
        robber_hex=13,
        merchant_hex=14,
        colours=COLOURS,
        marks=("R", "B", "W"),
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
            }
            out.write_text(json.dumps(data))
            self.stop()

    Gallery().run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
