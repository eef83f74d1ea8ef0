"""The tablet's own settings, remembered between games in ``settings.json`` beside the journal:
the sound cues' mute and the table's language. Kivy-free; the file is the app's own, but read as
hostile (bounded, any fault reads as the defaults) and written whole (write, then rename)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from companion_app.i18n import LANGUAGES, system_language

SETTINGS_FILE = "settings.json"
SETTINGS_MAX_BYTES = 4096


@dataclass(frozen=True, slots=True)
class Settings:
    muted: bool = False
    """The sound cues are off."""
    language: str = ""
    """The table's language (a code of ``i18n.LANGUAGES``); empty until one is chosen, when the
    system's locale speaks for the table."""

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)


def settings_path(journal_path: Path) -> Path:
    """The settings file, beside the journal."""
    return journal_path.resolve().parent / SETTINGS_FILE


def chosen_language(asked: str | None, journal_path: Path, environ: Mapping[str, str]) -> str:
    """The table's language at a start: ``--lang`` for this run, else the one chosen in
    Settings, else the system's locale."""
    return asked or read_settings(settings_path(journal_path)).language or system_language(environ)


def read_settings(path: Path) -> Settings:
    """The remembered settings; the defaults for whatever is missing, too big or not ours."""
    try:
        if path.stat().st_size > SETTINGS_MAX_BYTES:
            return Settings()
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Settings()
    if not isinstance(data, dict):
        return Settings()
    language = data.get("language")
    return Settings(
        muted=data.get("muted") is True,
        language=language if isinstance(language, str) and language in LANGUAGES else "",
    )


def write_settings(path: Path, settings: Settings) -> None:
    """Remember the settings (write then rename: never a half-written file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(".part")
    part.write_text(json.dumps(asdict(settings)) + "\n", encoding="utf-8")
    part.replace(path)
