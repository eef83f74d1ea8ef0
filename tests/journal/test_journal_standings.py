"""Standings, evenings and the luck figure: worked numbers from known games, CSV round-trips."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from journal_helpers import random_actions

from companion_app.game_stats import Luck, expected_cards_36
from companion_app.i18n import catalogue, moment
from companion_app.journal import Journal
from companion_app.journal.people import PersonNameError, add_person, clean_name
from companion_app.journal.results import SeatResult, seat_results, store_results
from companion_app.journal.schema import SCHEMA_PEOPLE
from companion_app.journal.standings import (
    GAME_COLUMNS,
    STANDINGS_COLUMNS,
    evening_of,
    evenings,
    finished_games,
    games_csv,
    read_csv,
    standings,
    standings_csv,
)
from companion_app.rules.actions import Roll, action_from_json
from companion_app.rules.config import GameConfig, PlayerConfig
from companion_app.rules.game import Game

FIXTURES = Path(__file__).parent / "fixtures"
JOURNAL_CLI = (sys.executable, "-m", "companion_app.journal")
ANNA, BEN, CLEO, DAN = (
    PlayerConfig("Anna", "red"),
    PlayerConfig("Ben", "blue"),
    PlayerConfig("Cleo", "white"),
    PlayerConfig("Dan", "orange"),
)


# ---- the luck figure -------------------------------------------------------------------------


def _release_game_1() -> Game:
    """The first game of the release fixture: its first 19 actions are the setup and 4 rolls."""
    first = json.loads((FIXTURES / "journal-v2.json").read_text().splitlines()[0])
    config = GameConfig(players=(ANNA, BEN, CLEO), seed=11, vp_target=6)
    return Game.replay(config, [action_from_json(a) for a in first["actions"][:19]])


def test_expected_cards_per_fair_roll_worked_example() -> None:
    game = _release_game_1()
    setup = game.at_history_start()
    for action in game.history[:12]:
        setup.apply(action)
    # Ways out of 36: 2:1 3:2 4:3 5:4 6:5 8:5 9:4 10:3 11:2 12:1; a city pays 2, a settlement 1.
    # Anna: city on 10 and 8 (3·2 + 5·2), settlement on 5 (4)             = 20
    # Ben: settlement on 12 and 9 (1 + 4), city on 3, 4 and 5 (2·2+3·2+4·2) = 23
    # Cleo: city on 6, 4 and the desert (5·2 + 3·2 + 0), settlement on 5 and 6 (4 + 5) = 25
    assert expected_cards_36(setup) == (20, 23, 25)


def test_luck_counts_what_the_dice_paid_against_fair_dice() -> None:
    game = _release_game_1()
    # Rolls 7, 9, 9, 9: a 7 pays nothing, each 9 pays Ben 1 grain (his settlement on fields 9).
    luck = Luck.from_game(game)
    assert luck.rolls == 4
    assert luck.produced == (0, 3, 0)
    assert luck.expected_36 == (80, 92, 100)  # 4 rolls × (20, 23, 25)
    assert luck.figure(0) == pytest.approx(-80 / 36)  # -2.22 cards
    assert luck.figure(1) == pytest.approx(3 - 92 / 36)  # +0.44
    assert luck.figure(2) == pytest.approx(-100 / 36)  # -2.78


def test_an_alchemists_chosen_dice_are_left_out_of_luck() -> None:
    config, actions = random_actions(seed=2, count=763, players=3)
    game = Game.new(config)
    chosen: list[int] = []
    for index, action in enumerate(actions):
        if isinstance(action, Roll) and game.alchemist_dice is not None:
            chosen.append(index)
        game.apply(action)
    rolls = sum(isinstance(a, Roll) for a in actions)
    assert (rolls, len(chosen)) == (245, 1)
    luck = Luck.from_game(game)
    assert luck.rolls == 244
    # The Alchemist's 8 paid the third seat a card; neither figure moves with it.
    index = chosen[0]
    before = Game.replay(config, actions[:index])
    through = Game.replay(config, actions[: index + 1])
    assert Luck.from_game(through).produced == Luck.from_game(before).produced
    assert Luck.from_game(through).expected_36 == Luck.from_game(before).expected_36


# ---- standings from known games --------------------------------------------------------------


def _finish(
    journal: Journal,
    players: tuple[PlayerConfig, ...],
    finished_at: str,
    lines: list[tuple[int, bool, bool, int, int, int, int]],
) -> int:
    """A game whose end is known: (vp, won, longest road, defender, metros, cards, exp×36)."""
    session = journal.new_game(GameConfig(players=players, seed=len(lines)))
    results = tuple(SeatResult(seat, *line) for seat, line in enumerate(lines))
    conn = journal.conn
    conn.execute("BEGIN IMMEDIATE")
    store_results(conn, session.game_id, results, finished_at)
    conn.execute("UPDATE game SET finished = 1 WHERE id = ?", (session.game_id,))
    conn.execute("COMMIT")
    return session.game_id


@pytest.fixture
def friday_journal(tmp_path: Path) -> Path:
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        # Friday 20 November: two games, the second ends after midnight.
        _finish(
            journal,
            (ANNA, BEN, CLEO),
            "2026-11-20T21:40:00.000+00:00",
            [
                (13, True, False, 1, 1, 30, 1080),
                (9, False, True, 0, 0, 20, 756),
                (7, False, False, 2, 0, 25, 900),
            ],
        )
        _finish(
            journal,
            (BEN, ANNA, CLEO),
            "2026-11-21T00:40:00.000+00:00",
            [
                (13, True, True, 0, 1, 40, 1296),
                (10, False, False, 1, 0, 33, 1260),
                (6, False, False, 0, 0, 18, 720),
            ],
        )
        # Friday 27 November: Dan joins.
        _finish(
            journal,
            (DAN, ANNA, BEN, CLEO),
            "2026-11-27T22:10:00.000+00:00",
            [
                (14, True, False, 3, 2, 50, 1620),
                (8, False, True, 0, 0, 29, 1008),
                (11, False, False, 1, 1, 31, 1152),
                (5, False, False, 0, 0, 12, 432),
            ],
        )
        journal.new_game(GameConfig(players=(ANNA, BEN, DAN)))  # unfinished: counts nowhere
    return path


def test_lifetime_standings_worked_numbers(friday_journal: Path) -> None:
    with Journal(friday_journal) as journal:
        rows = {r.name: r for r in standings(journal.conn)}
        order = [r.name for r in standings(journal.conn)]
    # Anna 3 games: 13 + 10 + 8 = 31 VP, 1 win, defender 1 + 1; cards 30 + 33 + 29 = 92 for
    # (1080 + 1260 + 1008) / 36 = 93 expected: luck -1.
    anna = rows["Anna"]
    assert (anna.games, anna.wins, anna.vp_total) == (3, 1, 31)
    assert anna.average_vp == pytest.approx(31 / 3)
    assert (anna.longest_roads, anna.defender_cards, anna.metropolises) == (1, 2, 1)
    assert anna.luck == pytest.approx(-1.0)
    # Ben: 9 + 13 + 11 = 33 VP, 1 win, 2 longest roads; 20 + 40 + 31 = 91 cards for
    # (756 + 1296 + 1152) / 36 = 89 expected: luck +2.
    ben = rows["Ben"]
    assert (ben.games, ben.wins, ben.vp_total, ben.longest_roads) == (3, 1, 33, 2)
    assert (ben.defender_cards, ben.metropolises) == (1, 2)
    assert ben.luck == pytest.approx(2.0)
    # Cleo: 7 + 6 + 5 = 18 VP, no win, 2 defender cards; 55 cards for 57 expected.
    cleo = rows["Cleo"]
    assert (cleo.games, cleo.wins, cleo.average_vp, cleo.defender_cards) == (3, 0, 6.0, 2)
    assert cleo.luck == pytest.approx(-2.0)
    dan = rows["Dan"]
    assert (dan.games, dan.wins, dan.average_vp, dan.metropolises) == (1, 1, 14.0, 2)
    assert dan.luck == pytest.approx(5.0)
    # Most wins first, then the best average VP.
    assert order == ["Dan", "Ben", "Anna", "Cleo"]


def test_an_evening_is_one_night_at_the_table(friday_journal: Path) -> None:
    with Journal(friday_journal) as journal:
        nights = evenings(finished_games(journal.conn, UTC))
    assert [(e.day, len(e.games), e.winners) for e in nights] == [
        (date(2026, 11, 27), 1, ("Dan",)),
        (date(2026, 11, 20), 2, ("Anna", "Ben")),
    ]
    # The night ends at 06:00 local time, in the table's own time zone.
    assert evening_of("2026-11-21T05:59:00+00:00", UTC) == date(2026, 11, 20)
    assert evening_of("2026-11-21T06:00:00+00:00", UTC) == date(2026, 11, 21)
    assert evening_of("2026-11-21T04:30:00+00:00", timezone(timedelta(hours=2))) == date(
        2026, 11, 21
    )
    assert evening_of("2026-11-21T04:30:00", UTC) == date(2026, 11, 20)  # UTC


def test_a_finished_games_seats_are_its_stored_results(friday_journal: Path) -> None:
    """One record of a seat's result: the standings read back the very results stored (a seat
    line is a result with who sat there), and they store again unchanged."""
    with Journal(friday_journal) as journal:
        games = finished_games(journal.conn, UTC)
        first = games[0].seats
        assert all(isinstance(s, SeatResult) for s in first)
        assert [(s.vp, s.won, s.defender_cards, s.produced, s.expected_36) for s in first] == [
            (13, True, 1, 30, 1080),
            (9, False, 0, 20, 756),
            (7, False, 2, 25, 900),
        ]
        conn = journal.conn
        conn.execute("BEGIN IMMEDIATE")
        store_results(conn, games[0].game_id, first, games[0].finished_at)
        conn.execute("COMMIT")
        again = finished_games(conn, UTC)
    assert again == games


def test_csv_round_trips(friday_journal: Path) -> None:
    with Journal(friday_journal) as journal:
        rows = standings(journal.conn)
        games = finished_games(journal.conn, UTC)
    table = read_csv(standings_csv(rows))
    assert [list(line) for line in table] == [list(STANDINGS_COLUMNS)] * len(rows)
    for line, row in zip(table, rows, strict=True):
        assert line["person"] == row.name and line["colour"] == row.colour
        assert (int(line["games"]), int(line["wins"])) == (row.games, row.wins)
        assert float(line["average_vp"]) == pytest.approx(row.average_vp, abs=0.005)
        assert float(line["luck"]) == pytest.approx(row.luck, abs=0.005)
        assert int(line["cards_produced"]) == row.produced
    seats = read_csv(games_csv(games))
    assert len(seats) == 3 + 3 + 4
    assert list(seats[0]) == list(GAME_COLUMNS)
    assert [(s["game"], s["person"], s["won"]) for s in seats[:3]] == [
        ("1", "Anna", "1"),
        ("1", "Ben", "0"),
        ("1", "Cleo", "0"),
    ]
    assert seats[3]["evening"] == "2026-11-20"


def test_csv_keeps_a_name_with_commas_and_quotes(tmp_path: Path) -> None:
    odd = PlayerConfig('Jo, "the Bold"', "green")
    with Journal(tmp_path / "j.sqlite3") as journal:
        _finish(
            journal,
            (odd, BEN, CLEO),
            "2026-11-20T21:40:00+00:00",
            [
                (13, True, False, 0, 0, 1, 36),
                (3, False, False, 0, 0, 0, 0),
                (2, *[False] * 2, 0, 0, 0, 0),
            ],
        )
        rows = standings(journal.conn)
    assert [line["person"] for line in read_csv(standings_csv(rows))] == [
        'Jo, "the Bold"',
        "Ben",
        "Cleo",
    ]


# ---- a game played to its end through the journal --------------------------------------------


def test_the_winning_action_stores_the_result_and_an_undo_takes_it_back(tmp_path: Path) -> None:
    config, actions = random_actions(seed=5, count=20_000, players=3, vp_target=5)
    config = GameConfig(players=(ANNA, BEN, CLEO), seed=config.seed, vp_target=5)
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = journal.new_game(config)
        for action in actions:
            session.apply(action)
        assert session.game.is_over
        expected = seat_results(session.game)
        rows = standings(journal.conn)
        assert sorted((r.name, r.wins, r.vp_total, r.produced) for r in rows) == sorted(
            (config.names[r.seat], int(r.won), r.vp, r.produced) for r in expected
        )
        session.undo()
        assert standings(journal.conn) == []
        session.redo()
        assert sorted(r.produced for r in standings(journal.conn)) == sorted(
            r.produced for r in expected
        )


# ---- people ----------------------------------------------------------------------------------


def test_a_name_typed_once_is_the_same_person_next_time(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        journal.new_game(GameConfig(players=(ANNA, BEN, CLEO)))
        journal.new_game(
            GameConfig(players=(PlayerConfig("  anna ", "green"), BEN, PlayerConfig("Eve", "red")))
        )
        people = journal.people()
    assert sorted((p.name, p.colour) for p in people) == [
        ("Anna", "green"),  # the colour she played last
        ("Ben", "blue"),
        ("Cleo", "white"),
        ("Eve", "red"),
    ]


def test_an_old_game_imported_later_keeps_a_persons_latest_colour(tmp_path: Path) -> None:
    conn = sqlite3.connect(":memory:")
    conn.executescript(SCHEMA_PEOPLE.split("CREATE TABLE seat")[0])
    add_person(conn, "Anna", "green", "2026-11-27T20:00:00+00:00")
    older = add_person(conn, "anna", "red", "2025-01-03T20:00:00+00:00")
    assert (older.name, older.colour, older.last_played[:4]) == ("Anna", "green", "2026")
    newer = add_person(conn, "ANNA", "blue", "2026-12-04T20:00:00+00:00")
    assert (newer.id, newer.colour) == (older.id, "blue")


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("A" * 25, "a player's name is at most 24 characters (25 given)"),
        ("Ann\x00a", "a player's name cannot hold the control character U+0000"),
        ("Ann\na", "a player's name cannot hold the control character U+000A"),
        ("Ann\x1b[31ma", "a player's name cannot hold the control character U+001B"),
        ("\u202eanna", "a player's name cannot hold the control character U+202E"),
        ("   ", "a player's name cannot be empty"),
        ("=HYPERLINK(1)", "a player's name cannot start with ="),
    ],
)
def test_a_hostile_name_is_refused_in_one_line(name: str, reason: str) -> None:
    conn = sqlite3.connect(":memory:")
    with pytest.raises(PersonNameError) as refused:
        add_person(conn, name, "red", "2026-11-20T20:00:00+00:00")
    assert str(refused.value).startswith(reason)
    assert "\n" not in str(refused.value)


def test_names_are_kept_tidy_and_emoji_allowed() -> None:
    assert clean_name("  Jo   Ann ") == "Jo Ann"
    assert clean_name("Zoë 👩\u200d🚀") == "Zoë 👩\u200d🚀"


def test_a_game_with_a_name_that_cannot_be_a_person_is_kept_unlinked(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    bad = PlayerConfig("Bell\x07", "white")
    with Journal(path) as journal:
        session = journal.new_game(GameConfig(players=(ANNA, BEN, bad)))
        assert [p.name for p in journal.people()] in (["Anna", "Ben"], ["Ben", "Anna"])
        assert journal.summary(session.game_id).players == ("Anna", "Ben", "Bell\x07")


def test_a_seat_linked_to_nobody_shows_its_name_and_counts_for_nobody(tmp_path: Path) -> None:
    bad = PlayerConfig("Bell\x07", "white")
    with Journal(tmp_path / "j.sqlite3") as journal:
        _finish(
            journal,
            (ANNA, BEN, bad),
            "2026-11-20T21:40:00+00:00",
            [(3, False, False, 0, 0, 0, 0), (4, False, False, 0, 0, 0, 0), (13, True, *[0] * 5)],
        )
        (game,) = finished_games(journal.conn)
        rows = standings(journal.conn)
    assert [(s.name, s.person_id is None) for s in game.seats] == [
        ("Anna", False),
        ("Ben", False),
        ("Bell\x07", True),
    ]
    assert game.winner is not None and game.winner.name == "Bell\x07"
    assert sorted(r.name for r in rows) == ["Anna", "Ben"]


def test_standings_cli_prints_the_table_and_csv(friday_journal: Path) -> None:
    def run(*args: str) -> str:
        out = subprocess.run(
            [sys.executable, "-m", "companion_app.journal", "--db", str(friday_journal), *args],
            capture_output=True,
            timeout=120,
            check=True,
        )
        return out.stdout.decode()

    text = run("standings")
    lines = text.splitlines()
    assert lines[0] == "Standings after 3 games"
    assert lines[1].split() == [
        "games",
        "wins",
        "avg",
        "VP",
        "longest",
        "road",
        "defender",
        "metropolis",
        "luck",
    ]
    assert lines[2].split() == ["Dan", "1", "1", "14.0", "0", "3", "2", "+5.0"]
    assert lines[-1] == "Fri, Nov 27, 2026: 1 game, won by Dan"
    table = read_csv(run("standings", "--csv"))
    assert [row["person"] for row in table] == ["Dan", "Ben", "Anna", "Cleo"]
    seats = read_csv(run("standings", "--games", "--csv"))
    assert len(seats) == 10
    assert "Fri, Nov 20, 2026: 2 games, won by Anna and Ben" in run("standings", "--evenings")
    assert read_csv(run("standings", "--evenings", "--csv")) == [
        {"evening": "2026-11-27", "games": "1", "winners": "Dan"},
        {"evening": "2026-11-20", "games": "2", "winners": "Anna; Ben"},
    ]


def test_standings_cli_speaks_the_language_asked_for(friday_journal: Path) -> None:
    """Its own words, the numbers and the dates in German, as the Standings screen says them;
    no English word of its own left (``Catalogue.english_left``, the phone pages' check)."""

    def run(*args: str) -> str:
        out = subprocess.run(
            [*JOURNAL_CLI, "--lang", "de", "--db", str(friday_journal), *args],
            capture_output=True,
            timeout=120,
            check=True,
        )
        return out.stdout.decode()

    table = run("standings")
    lines = table.splitlines()
    assert lines[0] == "Rangliste nach 3 Spielen"
    assert lines[1].split()[:3] == ["Spiele", "Siege", "Ø"]
    assert lines[2].split() == ["Dan", "1", "1", "14,0", "0", "3", "2", "+5,0"]
    assert lines[-1] == "Fr., 27. Nov. 2026: 1 Spiel, gewonnen von Dan"
    nights = run("standings", "--evenings")
    assert nights.splitlines()[1] == "Fr., 20. Nov. 2026: 2 Spiele, gewonnen von Anna und Ben"
    games = run("standings", "--games")
    assert games.splitlines()[0] == "Spiel 1, Fr., 20. Nov. 2026: gewonnen von Anna"
    assert "Karten: 40, erwartet 36,0 (+4,0)" in games
    listed = run("list")
    assert listed.split()[:4] == ["Spiel", "Stand", "zuletzt", "gespielt"]
    with Journal(friday_journal) as journal:
        stamp = journal.summary(1).updated_at
    assert moment(datetime.fromisoformat(stamp), "de") in listed.splitlines()[-1]
    people = run("people")
    assert people.splitlines()[0].split()[:2] == ["Anna", "rot"]
    german = catalogue("de")
    names = ("Anna", "Ben", "Cleo", "Dan")
    for text in (table, nights, games, listed, people):
        assert german.english_left(text, names) == []
        for english in ("Evening", "won by", "games", "Standings", "expected", "cards", "played"):
            assert english not in text


def test_a_person_renamed_keeps_their_games(friday_journal: Path) -> None:
    with Journal(friday_journal) as journal:
        renamed = journal.rename_person("cleo", "Cleopatra")
        rows = {r.name: r for r in standings(journal.conn)}
        (game,) = [g for g in finished_games(journal.conn) if g.game_id == 1]
        with pytest.raises(PersonNameError, match=r"^Ben is somebody else already$"):
            journal.rename_person("Anna", " ben")
        with pytest.raises(PersonNameError, match=r"^nobody called Zed has played here$"):
            journal.rename_person("Zed", "Zedd")
        assert journal.summary(1).players == ("Anna", "Ben", "Cleo")  # the config as typed
    assert renamed.name == "Cleopatra"
    assert (rows["Cleopatra"].games, rows["Cleopatra"].vp_total) == (3, 18)
    assert [s.name for s in game.seats] == ["Anna", "Ben", "Cleopatra"]


@pytest.mark.parametrize(
    ("new", "reason"),
    [
        ("B" * 30, "error: a player's name is at most 24 characters (30 given)\n"),
        ("Be\x1bn", "error: a player's name cannot hold the control character U+001B\n"),
        (
            "@ben",
            "error: a player's name cannot start with @ (spreadsheets read it as a formula)\n",
        ),
    ],
)
def test_a_hostile_new_name_from_the_command_line_is_one_line(
    friday_journal: Path, new: str, reason: str
) -> None:
    out = subprocess.run(
        [*JOURNAL_CLI, "--db", str(friday_journal), "people", "--rename", "Ben", new],
        capture_output=True,
        timeout=120,
    )
    assert (out.returncode, out.stderr.decode(), out.stdout) == (1, reason, b"")
    with Journal(friday_journal) as journal:
        assert sorted(p.name for p in journal.people()) == ["Anna", "Ben", "Cleo", "Dan"]


def test_a_deleted_game_leaves_the_standings_with_its_seats(friday_journal: Path) -> None:
    with Journal(friday_journal) as journal:
        journal.delete_game(1)
        rows = {r.name: r for r in standings(journal.conn)}
        left = journal.conn.execute("SELECT count(*) FROM seat WHERE game_id = 1").fetchone()
    assert (rows["Anna"].games, rows["Anna"].vp_total) == (2, 18)
    assert left == (0,)
