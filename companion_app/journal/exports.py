"""A game's export as a file in the ``exports`` folder beside its journal: the tablet's Export
button, and its delete, which saves the export first so an accidental delete can be imported
back (``python -m companion_app.journal import``)."""

from __future__ import annotations

import json
from pathlib import Path

from companion_app.journal.errors import ExportNotSavedError, JournalError
from companion_app.journal.store import Journal

EXPORTS_FOLDER = "exports"


def exports_folder(journal_path: Path) -> Path:
    return journal_path.resolve().parent / EXPORTS_FOLDER


def save_export(journal: Journal, game_id: int, folder: Path) -> Path:
    """Write the game's export to ``folder/game-<id>.json``; returns the file.

    :raises ExportNotSavedError: the game could not be read or the file not written.
    """
    try:
        data = journal.export_game(game_id)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"game-{game_id}.json"
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    except (JournalError, OSError) as exc:
        raise ExportNotSavedError(str(exc)) from exc
    return path


def delete_after_export(journal: Journal, game_id: int, folder: Path) -> Path:
    """Save the game's export, then delete the game; returns the export.

    :raises ExportNotSavedError: the export could not be saved; the game is kept.
    :raises JournalError: the delete failed (the export is saved).
    """
    path = save_export(journal, game_id, folder)
    journal.delete_game(game_id)
    return path
