"""The game journal: every applied action in SQLite before anyone sees it.

Resume, undo/redo and export/import are journal operations; the rules core stays pure (it
never imports this package). See ``docs/journal.md``.

Typical use in the app::

    journal = Journal(default_db_path())
    session = journal.new_game(config)          # or journal.open_game(summary.id)
    session.apply(roll)                          # committed when it returns: ack, then show
    step = session.peek_undo()                   # step.is_roll: ask "undo the roll?" first
    session.undo(); session.redo()
"""

from __future__ import annotations

from companion_app.journal.errors import (
    CorruptJournalError,
    ExportNotSavedError,
    GameNotFoundError,
    InvalidExportError,
    JournalError,
    JournalNotFoundError,
    JournalVersionError,
    NotAJournalError,
    NothingToRedoError,
    NothingToUndoError,
    StaleSessionError,
)
from companion_app.journal.exchange import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    ValidatedExport,
    build_export,
    parse_export_text,
    state_digest,
    validate_export,
)
from companion_app.journal.paths import default_db_path
from companion_app.journal.schema import APPLICATION_ID, SCHEMA_VERSION
from companion_app.journal.store import GameSession, GameSummary, Journal, JournalStep

__all__ = [
    "APPLICATION_ID",
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "SCHEMA_VERSION",
    "CorruptJournalError",
    "ExportNotSavedError",
    "GameNotFoundError",
    "GameSession",
    "GameSummary",
    "InvalidExportError",
    "Journal",
    "JournalError",
    "JournalNotFoundError",
    "JournalStep",
    "JournalVersionError",
    "NotAJournalError",
    "NothingToRedoError",
    "NothingToUndoError",
    "StaleSessionError",
    "ValidatedExport",
    "build_export",
    "default_db_path",
    "parse_export_text",
    "state_digest",
    "validate_export",
]
