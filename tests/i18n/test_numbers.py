"""Numbers in the reader's language: one function (:func:`companion_app.i18n.number`, Babel's
number formatting) for every number with decimals the tablet, the phones, the standings and the
journal's command line show."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from companion_app.game_stats import Luck
from companion_app.i18n import current, day, moment, number
from companion_app.journal import Journal
from companion_app.journal.results import SeatResult, store_results
from companion_app.presenters import info_presenter as I
from companion_app.presenters.standings_presenter import standings_view
from companion_app.rules.config import GameConfig, PlayerConfig
from companion_app.rules.randomplay import play_random_game


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    current.use("en")


@pytest.mark.parametrize(
    ("code", "p", "luck", "thousands"),
    [
        ("en", "0.000", "-29.2", "1,234.5"),
        ("cs", "0,000", "-29,2", "1\xa0234,5"),
        ("ca", "0,000", "-29,2", "1.234,5"),
        ("pl", "0,000", "-29,2", "1\xa0234,5"),
        ("de", "0,000", "-29,2", "1.234,5"),
        ("vi", "0,000", "-29,2", "1.234,5"),
    ],
)
def test_a_number_is_written_as_its_language_writes_it(
    code: str, p: str, luck: str, thousands: str
) -> None:
    assert number(0.0004, 3, code) == p
    assert number(-29.25, 1, code, signed=True) == luck
    assert number(1234.5, 1, code) == thousands
    assert number(2.5, 1, code, signed=True)[0] == "+"
    assert number(7.6, 0, code) == "8"


def test_the_tablets_language_is_the_default() -> None:
    current.use("de")
    assert (number(14.0, 1), number(5.0, 1, signed=True)) == ("14,0", "+5,0")
    assert day(date(2026, 11, 20)) == "Fr., 20. Nov. 2026"
    current.use("en")
    assert (number(14.0, 1), day(date(2026, 11, 20))) == ("14.0", "Fri, Nov 20, 2026")


def test_a_moment_is_local_time_in_the_languages_form(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Europe/Prague")
    time.tzset()
    try:
        finished = datetime(2026, 11, 20, 21, 40, tzinfo=UTC)
        assert moment(finished, "de") == "20.11.2026, 22:40:00"
        assert moment(finished, "en") == "Nov 20, 2026, 10:40:00\u202fPM"
        assert moment(datetime(2026, 11, 20, 21, 40), "pl") == "20 lis 2026, 22:40:00"
    finally:
        monkeypatch.undo()
        time.tzset()


def test_game_over_and_statistics_write_decimal_commas_in_polish() -> None:
    game = play_random_game(11, max_turns=400).game
    assert game.is_over
    luck = Luck.from_game(game)
    current.use("pl")
    view = I.game_over_view(game)
    for row in view.ranking:
        figure = luck.produced[row.seat] - luck.expected_36[row.seat] / 36
        assert row.luck == f"szczęście {figure:+.1f}".replace(".", ",")
    statistics = I.statistics_view(game)
    shown = f"{statistics.p_value:.2f}".replace(".", ",")
    assert f"p = {shown}" in statistics.fairness
    assert "." not in statistics.fairness.split("p = ")[1].split(" ")[0]


def test_the_standings_screen_writes_decimal_commas_in_german(tmp_path: Path) -> None:
    players = (
        PlayerConfig("Anna", "red"),
        PlayerConfig("Ben", "blue"),
        PlayerConfig("Cleo", "white"),
    )
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = journal.new_game(GameConfig(players=players))
        results = (
            SeatResult(0, 13, True, True, 0, 0, 40, 36 * 35),
            SeatResult(1, 8, False, False, 0, 0, 20, 36 * 29 + 18),
            SeatResult(2, 5, False, False, 0, 0, 10, 36 * 10),
        )
        journal.conn.execute("BEGIN IMMEDIATE")
        store_results(journal.conn, session.game_id, results, "2026-11-20T21:00:00+00:00")
        journal.conn.execute("COMMIT")
        current.use("de")
        view = standings_view(journal.conn)
    assert [line.cells[3::4] for line in view.lines] == [
        ("13,0", "+5,0"),
        ("8,0", "-9,5"),
        ("5,0", "+0,0"),
    ]
