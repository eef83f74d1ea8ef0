"""The improvement chart of one player (§9): three tracks × five levels, each level with its
building, cost, the red-die results that draw a progress card, the level-3 ability and the
metropolis; who holds each metropolis, everyone's level on each track and who draws on its
castle by red number. Improvements are public, so any player's chart opens without a cover."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import NumericProperty

from companion_app.app.screens import load_kv
from companion_app.app.screens.info_screen import InfoScreen
from companion_app.i18n.current import _
from companion_app.presenters import info_presenter as I
from companion_app.presenters.board_picture import text_colour_on
from companion_app.rules.game import Game

load_kv(__file__)

UNREACHED_FILL = (0.17, 0.19, 0.23, 1)


class ImprovementsScreen(InfoScreen):
    seat = NumericProperty(-1)

    def on_pre_enter(self, *_args: object) -> None:
        game = self.game
        if game is not None and not 0 <= self.seat < game.player_count:
            self.seat = I.seat_order(game)[0]
        super().on_pre_enter()

    def pick(self, seat: int) -> None:
        self.seat = seat
        self.refresh()

    def show(self, game: Game) -> None:
        if not 0 <= self.seat < game.player_count:
            self.seat = I.seat_order(game)[0]
        self.fill_seats(game, self.seat, "chart_seat")
        rows = self.ids.tracks
        rows.clear_widgets()
        for track in I.improvement_chart(game, self.seat):
            row = Factory.TrackRow()
            row.track = track
            header = row.ids.header
            header.edge = track.colour
            level = _("level {level}").format(level=track.level)
            header.text = (
                f"[b]{track.title}[/b]\n{level}\n"
                f"[size=15sp]{track.metropolis}\n{track.everyone}\n{track.castle}[/size]"
            )
            for cell in track.cells:
                fill = track.colour if cell.reached else UNREACHED_FILL
                note = f"\n[size=15sp]{cell.note}[/size]" if cell.note else ""
                tile = Factory.ChartTile(
                    text=f"[b]{cell.level}. {cell.building}[/b]\n{cell.cost} · {cell.draws}{note}",
                    fill=fill,
                    edge=track.colour,
                    color=text_colour_on(fill) if cell.reached else (0.92, 0.92, 0.92, 1),
                )
                tile.cell = cell
                tile.words = f"{cell.building} {cell.cost} {cell.draws}"
                tile.bind(texture_size=lambda *_a, r=row: _fit_row(r))
                row.ids.cells.add_widget(tile)
            header.bind(texture_size=lambda *_a, r=row: _fit_row(r))
            rows.add_widget(row)


def _fit_row(row: Any) -> None:
    """A track's row is as tall as its tallest text (a narrow window wraps the tiles' words)."""
    texts = [row.ids.header, *row.ids.cells.children]
    row.needed = max(dp(74), *(t.texture_size[1] + dp(10) for t in texts))
