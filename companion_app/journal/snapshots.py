"""Snapshots of a game's state beside its actions, so that a resume replays only the last few.

A snapshot is a cache, never the record: the actions are. Each one is sealed with a digest
chained over the game's config and every action row before it (their stored text), so it is
used only for the exact prefix of actions it claims; a flipped byte, a cut-short state, a
snapshot of another game or of actions since undone and replaced fails the seal (or the state's
own checks when loaded) and the resume replays every action instead. Checking the seal costs
one SHA-256 per action row, no replay.

The table is created beside the others when a journal is opened (no schema version: a journal
without it is read as before, and releases that do not know it ignore it); deleting a game
deletes its snapshots with it.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from companion_app.rules.actions import Action
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game, replay_onto
from companion_app.untrusted_json import JsonLimits, loads

SNAPSHOT_EVERY = 64
"""Actions between snapshots: a resume replays at most this many less one."""
KEEP = 2
"""Snapshots kept per game (the older one serves after an undo below the newer)."""
STATE_LIMITS = JsonLimits(max_bytes=1024 * 1024, max_depth=16, max_digits=40, max_items=10_000)
"""A game's state is a few kilobytes, four levels deep; a snapshot beyond these is not ours."""

SCHEMA_SNAPSHOT = """
CREATE TABLE IF NOT EXISTS snapshot (
    game_id     INTEGER NOT NULL REFERENCES game (id) ON DELETE CASCADE,
    upto        INTEGER NOT NULL CHECK (upto > 0),
    state       TEXT    NOT NULL,
    seal        TEXT    NOT NULL,
    PRIMARY KEY (game_id, upto)
) WITHOUT ROWID
"""
_CHAIN_START = b"catan-companion journal chain 1\x00"


def ensure_table(conn: sqlite3.Connection) -> None:
    """Create the snapshot table if this journal has none yet (one small transaction)."""
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'snapshot'"
    ).fetchone()
    if exists is None:
        conn.execute(SCHEMA_SNAPSHOT)


def chain_start(config_text: str | bytes) -> bytes:
    """The chain's link before any action: the game's stored config."""
    return _link(_CHAIN_START, config_text)


def chain_next(link: bytes, action_text: str | bytes) -> bytes:
    """The chain's link after one more action row (its stored text)."""
    return _link(link, action_text)


def _link(previous: bytes, text: str | bytes) -> bytes:
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return hashlib.sha256(previous + len(data).to_bytes(8, "big") + data).digest()


def seal(link: bytes, state_text: str) -> str:
    """The seal of a snapshot taken where the chain's link is ``link``."""
    return _link(link, state_text).hex()


@dataclass(frozen=True, slots=True)
class Resumed:
    """A game restored from the journal, and how."""

    game: Game
    from_snapshot: int
    """Actions restored from a snapshot without replay (0: every action was replayed)."""
    refusal: str | None
    """Why the newest snapshot for these actions was refused (None: it was used, or none)."""


def newest(conn: sqlite3.Connection, game_id: int) -> list[tuple[object, object, object]]:
    """The game's newest snapshot rows (upto, state, seal), read as stored."""
    rows: list[tuple[object, object, object]] = conn.execute(
        "SELECT upto, state, seal FROM snapshot WHERE game_id = ? ORDER BY upto DESC LIMIT ?",
        (game_id, KEEP),
    ).fetchall()
    return rows


def restore(
    config: GameConfig,
    applied: Sequence[Action],
    chain: Sequence[bytes],
    rows: Sequence[tuple[object, object, object]],
) -> Resumed:
    """The game after ``applied`` (its actions in effect; ``chain[i]`` the link after ``i`` of
    them): from the newest snapshot in ``rows`` that holds, else by replaying them all.

    :raises ReplayError: the actions do not replay (from the start).
    """
    refusals: list[str] = []
    for upto, state_text, stored_seal in rows:
        if isinstance(upto, int) and upto > len(applied):
            continue  # taken after actions that are undone now: kept for their redo
        if not isinstance(upto, int) or upto <= 0:
            refusals.append("a snapshot's action count is not a count")
            continue
        refusal = _check(chain[upto], state_text, stored_seal)
        if refusal is None and isinstance(state_text, str):
            try:
                data = loads(state_text, STATE_LIMITS)
                if not isinstance(data, dict):
                    raise ValueError("its state is not a JSON object")
                game = Game.resumed(config, applied[:upto], data)
                game = replay_onto(game, applied[upto:])
                return Resumed(game, upto, refusals[0] if refusals else None)
            except Exception as exc:  # a cache that fails in any way is not used: replay
                refusal = f"it does not load, or the actions after it do not replay ({exc})"
        refusals.append(f"the snapshot after action {upto}: {refusal}")
    return Resumed(replay_onto(Game.new(config), applied), 0, refusals[0] if refusals else None)


def _check(link: bytes, state_text: object, stored_seal: object) -> str | None:
    """Why a snapshot's stored state and seal do not hold where the chain is ``link``."""
    if not isinstance(state_text, str) or not isinstance(stored_seal, str):
        return "it is not text"
    if len(state_text) > STATE_LIMITS.max_bytes:
        return f"its state is longer than {STATE_LIMITS.max_bytes} characters"
    if seal(link, state_text) != stored_seal:
        return "its seal does not match the actions before it"
    return None


def write(conn: sqlite3.Connection, game_id: int, game: Game, link: bytes, text: str) -> None:
    """Keep a snapshot of ``game`` (``link``: the chain after its actions; ``text``: its state
    as compact JSON), dropping all but the newest :data:`KEEP`."""
    upto = len(game.history)
    conn.execute(
        "INSERT OR REPLACE INTO snapshot (game_id, upto, state, seal) VALUES (?, ?, ?, ?)",
        (game_id, upto, text, seal(link, text)),
    )
    conn.execute(
        "DELETE FROM snapshot WHERE game_id = ? AND upto NOT IN "
        "(SELECT upto FROM snapshot WHERE game_id = ? ORDER BY upto DESC LIMIT ?)",
        (game_id, game_id, KEEP),
    )


def discard_after(conn: sqlite3.Connection, game_id: int, count: int) -> None:
    """Drop the snapshots beyond the first ``count`` actions (rows replaced there)."""
    conn.execute("DELETE FROM snapshot WHERE game_id = ? AND upto > ?", (game_id, count))
