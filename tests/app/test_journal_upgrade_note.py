"""The app tells the table where the copy of an upgraded journal went: one line on Home, the
first time the older journal is opened (in its own process: the app's module loads Kivy)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

FIXTURE = Path(__file__).parent.parent / "journal" / "fixtures" / "journal-v2.sqlite3"
OPEN = """
import sys
from pathlib import Path
from companion_app.app.companion import CompanionApp
from companion_app.device.discovery import DiceSource
app = CompanionApp(dice=DiceSource(None), journal_path=Path(sys.argv[1]))
app.unfinished_games()
print(app.message)
"""


def _open(path: Path) -> str:
    env = {**os.environ, "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1"}
    done = subprocess.run(
        [sys.executable, "-c", OPEN, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def test_home_says_once_where_the_old_journal_was_kept(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(FIXTURE.read_bytes())
    backup = tmp_path / "journal.v2-backup.sqlite3"
    assert _open(path) == (
        f"The journal was upgraded to this version; its old copy is kept at {backup}"
    )
    assert backup.exists()
    assert _open(path) == ""
