"""The built package: the wheel holds what the app reads at run time, and an installation of it
runs the virtual dice, the emulator and the tour's code without the source tree or pytest.

The wheel is built once (from a copy of the project's files, so no stale ``build/`` folder leaks
in) and installed into a bare venv that borrows only the project venv's third-party packages.
"""

from __future__ import annotations

import gettext
import io
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import textwrap
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion_app.i18n import LOCALE_DIR

ROOT = Path(__file__).resolve().parents[1]

SHIPPED: tuple[tuple[str, str, str], ...] = (
    # (folder of the project, where the wheel holds it, which files) — one line per thing the
    # app reads at run time; a new data folder (a catalogue, the emulated Pico's files) is a line.
    ("companion_app", "companion_app", "*"),  # code, kv, sounds, the phone page's files
    ("firmware", "companion_app/dicebox_firmware", "*.py"),  # the virtual dice's firmware
    # the emulated Pico's MicroPython, and the dice box's one UF2 (MicroPython and the firmware)
    ("firmware/rp2", "companion_app/dicebox_firmware/rp2", "*"),
)
"""Every file of the project matching a line must be in the wheel under its place."""


def project_files() -> list[str]:
    """The files a checkout has (tracked, or new and not ignored), relative to the root."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return [name for name in listed if (ROOT / name).is_file()]


def expected_in_wheel(files: list[str]) -> dict[str, str]:
    """Wheel path -> the project file it must be a copy of."""
    expected = {}
    for folder, packaged, pattern in SHIPPED:
        for name in files:
            path = Path(name)
            if path.is_relative_to(folder) and path.match(pattern):
                expected[str(Path(packaged, path.relative_to(folder)))] = name
    return expected


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    """The module's own temporary folder (pytest's shared base folder is pruned by any other
    pytest run of the same user, which a minute-long installation should not race)."""
    with tempfile.TemporaryDirectory(prefix="catan-packaging-") as name:
        yield Path(name)


@pytest.fixture(scope="module")
def wheel(folder: Path) -> Path:
    source = folder / "source"
    for name in project_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    out = folder / "wheel"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(source)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (built,) = out.glob("catan_companion-*.whl")
    return built


def test_the_wheel_holds_everything_the_app_reads(wheel: Path) -> None:
    expected = expected_in_wheel(project_files())
    assert "companion_app/dicebox_firmware/host_main.py" in expected  # the table is not empty
    assert "companion_app/dicebox_firmware/rp2/RPI_PICO-v1.28.0.uf2" in expected
    assert "companion_app/dicebox_firmware/rp2/dicebox-1.1.0.uf2" in expected
    assert any(name.endswith(".kv") for name in expected)
    assert any(name.endswith(".wav") for name in expected)
    assert any(name.startswith("companion_app/phones/static/") for name in expected)
    with zipfile.ZipFile(wheel) as archive:
        held = set(archive.namelist())
        missing = sorted(name for name in expected if name not in held)
        assert missing == []
        for packaged, name in expected.items():
            assert archive.read(packaged) == (ROOT / name).read_bytes(), packaged
    assert not [name for name in held if name.startswith(("tests/", "bench/", "hardware/"))]


def test_the_wheel_names_its_licence_as_an_spdx_expression_with_the_files(wheel: Path) -> None:
    """PEP 639: ``License-Expression`` and the licence files in the wheel's metadata (a
    ``project.license`` table is deprecated and stops building in 2027), ours and those of the
    projects the shipped MicroPython UF2 is built from."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        fields = archive.read(metadata).decode().split("\n\n", 1)[0].splitlines()
        dist_info = metadata.rsplit("/", 1)[0]
        licences = sorted(n.split("/licenses/", 1)[1] for n in names if "/licenses/" in n)
        assert archive.read(f"{dist_info}/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()
    assert "License-Expression: MIT" in fields
    assert not [f for f in fields if f.startswith("License:")]
    expected = ["LICENSE"] + [
        f"firmware/rp2/licences/{p.name}"
        for p in sorted((ROOT / "firmware/rp2/licences").iterdir())
    ]
    assert licences == expected
    assert sorted(f.split(": ", 1)[1] for f in fields if f.startswith("License-File:")) == expected


def test_the_wheel_holds_each_language_compiled(wheel: Path) -> None:
    languages = sorted(p.parent.parent.name for p in LOCALE_DIR.glob("*/LC_MESSAGES/*.po"))
    assert languages == ["ca", "cs", "de", "pl", "vi"]
    with zipfile.ZipFile(wheel) as archive:
        for code in languages:
            mo = archive.read(f"companion_app/locale/{code}/LC_MESSAGES/companion.mo")
            words = gettext.GNUTranslations(io.BytesIO(mo))
            assert words.gettext("Progress cards") != "Progress cards", code


@pytest.fixture(scope="module")
def installed(wheel: Path, folder: Path) -> Path:
    """A venv with only the wheel installed; the project venv's third-party packages (Kivy,
    pyserial, aiohttp, segno) are borrowed through a path file, its editable install is not."""
    venv = folder / "venv"
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # A path file's lines join sys.path, but the .pth files in them are not run: the project's
    # editable finder stays out.
    Path(site, "borrowed.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index"]
    subprocess.run(
        [*pip, "--target", site, str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return python


@pytest.fixture
def work(folder: Path) -> Path:
    """A folder away from the checkout to run in."""
    (folder / "work").mkdir(exist_ok=True)
    return folder / "work"


def run_installed(python: Path, program: str, cwd: Path, **env: str) -> str:
    """``program`` under the installed package, away from the checkout, pytest unimportable."""
    blocked = "import sys; sys.modules['pytest'] = sys.modules['_pytest'] = None\n"
    result = subprocess.run(
        [str(python), "-c", blocked + textwrap.dedent(program)],
        cwd=cwd,
        env={**os.environ, "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def test_the_installed_virtual_dice_roll(installed: Path, work: Path) -> None:
    out = run_installed(
        installed,
        """
        import queue
        import time
        import companion_app
        from companion_app.device.box_state import BoxState
        from companion_app.device.events import Connected, RollArrived
        from companion_app.emulator.firmware import firmware_dir
        from companion_app.emulator.virtual import open_virtual_dice

        print("PACKAGE", companion_app.__file__)
        print("FIRMWARE", firmware_dir())
        events = queue.Queue()
        dice = open_virtual_dice(events.put, seed=3)
        try:
            while not isinstance(events.get(timeout=30), Connected):
                pass
            # a roll is due, as the app's refresh tells the box
            dice.link.want(BoxState((0, 8), True, None, "Red", (), 0))
            deadline = time.monotonic() + 30
            while not dice.link.state_confirmed and time.monotonic() < deadline:
                time.sleep(0.01)
            dice.press()
            while not isinstance(event := events.get(timeout=30), RollArrived):
                pass
            print("ROLL", event.roll.seq)
        finally:
            dice.close()
        """,
        work,
    )
    lines = dict(line.split(" ", 1) for line in out.splitlines())
    venv = str(installed.parent.parent)
    assert lines["PACKAGE"].startswith(venv) and lines["FIRMWARE"].startswith(venv)
    assert not lines["FIRMWARE"].startswith(str(ROOT))
    assert lines["ROLL"] == "1"


def test_the_installed_emulator_starts(installed: Path, work: Path) -> None:
    result = subprocess.run(
        [str(installed), "-m", "companion_app.emulator", "--seed", "1"],
        cwd=work,
        input="",  # the end of input quits it
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith("PORT /dev/pts/"), result.stdout[:200]


@pytest.mark.ui
def test_the_installed_tour_loads_without_pytest(
    installed: Path, work: Path, xvfb_display: str
) -> None:
    """The tour's code (its touches included) imports from the package with pytest absent."""
    out = run_installed(
        installed,
        """
        from companion_app.app.main import configure_kivy

        configure_kivy(800, 480)
        from companion_app.app.tour import driver, tour

        print("TOUR", tour.__file__, driver.Finger.__name__)
        """,
        work,
        DISPLAY=xvfb_display,
    )
    assert out.startswith("TOUR " + str(installed.parent.parent))


@pytest.mark.ui
def test_the_installed_app_starts_with_virtual_dice(
    installed: Path, work: Path, xvfb_display: str
) -> None:
    blocked = work / "blocked"
    blocked.mkdir(exist_ok=True)
    (blocked / "pytest.py").write_text("raise ImportError('pytest is not there at run time')\n")
    app = ["-m", "companion_app", "--virtual-dice", "--exit-when-ready", "--size", "800x480"]
    result = subprocess.run(
        [str(installed), *app, "--journal", str(work / "journal.sqlite3")],
        cwd=work,
        env={**os.environ, "DISPLAY": xvfb_display, "PYTHONPATH": str(blocked)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert any(line.startswith("READY ") for line in result.stdout.splitlines()), result.stdout
    assert "Window: 800x480, density 1.000 by the window rule" in result.stderr


def test_the_installed_package_carries_the_uf2_and_prints_its_path(
    installed: Path, work: Path
) -> None:
    out = run_installed(
        installed,
        """
        from companion_app.emulator.__main__ import main
        main(["--uf2-path"])
        """,
        work,
    )
    path = Path(out.strip())
    assert path.name == "dicebox-1.1.0.uf2" and path.is_relative_to(installed.parent.parent)
    assert path.read_bytes() == (ROOT / "firmware/rp2/dicebox-1.1.0.uf2").read_bytes()
