"""The app starts under Xvfb and shows a real, non-blank window."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from xvfb_display import xvfb

from companion_app.i18n import LOCALE_DIR
from companion_app.presenters.board_picture import SEA, TERRAIN_COLOURS
from companion_app.rules.cards import Terrain

pytestmark = pytest.mark.ui


def test_app_window_starts_and_is_not_blank(
    xvfb_display: str, artifacts_dir: Path, tmp_path: Path
) -> None:
    shot = artifacts_dir / "home.png"
    shot.unlink(missing_ok=True)
    env = {**os.environ, "DISPLAY": xvfb_display, "KIVY_NO_CONSOLELOG": "1"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion_app",
            "--virtual-dice",
            "--screenshot",
            str(shot),
            "--journal",
            str(tmp_path / "journal.sqlite3"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    image = Image.open(shot).convert("RGB")
    assert image.size == (1280, 800)
    colours = image.getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50, "screenshot is (nearly) a single colour"
    # The starter board greets the table: sea, and each terrain in its colour.
    counts = {rgb: n for n, rgb in colours}
    for name, rgb in {
        "sea": _rgb(SEA),
        "forest": _rgb(TERRAIN_COLOURS[Terrain.FOREST]),
        "desert": _rgb(TERRAIN_COLOURS[Terrain.DESERT]),
    }.items():
        assert counts.get(rgb, 0) > 3000, f"{name} {rgb}: {counts.get(rgb, 0)} pixels"


def test_a_small_screen_gets_a_window_of_its_own_size(tmp_path: Path) -> None:
    """On an 800x480 desktop (a Pi's panel without the kiosk) the window is 800x480, not the
    1280x800 default hanging off the right and the bottom of the screen."""
    shot = tmp_path / "home.png"
    with xvfb("800x480") as display:
        env = {**os.environ, "DISPLAY": display, "KIVY_NO_CONSOLELOG": "1"}
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "companion_app",
                "--virtual-dice",
                "--screenshot",
                str(shot),
                "--journal",
                str(tmp_path / "journal.sqlite3"),
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Window: 800x480, density 1.000" in result.stderr
    assert Image.open(shot).size == (800, 480)


def test_a_language_without_its_catalogue_says_so_first(tmp_path: Path) -> None:
    """A checkout whose catalogues were not compiled: ``--lang de`` reads English, and the
    log's first line says why and what to run."""
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, locale)
    (locale / "de" / "LC_MESSAGES" / "companion.mo").unlink()
    start = (
        "import sys; from pathlib import Path; import companion_app.i18n as i18n; "
        f"i18n.LOCALE_DIR = Path({str(locale)!r}); "
        "from companion_app.__main__ import main; sys.exit(main(sys.argv[1:]))"
    )
    with xvfb("1280x800") as display:
        env = {**os.environ, "DISPLAY": display, "KIVY_NO_CONSOLELOG": "1"}
        arguments = ["--virtual-dice", "--exit-when-ready", "--lang", "de"]
        result = subprocess.run(
            [sys.executable, "-c", start, *arguments, "--journal", str(tmp_path / "j.sqlite3")],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert result.returncode == 0, result.stderr[-2000:]
    first = result.stderr.splitlines()[0]
    assert first.startswith(
        "Language: Deutsch (de) was asked for, but its catalogue is not compiled"
    ), first
    assert first.endswith("so the words are English: make catalogues"), first


def _rgb(rgba: tuple[float, ...]) -> tuple[int, int, int]:
    return (round(rgba[0] * 255), round(rgba[1] * 255), round(rgba[2] * 255))


def test_bad_window_size_is_a_clear_error() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "companion_app", "--size", "big"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "--size must look like 1280x800" in result.stderr


def test_exit_when_ready_reports_the_first_frame(xvfb_display: str, tmp_path: Path) -> None:
    """The benchmark's signal: one READY line with the seconds since start, then exit 0."""
    env = {**os.environ, "DISPLAY": xvfb_display, "KIVY_NO_CONSOLELOG": "1"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion_app",
            "--virtual-dice",
            "--exit-when-ready",
            "--journal",
            str(tmp_path / "journal.sqlite3"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    ready = [line for line in result.stdout.splitlines() if line.startswith("READY ")]
    assert len(ready) == 1, result.stdout
    assert float(ready[0].split()[1]) > 0
    # The home screen lists the journal's games, so the journal file exists by the first frame.
    assert (tmp_path / "journal.sqlite3").exists()
