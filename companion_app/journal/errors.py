"""The journal's exceptions. Every message names the file, game or action concerned.

Rule errors (:class:`~companion_app.rules.errors.IllegalActionError`) pass through unchanged:
an illegal action leaves the game and the database untouched; so does the rules' own
:class:`~companion_app.rules.errors.NothingToUndoError`, for an undo at a game's start.
"""

from __future__ import annotations

from companion_app.rules.errors import NothingToUndoError

__all__ = [
    "CorruptJournalError",
    "ExportNotSavedError",
    "GameNotFoundError",
    "InvalidExportError",
    "JournalError",
    "JournalNotFoundError",
    "JournalVersionError",
    "NotAJournalError",
    "NothingToRedoError",
    "NothingToUndoError",
    "StaleSessionError",
]


class JournalError(Exception):
    """Base class of the journal's errors."""


class JournalNotFoundError(JournalError):
    """No journal database at the given path (and creating one was not asked for)."""


class NotAJournalError(JournalError):
    """The file is not a journal of this app: not SQLite at all, empty, or another program's
    SQLite database. The file is left exactly as it was."""


class JournalVersionError(JournalError):
    """A journal whose schema version this app cannot read (usually: written by a newer app)."""


class CorruptJournalError(JournalError):
    """A journal of this app whose contents are damaged or inconsistent."""


class GameNotFoundError(JournalError, LookupError):
    """No game with that id in the journal."""


class StaleSessionError(JournalError):
    """The game was changed by another program (or session) since it was opened here."""


class NothingToRedoError(JournalError):
    """Redo with no undone action to take again (or after a new action discarded them)."""


class InvalidExportError(JournalError):
    """An export file that cannot be imported; the message names the first problem."""


class ExportNotSavedError(JournalError):
    """A game's export file could not be written (or the game read); nothing was deleted."""
