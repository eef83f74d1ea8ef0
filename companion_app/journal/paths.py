"""Where the journal lives by default: the user's data directory (XDG base directories)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

APP_DIR = "catan-companion"
DB_NAME = "journal.sqlite3"


def beside(path: Path) -> Path:
    """A free name next to ``path`` for a new journal (``journal-new.sqlite3``, then
    ``journal-new-2.sqlite3`` ...), so a damaged journal is kept where it is, untouched."""
    stem, suffix = path.stem, path.suffix or ".sqlite3"
    for n in range(1, 10_000):
        candidate = path.with_name(f"{stem}-new{'' if n == 1 else f'-{n}'}{suffix}")
        if not os.path.lexists(candidate):
            return candidate
    raise FileExistsError(f"no free name beside {path}")


def default_db_path(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME/catan-companion/journal.sqlite3``, or under ``~/.local/share`` when
    ``XDG_DATA_HOME`` is unset, empty or relative (as the XDG spec says)."""
    env = os.environ if env is None else env
    base = env.get("XDG_DATA_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / APP_DIR / DB_NAME
