"""Where the journal lives by default: the user's data directory (XDG base directories)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

APP_DIR = "catan-companion"
DB_NAME = "journal.sqlite3"


def default_db_path(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME/catan-companion/journal.sqlite3``, or under ``~/.local/share`` when
    ``XDG_DATA_HOME`` is unset, empty or relative (as the XDG spec says)."""
    env = os.environ if env is None else env
    base = env.get("XDG_DATA_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / APP_DIR / DB_NAME
