"""The tour refuses a language it cannot show: asked for ``--lang de`` in a checkout whose
catalogues were not compiled, it would play in English and report no problem."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from companion_app.app.tour.run import unreadable_languages
from companion_app.i18n import LOCALE_DIR

# The tour with the catalogues read from another folder (the tour imports nothing of Kivy
# before it has read its languages, so no display is needed to see it refuse).
TOUR_WITH_LOCALE = """
import sys
from pathlib import Path
import companion_app.i18n as i18n
i18n.LOCALE_DIR = Path(sys.argv[1])
from companion_app.app.tour.run import main
sys.exit(main(sys.argv[2:]))
"""


def _tour(locale: Path, out: Path, *options: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", TOUR_WITH_LOCALE, str(locale), "--out", str(out)]
    return subprocess.run(
        [*command, "--size", "800x480", *options],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "KIVY_NO_ARGS": "1"},  # no DISPLAY: it must not start
    )


def test_a_language_without_its_compiled_catalogue_stops_the_tour(tmp_path: Path) -> None:
    locale = tmp_path / "locale"
    for code in ("de", "vi"):
        folder = locale / code / "LC_MESSAGES"
        folder.mkdir(parents=True)
        shutil.copy(LOCALE_DIR / code / "LC_MESSAGES" / "companion.po", folder)
    # Vietnamese compiled, German only as its .po (not compiled).
    shutil.copy(LOCALE_DIR / "vi" / "LC_MESSAGES" / "companion.mo", locale / "vi" / "LC_MESSAGES")
    out = tmp_path / "out"
    proc = _tour(locale, out, "--lang", "vi,de")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("tour: no compiled catalogue for de "), lines[0]
    assert "vi" not in lines[0].split("(")[0]
    assert proc.stdout == ""
    assert not out.exists()  # nothing was looked at


def test_the_compiled_catalogues_of_every_language_load() -> None:
    """The checkout's own catalogues (``make catalogues``): every language may be toured."""
    assert unreadable_languages(("cs", "ca", "pl", "de", "vi")) == []
    assert unreadable_languages(("en",)) == []  # English is the source: nothing to load
