"""The Standings screen's lines from a journal with known games."""

from __future__ import annotations

from datetime import UTC
from pathlib import Path

from companion_app.i18n import current
from companion_app.journal import Journal
from companion_app.journal.results import SeatResult, store_results
from companion_app.presenters.standings_presenter import HEADER, standings_view
from companion_app.rules.config import GameConfig, PlayerConfig

ANNA, BEN, CLEO = (
    PlayerConfig("Anna", "red"),
    PlayerConfig("Ben", "blue"),
    PlayerConfig("Cleo", "white"),
)


def _finish(journal: Journal, players: tuple[PlayerConfig, ...], at: str, vps: list[int]) -> None:
    session = journal.new_game(GameConfig(players=players))
    best = max(vps)
    results = tuple(
        SeatResult(seat, vp, vp == best, seat == 1, 0, 0, 10 + seat, 36 * 10)
        for seat, vp in enumerate(vps)
    )
    conn = journal.conn
    conn.execute("BEGIN IMMEDIATE")
    store_results(conn, session.game_id, results, at)
    conn.execute("COMMIT")


def test_the_standings_screen_lines(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        empty = standings_view(journal.conn, UTC)
        _finish(journal, (ANNA, BEN, CLEO), "2026-11-20T21:00:00+00:00", [13, 9, 7])
        _finish(journal, (BEN, ANNA, CLEO), "2026-11-21T01:00:00+00:00", [13, 8, 6])
        _finish(journal, (CLEO, BEN, ANNA), "2026-11-27T21:00:00+00:00", [10, 13, 5])
        view = standings_view(journal.conn, UTC)
    assert (empty.title, empty.lines, empty.evenings) == ("Standings", (), ())
    assert view.title == "Standings after 3 games"
    assert len(HEADER) == len(view.lines[0].cells)
    # Ben: 9 + 13 + 13 = 35 VP in 3 games, 2 wins; longest road as seat 1 twice;
    # cards 11 + 10 + 11 = 32 for 30 expected.
    assert view.lines[0].cells == ("Ben", "3", "2", "11.7", "2", "0", "0", "+2.0")
    assert view.lines[0].colour == "blue"
    assert [line.cells[0] for line in view.lines] == ["Ben", "Anna", "Cleo"]
    assert view.evenings == (
        "Fri, Nov 27, 2026: 1 game, won by Ben",
        "Fri, Nov 20, 2026: 2 games, won by Anna and Ben",
    )


def test_an_evenings_date_is_written_as_the_tables_language_writes_it(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        _finish(journal, (ANNA, BEN, CLEO), "2026-11-20T21:00:00+00:00", [13, 9, 7])
        current.use("de")
        try:
            view = standings_view(journal.conn, UTC)
        finally:
            current.use("en")
    assert view.evenings[0].startswith("Fr., 20. Nov. 2026: ")
