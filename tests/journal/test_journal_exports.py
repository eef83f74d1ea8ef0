"""The tablet's delete (``CompanionApp.delete_game``): the game's export is saved, and imports
back as the same game, before the game leaves the journal; an export that cannot be saved keeps
the game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from journal_helpers import random_actions

from companion_app.journal import ExportNotSavedError, GameNotFoundError, Journal, JournalError
from companion_app.journal.exports import delete_after_export, exports_folder, save_export
from companion_app.rules.actions import Action


class WatchedJournal(Journal):
    """A journal that checks, at the moment a game is deleted, that its export is there and
    imports back (into another journal) as the same game."""

    def __init__(self, path: Path, folder: Path) -> None:
        super().__init__(path)
        self.folder = folder
        self.checked: list[int] = []

    def delete_game(self, game_id: int) -> None:
        kept = self.open_game(game_id)
        export = self.folder / f"game-{game_id}.json"
        assert export.is_file(), "the game goes before its export is saved"
        with Journal(self.path.with_name(f"check-{game_id}.sqlite3")) as other:
            back = other.import_game(json.loads(export.read_text()))
            assert back.actions == kept.actions
            assert back.game.to_json() == kept.game.to_json()
        self.checked.append(game_id)
        super().delete_game(game_id)


def journal_with_games(journal: Journal, *games: tuple[int, int]) -> list[int]:
    """``(seed, actions)`` random games added to ``journal``; their ids."""
    ids = []
    for seed, count in games:
        config, actions = random_actions(seed, count)
        session = journal.new_game(config)
        for action in actions:
            session.apply(action)
        ids.append(session.game_id)
    return ids


def actions_of(journal: Journal, game_id: int) -> tuple[Action, ...]:
    return journal.open_game(game_id).actions


def test_the_export_is_saved_and_imports_back_before_the_game_goes(tmp_path: Path) -> None:
    folder = exports_folder(tmp_path / "journal.sqlite3")
    assert folder == tmp_path.resolve() / "exports"
    with WatchedJournal(tmp_path / "journal.sqlite3", folder) as journal:
        gone, kept = journal_with_games(journal, (3, 400), (4, 50))
        before = actions_of(journal, kept)
        path = delete_after_export(journal, gone, folder)
        assert journal.checked == [gone]
        assert path == folder / f"game-{gone}.json"
        assert [g.id for g in journal.games()] == [kept]
        assert actions_of(journal, kept) == before
        with pytest.raises(GameNotFoundError):
            journal.open_game(gone)
        # The accidental delete undone: the export imports back as the game that went.
        back = journal.import_game(json.loads(path.read_text()))
        assert len(back.actions) == 400


def test_an_export_that_cannot_be_written_keeps_the_game(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite3") as journal:
        (game,) = journal_with_games(journal, (5, 120))
        before = actions_of(journal, game)
        blocked = tmp_path / "exports"
        blocked.write_text("a file where the folder should be\n")
        with pytest.raises(ExportNotSavedError):
            delete_after_export(journal, game, blocked)
        taken = tmp_path / "folder"
        (taken / f"game-{game}.json").mkdir(parents=True)  # the file's name is a folder's
        with pytest.raises(ExportNotSavedError):
            delete_after_export(journal, game, taken)
        assert [g.id for g in journal.games()] == [game]
        assert actions_of(journal, game) == before


def test_a_game_that_cannot_be_read_is_not_deleted(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite3") as journal:
        (game,) = journal_with_games(journal, (6, 30))
        with pytest.raises(ExportNotSavedError, match="no game"):
            delete_after_export(journal, game + 1, tmp_path / "exports")
        assert not (tmp_path / "exports" / f"game-{game + 1}.json").exists()
        assert [g.id for g in journal.games()] == [game]


def test_a_failed_delete_leaves_the_export_saved(tmp_path: Path) -> None:
    class FailingDelete(Journal):
        def delete_game(self, game_id: int) -> None:
            raise JournalError(f"game {game_id} is locked")

    with FailingDelete(tmp_path / "journal.sqlite3") as journal:
        (game,) = journal_with_games(journal, (7, 60))
        with pytest.raises(JournalError, match="locked") as failed:
            delete_after_export(journal, game, tmp_path / "exports")
        assert not isinstance(failed.value, ExportNotSavedError)  # the app says "Delete failed"
        saved = json.loads((tmp_path / "exports" / f"game-{game}.json").read_text())
        assert len(saved["actions"]) == 60
        assert [g.id for g in journal.games()] == [game]


def test_the_export_button_writes_the_same_file(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite3") as journal:
        (game,) = journal_with_games(journal, (8, 80))
        path = save_export(journal, game, tmp_path / "exports")
        assert json.loads(path.read_text()) == journal.export_game(game)
        assert [g.id for g in journal.games()] == [game]
