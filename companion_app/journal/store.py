"""The journal: games and their ordered actions in one SQLite database.

Write path (the order the app relies on)::

    session.apply(action)      # 1. the rules core checks it (IllegalActionError: nothing changes)
                               # 2. the row is committed (WAL, synchronous=FULL)
                               # 3. only then it returns: show it, acknowledge the roll

Each change (new game, action, undo, redo, import) is one SQLite transaction, so after a crash
a game is exactly as it was after its last completed change. Undone actions stay in the table,
flagged ``undone``, until a new action replaces them; redo takes them back in order.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from companion_app.journal import snapshots
from companion_app.journal.errors import (
    CorruptJournalError,
    GameNotFoundError,
    JournalError,
    NothingToRedoError,
    NothingToUndoError,
    StaleSessionError,
)
from companion_app.journal.exchange import (
    ValidatedExport,
    build_export,
    dumps_compact,
    validate_export,
)
from companion_app.journal.people import Person, link_seats, people, rename_person
from companion_app.journal.results import (
    clear_results,
    has_results,
    seat_results,
    store_results,
)
from companion_app.journal.schema import ROW_LIMITS, open_database
from companion_app.journal.upgrade import upgrade
from companion_app.rules.actions import Action, Roll, action_from_json
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import IllegalActionError, ReplayError
from companion_app.rules.game import Game
from companion_app.untrusted_json import loads

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def _stamp(clock: Clock) -> str:
    return clock().isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class JournalStep:
    """One action at its index in the game, as undo and redo report it."""

    index: int
    action: Action

    @property
    def is_roll(self) -> bool:
        """True for a dice roll: the UI asks "undo the roll?" before undoing one."""
        return isinstance(self.action, Roll)

    @property
    def roll(self) -> Roll | None:
        """The dice, when the step is a roll."""
        return self.action if isinstance(self.action, Roll) else None

    @property
    def type_name(self) -> str:
        return self.action.type_name


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game as the resume list and ``journal list`` show it."""

    id: int
    players: tuple[str, ...]
    seed: int
    created_at: str
    updated_at: str
    finished: bool
    winner: int | None
    """The winner's seat, None while the game is unfinished."""
    action_count: int
    """Actions in effect (undone ones not counted)."""
    redo_count: int
    """Undone actions that redo can take again."""

    @property
    def winner_name(self) -> str | None:
        return None if self.winner is None else self.players[self.winner]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "players": list(self.players),
            "seed": self.seed,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "finished": self.finished,
            "winner": self.winner,
            "action_count": self.action_count,
            "redo_count": self.redo_count,
        }


_SUMMARY_SQL = """
SELECT g.id, g.config, g.created_at, g.updated_at, g.finished, g.winner,
       (SELECT count(*) FROM action a WHERE a.game_id = g.id AND a.undone = 0),
       (SELECT count(*) FROM action a WHERE a.game_id = g.id AND a.undone = 1)
FROM game g
"""


class Journal:
    """A journal database holding many games. Use as a context manager or call :meth:`close`.

    One connection, for the thread that opened it (the app's main thread). ``make_parents``
    creates missing folders on the way (for the default location, :func:`default_db_path`).

    :raises JournalNotFoundError: no file at ``path`` and ``create`` is false.
    :raises NotAJournalError: the file is not one of our journals; it is left untouched.
    :raises JournalVersionError: a journal written by a newer version of the app.
    :raises CorruptJournalError: a damaged journal.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        create: bool = True,
        make_parents: bool = False,
        clock: Clock = utc_now,
    ) -> None:
        self.path = Path(path)
        self._clock = clock
        if create and make_parents and not self.path.exists():
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise JournalError(f"cannot create {self.path.parent}: {exc.strerror}") from exc
        self._conn: sqlite3.Connection | None
        self._conn, self.backup = open_database(self.path, create=create, upgrade=upgrade)
        """``backup``: the copy made beside an older journal upgraded by this open (the app may
        say where it is), else None."""
        try:
            with self._errors():
                snapshots.ensure_table(self._conn)
        except BaseException:
            self.close()
            raise

    # ---- lifetime -----------------------------------------------------------------------

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise JournalError(f"the journal {self.path} is closed")
        return self._conn

    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        """SQLite errors as journal errors naming the file."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            text = str(exc)
            if "malformed" in text or "not a database" in text:
                raise CorruptJournalError(f"the journal {self.path} is damaged: {text}") from exc
            raise JournalError(f"journal {self.path}: {text}") from exc

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed (and synced) when the block ends, else rolled back."""
        conn = self.conn
        with self._errors():
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    def _now(self) -> str:
        return _stamp(self._clock)

    # ---- games ----------------------------------------------------------------------------

    def games(self, *, unfinished_only: bool = False) -> list[GameSummary]:
        """All games (or only unfinished ones), most recently changed first."""
        where = " WHERE g.finished = 0" if unfinished_only else ""
        with self._errors():
            rows = self.conn.execute(
                _SUMMARY_SQL + where + " ORDER BY g.updated_at DESC, g.id DESC"
            ).fetchall()
        return [self._summary(row) for row in rows]

    def unfinished_games(self) -> list[GameSummary]:
        """The games the app offers to resume, most recently changed first."""
        return self.games(unfinished_only=True)

    def delete_game(self, game_id: int) -> None:
        """Remove a game and all its actions, in one transaction (the table asked for it).

        :raises GameNotFoundError: no such game (nothing is removed).
        """
        with self._transaction() as conn:
            for table in ("action", "snapshot", "seat", "result"):
                conn.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
            gone = conn.execute("DELETE FROM game WHERE id = ?", (game_id,)).rowcount
            if gone != 1:
                raise GameNotFoundError(f"no game {game_id} in the journal {self.path}")

    def summary(self, game_id: int) -> GameSummary:
        """:raises GameNotFoundError: no such game."""
        with self._errors():
            row = self.conn.execute(_SUMMARY_SQL + " WHERE g.id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFoundError(f"no game {game_id} in the journal {self.path}")
        return self._summary(row)

    def _summary(self, row: Sequence[Any]) -> GameSummary:
        game_id, config_text, created, updated, finished, winner, live, undone = row
        config = self._config(game_id, config_text)
        return GameSummary(
            id=game_id,
            players=config.names,
            seed=config.seed,
            created_at=created,
            updated_at=updated,
            finished=bool(finished),
            winner=winner,
            action_count=live,
            redo_count=undone,
        )

    def _config(self, game_id: int, text: str) -> GameConfig:
        try:
            data = loads(_row_text(text), ROW_LIMITS)
            if not isinstance(data, dict):
                raise ValueError(f"a JSON {type(data).__name__} where an object belongs")
            return GameConfig.from_json(data)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            message = f"game {game_id}: its stored config is unreadable: {exc}"
            raise CorruptJournalError(message) from exc

    def new_game(self, config: GameConfig) -> GameSession:
        """Start a game from ``config`` (committed before this returns)."""
        game = Game.new(config)
        now = self._now()
        config_text = dumps_compact(config.to_json())
        with self._transaction() as conn:
            cursor = conn.execute(
                "INSERT INTO game (config, created_at, updated_at) VALUES (?, ?, ?)",
                (config_text, now, now),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            link_seats(conn, game_id, config, now)
        chain = [snapshots.chain_start(config_text)]
        return GameSession(self, game_id, game, [], revision=0, chain=chain)

    def people(self) -> list[Person]:
        """Everyone who has played here, most recently played first."""
        with self._errors():
            return people(self.conn)

    def rename_person(self, old: str, new: str) -> Person:
        """:raises PersonNameError: see :func:`~companion_app.journal.people.rename_person`."""
        with self._transaction() as conn:
            return rename_person(conn, old, new)

    def open_game(self, game_id: int) -> GameSession:
        """Resume a game: its actions replayed to the exact state of its last change.

        :raises GameNotFoundError: no such game.
        :raises CorruptJournalError: its rows are inconsistent or do not replay.
        """
        with self._errors():
            conn = self.conn
            conn.execute("BEGIN")  # one consistent snapshot of the game row and its actions
            try:
                head = conn.execute(
                    "SELECT config, revision FROM game WHERE id = ?", (game_id,)
                ).fetchone()
                rows = conn.execute(
                    "SELECT idx, data, undone, origin FROM action WHERE game_id = ? ORDER BY idx",
                    (game_id,),
                ).fetchall()
                kept = snapshots.newest(conn, game_id)
            finally:
                conn.execute("COMMIT")
        if head is None:
            raise GameNotFoundError(f"no game {game_id} in the journal {self.path}")
        config_text, revision = head
        config = self._config(game_id, config_text)
        applied: list[Action] = []
        tail: list[Action] = []
        chain = [snapshots.chain_start(_row_text(config_text))]
        parsed: dict[object, Action] = {}  # actions are immutable: one object per stored text
        origins = {row[3] for row in rows if row[3] is not None}
        for position, (idx, data, undone, _origin) in enumerate(rows):
            if idx != position:
                raise CorruptJournalError(f"game {game_id}: action {position} is missing")
            action = parsed.get(data) if isinstance(data, str) else None
            if action is None:
                action = parsed[data] = self._parse_row(game_id, idx, data)
            chain.append(snapshots.chain_next(chain[-1], _row_text(data)))
            if undone:
                tail.append(action)
                continue
            if tail:
                raise CorruptJournalError(
                    f"game {game_id}: action {idx} is in effect after an undone action"
                )
            applied.append(action)
        try:
            resumed = snapshots.restore(config, applied, chain, kept)
        except ReplayError as exc:
            raise CorruptJournalError(f"game {game_id} does not replay: {exc}") from exc
        return GameSession(
            self,
            game_id,
            resumed.game,
            tail,
            revision=revision,
            origins=origins,
            chain=chain,
            resumed=resumed,
        )

    def _parse_row(self, game_id: int, idx: int, data: str) -> Action:
        try:
            return action_from_json(loads(_row_text(data), ROW_LIMITS))
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise CorruptJournalError(f"game {game_id}: action {idx} is unreadable: {exc}") from exc

    # ---- export / import --------------------------------------------------------------------

    def export_game(self, game_id: int) -> dict[str, Any]:
        """The game as an export document (see :mod:`companion_app.journal.exchange`)."""
        session = self.open_game(game_id)
        summary = self.summary(game_id)
        return build_export(
            session.game.config,
            session.actions,
            session.game,
            created_at=summary.created_at,
            updated_at=summary.updated_at,
        )

    def import_game(self, data: object) -> GameSession:
        """Validate an export document and store it as a new game.

        :raises InvalidExportError: naming the first problem; nothing is written then.
        """
        checked = validate_export(data)
        return self.add_validated(checked)

    def add_validated(self, checked: ValidatedExport) -> GameSession:
        """Store an already validated export as a new game (one transaction)."""
        game = checked.game
        now = self._now()
        created = checked.created_at or now
        winner = game.winner if game.is_over else None
        config_text = dumps_compact(checked.config.to_json())
        texts = [dumps_compact(a.to_json()) for a in checked.actions]
        chain = [snapshots.chain_start(config_text)]
        for text in texts:
            chain.append(snapshots.chain_next(chain[-1], text))
        with self._transaction() as conn:
            cursor = conn.execute(
                "INSERT INTO game (config, created_at, updated_at, finished, winner) "
                "VALUES (?, ?, ?, ?, ?)",
                (config_text, created, now, int(game.is_over), winner),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            conn.executemany(
                "INSERT INTO action (game_id, idx, data, undone, applied_at) "
                "VALUES (?, ?, ?, 0, ?)",
                ((game_id, i, text, now) for i, text in enumerate(texts)),
            )
            if texts:
                snapshots.write(conn, game_id, game, chain[-1], dumps_compact(game.to_json()))
            link_seats(conn, game_id, checked.config, created)
            if game.is_over:
                store_results(conn, game_id, seat_results(game), checked.updated_at or now)
        return GameSession(self, game_id, game, [], revision=0, chain=chain)

    # ---- the writes of a session --------------------------------------------------------------

    def _bump(self, conn: sqlite3.Connection, session: GameSession, now: str) -> None:
        game = session.game
        cursor = conn.execute(
            "UPDATE game SET revision = revision + 1, updated_at = ?, finished = ?, winner = ? "
            "WHERE id = ? AND revision = ?",
            (
                now,
                int(game.is_over),
                game.winner if game.is_over else None,
                session.game_id,
                session.revision,
            ),
        )
        if cursor.rowcount != 1:
            raise StaleSessionError(
                f"game {session.game_id} was changed elsewhere (another window or program) "
                "since it was opened here; open it again"
            )
        if not game.is_over:
            clear_results(conn, session.game_id)  # an undo took the win back
        elif not has_results(conn, session.game_id):
            store_results(conn, session.game_id, seat_results(game), now)

    def _write_apply(
        self, session: GameSession, index: int, text: str, link: bytes, origin: str | None
    ) -> None:
        now = self._now()
        game_id = session.game_id
        with self._transaction() as conn:
            self._bump(conn, session, now)
            if session.redo_actions:
                conn.execute("DELETE FROM action WHERE game_id = ? AND idx >= ?", (game_id, index))
                snapshots.discard_after(conn, game_id, index)
            conn.execute(
                "INSERT INTO action (game_id, idx, data, undone, applied_at, origin) "
                "VALUES (?, ?, ?, 0, ?, ?)",
                (game_id, index, text, now, origin),
            )
            if (index + 1) % snapshots.SNAPSHOT_EVERY == 0:
                game = session.game
                snapshots.write(conn, game_id, game, link, dumps_compact(game.to_json()))

    def _write_undone(self, session: GameSession, index: int, undone: bool) -> None:
        now = self._now()
        with self._transaction() as conn:
            self._bump(conn, session, now)
            cursor = conn.execute(
                "UPDATE action SET undone = ? WHERE game_id = ? AND idx = ? AND undone = ?",
                (int(undone), session.game_id, index, int(not undone)),
            )
            if cursor.rowcount != 1:
                raise CorruptJournalError(
                    f"game {session.game_id}: action {index} is not where the journal expects it"
                )


def _row_text(value: object) -> str | bytes:
    """A TEXT column as stored; SQLite's loose typing lets another writer put anything there."""
    if isinstance(value, str | bytes):
        return value
    raise ValueError(f"a {type(value).__name__} where JSON text belongs")


class GameSession:
    """One open game: its state, and the only way to change it (so that nothing is lost).

    Get one from :meth:`Journal.new_game`, :meth:`Journal.open_game` or
    :meth:`Journal.import_game`. :attr:`game` is for reading: apply, undo and redo through
    the session, never on the game itself.
    """

    def __init__(
        self,
        journal: Journal,
        game_id: int,
        game: Game,
        tail: list[Action],
        *,
        revision: int,
        chain: list[bytes],
        origins: set[str] | None = None,
        resumed: snapshots.Resumed | None = None,
    ) -> None:
        self._journal = journal
        self._chain = chain
        """The digest chain over the config and every stored action row (the undone ones
        too): ``chain[i]`` after ``i`` rows, what a snapshot there is sealed with."""
        self.resumed_from_snapshot = resumed.from_snapshot if resumed else 0
        """Actions this session's game took from a snapshot without replay (0: none)."""
        self.snapshot_refused = resumed.refusal if resumed else None
        """Why the newest snapshot was refused when the game was opened (None: used, or none)."""
        self._origins = origins or set()
        """Origins of the actions ever applied in this game (e.g. a dice box roll's id)."""
        self._game_id = game_id
        self._game = game
        self._tail = tail  # undone actions, the next one to redo first
        self._revision = revision
        self._length = len(game.history)
        self._broken = False

    # ---- reading ---------------------------------------------------------------------------

    @property
    def game_id(self) -> int:
        return self._game_id

    @property
    def game(self) -> Game:
        """The current state. Read it; change it only through this session."""
        return self._game

    @property
    def revision(self) -> int:
        """Counts the committed changes of this game (used to detect changes elsewhere)."""
        return self._revision

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions in effect, in order."""
        return tuple(self._game.history)

    @property
    def redo_actions(self) -> tuple[Action, ...]:
        """Undone actions that :meth:`redo` takes again, the next one first."""
        return tuple(self._tail)

    @property
    def can_undo(self) -> bool:
        return bool(self._game.history)

    @property
    def can_redo(self) -> bool:
        return bool(self._tail)

    def has_origin(self, origin: str) -> bool:
        """True if an action from ``origin`` was applied in this game, even in an earlier run
        of the app: a dice box resending a roll whose acknowledgement was lost in a crash."""
        return origin in self._origins

    def peek_undo(self) -> JournalStep | None:
        """What :meth:`undo` would take back (check ``is_roll`` to ask first), or None."""
        history = self._game.history
        return JournalStep(len(history) - 1, history[-1]) if history else None

    def peek_redo(self) -> JournalStep | None:
        """What :meth:`redo` would take again, or None."""
        return JournalStep(len(self._game.history), self._tail[0]) if self._tail else None

    # ---- changing -------------------------------------------------------------------------

    def apply(self, action: Action, *, origin: str | None = None) -> int:
        """Apply a legal action and commit it; returns its index. Undone actions are dropped.

        When this returns, the action is durably in the journal: show it, acknowledge it.
        ``origin`` names where the action came from (a dice box roll's device, boot and
        sequence number) and is committed with it, for :meth:`has_origin`.

        :raises IllegalActionError: naming the rule; neither the game nor the journal changed.
        :raises StaleSessionError: the game was changed elsewhere; nothing changed here.
        :raises JournalError: the database could not be written; the game is as before.
        """
        self._check_usable()
        game = self._game
        game.apply(action)
        index = len(game.history) - 1
        text = dumps_compact(action.to_json())
        link = snapshots.chain_next(self._chain[index], text)
        self._guarded(
            lambda: self._journal._write_apply(self, index, text, link, origin), game.undo
        )
        del self._chain[index + 1 :]
        self._chain.append(link)
        self._tail.clear()
        if origin is not None:
            self._origins.add(origin)
        return index

    def apply_json(self, data: object) -> Action:
        """Parse an action's JSON form and :meth:`apply` it; returns the action.

        :raises MalformedActionError: for data that describes no action (nothing changes).
        """
        action = action_from_json(data)
        self.apply(action)
        return action

    def undo(self) -> JournalStep:
        """Take back the last action (a roll too: see ``is_roll``) and commit that.

        The action is kept for :meth:`redo` until a new action is applied.

        :raises NothingToUndoError: at the start of the game.
        """
        self._check_usable()
        game = self._game
        if not game.history:
            raise NothingToUndoError()
        undone = game.undo()
        index = len(game.history)
        self._guarded(
            lambda: self._journal._write_undone(self, index, True), lambda: game.apply(undone)
        )
        self._tail.insert(0, undone)
        return JournalStep(index, undone)

    def redo(self) -> JournalStep:
        """Take the last undone action again and commit that.

        :raises NothingToRedoError: nothing was undone (or a new action was applied since).
        """
        self._check_usable()
        if not self._tail:
            raise NothingToRedoError(f"game {self._game_id}: nothing to redo")
        game = self._game
        action = self._tail[0]
        index = len(game.history)
        try:
            game.apply(action)
        except IllegalActionError as exc:  # the same prefix always allows it again
            raise CorruptJournalError(
                f"game {self._game_id}: undone action {index} ({action.type_name}) cannot be "
                f"redone: {exc}"
            ) from exc
        self._guarded(lambda: self._journal._write_undone(self, index, False), game.undo)
        self._tail.pop(0)
        return JournalStep(index, action)

    def _check_usable(self) -> None:
        if self._broken:
            raise JournalError(
                f"game {self._game_id}: an earlier change failed half-way; open the game again"
            )
        if self._journal._conn is None:
            raise JournalError(f"game {self._game_id}: the journal is closed")
        if len(self._game.history) != self._length:
            raise JournalError(
                f"game {self._game_id} was changed directly, not through its journal session; "
                "open it again"
            )

    def _guarded(self, write: Callable[[], None], restore: Callable[[], object]) -> None:
        """Commit the change already made in memory, or take it back there if that fails."""
        self._broken = True
        try:
            write()
        except BaseException:
            restore()
            self._broken = False
            raise
        self._revision += 1
        self._length = len(self._game.history)
        self._broken = False
