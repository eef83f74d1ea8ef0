"""A game as one JSON file: the export format, its validation, and replaying it.

Shape (version 1)::

    {
      "format": "catan-companion-game",
      "version": 1,
      "config": { ...GameConfig.to_json()... },
      "actions": [ { ...Action.to_json()... }, ... ],
      "created_at": "2025-01-31T19:02:11+00:00",      (optional)
      "updated_at": "2025-01-31T22:40:05+00:00",      (optional)
      "winner": 2,                                     (optional; null while unfinished)
      "state_sha256": "<hex digest of the final state>" (optional)
    }

Only the actions in effect are exported (not undone ones waiting for a redo). On import every
action is parsed and replayed; the first problem is reported as e.g.
``action 17 (build_road): edge 80 does not exist (edges are 0-71)``. When ``winner`` or
``state_sha256`` are given they must match the replay, so an export written by another version
of the rules that plays out differently is refused instead of silently changed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from companion_app.journal.errors import InvalidExportError
from companion_app.rules.actions import Action, action_from_json
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import ReplayError, RulesError
from companion_app.rules.game import NOBODY, Game, replay_onto
from companion_app.untrusted_json import JsonLimits, UntrustedJsonError, loads

EXPORT_FORMAT = "catan-companion-game"
EXPORT_VERSION = 1
_REQUIRED = ("format", "version", "config", "actions")
_OPTIONAL = ("created_at", "updated_at", "winner", "state_sha256")
EXPORT_LIMITS = JsonLimits(max_bytes=16 * 1024 * 1024, max_depth=16, max_items=200_000)
"""An export is a few hundred kilobytes and four levels deep; much more was not written by us."""


@dataclass(frozen=True, slots=True)
class ValidatedExport:
    """An export that replays: its config, its actions, the game they give and its metadata."""

    config: GameConfig
    actions: tuple[Action, ...]
    game: Game
    created_at: str | None = None
    updated_at: str | None = None


def state_digest(game: Game) -> str:
    """SHA-256 of the game state's canonical JSON: equal digests, equal states."""
    text = json.dumps(game.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def dumps_compact(data: object) -> str:
    """The JSON text the journal stores for configs and actions."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def build_export(
    config: GameConfig,
    actions: Sequence[Action],
    game: Game,
    *,
    created_at: str | None = None,
    updated_at: str | None = None,
) -> dict[str, Any]:
    """The export document of a game (``game`` is the state ``actions`` lead to)."""
    data: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "config": config.to_json(),
        "actions": [a.to_json() for a in actions],
    }
    if created_at is not None:
        data["created_at"] = created_at
    if updated_at is not None:
        data["updated_at"] = updated_at
    data["winner"] = game.winner if game.is_over else None
    data["state_sha256"] = state_digest(game)
    return data


def parse_export_text(text: str | bytes) -> ValidatedExport:
    """Parse and validate an export file's contents.

    :raises InvalidExportError: naming the first problem.
    """
    try:
        data = loads(text, EXPORT_LIMITS)
    except UntrustedJsonError as exc:
        reason = str(exc)
        raise InvalidExportError(
            f"the file is {reason}"
            if reason.startswith("not ")
            else f"the file is refused: {reason}"
        ) from None
    return validate_export(data)


def validate_export(data: object) -> ValidatedExport:
    """Check an export document and replay it; each check refuses with one line naming the
    first problem it finds, in the order a reader would look.

    :raises InvalidExportError: naming the first problem.
    """
    document = _check_document(data)
    _check_format(document)
    _check_version(document)
    _check_fields(document)
    config = _check_config(document)
    created_at = _timestamp(document, "created_at")
    updated_at = _timestamp(document, "updated_at")
    actions, game = _replay_actions(document, config)
    _check_winner(document, game)
    _check_digest(document, game)
    return ValidatedExport(config, actions, game, created_at, updated_at)


def _check_document(data: object) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise InvalidExportError(f"an export is a JSON object, got {type(data).__name__}")
    return data


def _check_format(data: Mapping[str, Any]) -> None:
    fmt = data.get("format")
    if fmt != EXPORT_FORMAT:
        raise InvalidExportError(
            f"not a game export of this app: format is {fmt!r}, expected {EXPORT_FORMAT!r}"
        )


def _check_version(data: Mapping[str, Any]) -> None:
    """An integer this app reads: 1 up to :data:`EXPORT_VERSION`."""
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise InvalidExportError(f"version must be an integer, got {version!r}")
    if version > EXPORT_VERSION:
        raise InvalidExportError(
            f"export version {version} is newer than this app reads ({EXPORT_VERSION})"
        )
    if version < 1:
        raise InvalidExportError(f"export version {version} does not exist")


def _check_fields(data: Mapping[str, Any]) -> None:
    """Every required field there, no field this format does not know."""
    missing = [key for key in _REQUIRED if key not in data]
    if missing:
        raise InvalidExportError(f"the export lacks {', '.join(missing)}")
    unknown = sorted(str(key) for key in data if key not in _REQUIRED + _OPTIONAL)
    if unknown:
        raise InvalidExportError(f"unknown field(s) in the export: {', '.join(unknown)}")


def _check_config(data: Mapping[str, Any]) -> GameConfig:
    config_data = data["config"]
    if not isinstance(config_data, Mapping):
        raise InvalidExportError(f"config must be a JSON object, got {config_data!r}")
    try:
        return GameConfig.from_json(config_data)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:  # RulesError included
        raise InvalidExportError(f"config: {_reason(exc)}") from exc


def _replay_actions(data: Mapping[str, Any], config: GameConfig) -> tuple[tuple[Action, ...], Game]:
    """Parse and replay the actions from a new game of ``config``; the first action that does
    not parse or is not legal where it stands is the one named."""
    raw_actions = data["actions"]
    if not isinstance(raw_actions, list):
        raise InvalidExportError(f"actions must be a JSON list, got {type(raw_actions).__name__}")
    actions: list[Action] = []

    def parsed() -> Iterator[Action]:
        """Each action parsed as the replay reaches it, so the first problem is the one named."""
        for index, raw in enumerate(raw_actions):
            try:
                action = action_from_json(raw)
            except (ValueError, TypeError, KeyError, AttributeError) as exc:  # RulesError included
                raise InvalidExportError(f"action {index}: {_reason(exc)}") from exc
            actions.append(action)
            yield action

    try:
        game = replay_onto(Game.new(config), parsed())
    except ReplayError as exc:
        raise InvalidExportError(str(exc)) from exc
    return tuple(actions), game


def _check_winner(data: Mapping[str, Any], game: Game) -> None:
    """A ``winner`` given is a seat number or null, and the one the actions give."""
    if "winner" not in data:
        return
    claimed = data["winner"]
    actual = game.winner if game.winner != NOBODY else None
    if claimed is not None and (not isinstance(claimed, int) or isinstance(claimed, bool)):
        raise InvalidExportError(f"winner must be a seat number or null, got {claimed!r}")
    if claimed != actual:
        gives = "no winner" if actual is None else f"winner {actual}"
        raise InvalidExportError(f"winner is {claimed!r} but the actions give {gives}")


def _check_digest(data: Mapping[str, Any], game: Game) -> None:
    """A ``state_sha256`` given is the digest of the state the actions replay to."""
    if "state_sha256" not in data:
        return
    claimed = data["state_sha256"]
    if not isinstance(claimed, str):
        raise InvalidExportError(f"state_sha256 must be a string, got {claimed!r}")
    if claimed.lower() != state_digest(game):
        raise InvalidExportError(
            "state_sha256 does not match: the actions replay to a different state than the "
            "exported one (was it written by a different version of the rules?)"
        )


def _reason(exc: Exception) -> str:
    """A rules error's own message; for anything else, what kind of problem it was."""
    if isinstance(exc, RulesError):
        return str(exc)
    if isinstance(exc, KeyError):
        return f"the field {exc} is missing"
    return f"malformed ({type(exc).__name__}: {exc})"


def _timestamp(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidExportError(f"{key} must be an ISO 8601 date and time, got {value!r}")
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise InvalidExportError(
            f"{key} must be an ISO 8601 date and time, got {value!r}"
        ) from None
    return value
