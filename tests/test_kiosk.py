"""The Raspberry Pi kiosk (deploy/kiosk/): the start script brings the app up fullscreen on a
display of the Pi's sizes, the journal in the user's data folder; the unit and the udev rule say
what the guide promises. The display is a private Xvfb of the panel's size (SDL on X11 here; the
Pi's KMS/DRM is not on this machine)."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from xvfb_display import xvfb

KIOSK = Path(__file__).resolve().parents[1] / "deploy" / "kiosk"

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("screen", ["800x480", "720x1280"])
def test_the_start_script_reaches_ready_fullscreen(screen: str, tmp_path: Path) -> None:
    if shutil.which("Xvfb") is None:
        pytest.fail("Xvfb is missing: apt-get install xvfb (make test installs it as root)")
    home = tmp_path / "home"
    home.mkdir()
    with xvfb(screen) as display:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "XDG_"))},
            "HOME": str(home),
            "DISPLAY": display,
            "SDL_VIDEODRIVER": "x11",  # the Pi's kmsdrm is not here
            "CATAN_PYTHON": sys.executable,
            "CATAN_ARGS": "--virtual-dice",
        }
        result = subprocess.run(
            [str(KIOSK / "catan-kiosk"), "--exit-when-ready"],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert result.returncode == 0, result.stderr[-2000:]
    assert [line for line in result.stdout.splitlines() if line.startswith("READY ")], result.stdout
    window = [line for line in result.stderr.splitlines() if line.startswith("Window: ")]
    assert window == [
        f"Window: {screen}, density 1.000 by the window rule: short side "
        f"{min(int(v) for v in screen.split('x'))} px / 800, at least 1 "
        "(the desktop does not say the size on the glass)"
    ]
    data = home / ".local" / "share" / "catan-companion"
    assert (data / "journal.sqlite3").is_file()  # the journal in the user's data folder
    assert (data / "kivy").is_dir()  # and Kivy's settings and logs beside it


def test_the_start_script_says_when_the_app_is_not_installed(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "PATH": os.environ["PATH"]}
    result = subprocess.run(
        [str(KIOSK / "catan-kiosk")], env=env, capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"catan-kiosk: no app at {tmp_path}/.local/share/catan-companion/venv/bin/python "
        "(run deploy/kiosk/install.sh)"
    )


def test_the_unit_runs_the_kiosk_as_the_guide_says() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(KIOSK / "catan-companion.service")
    service = unit["Service"]
    assert service["ExecStart"] == "/usr/local/bin/catan-kiosk"
    assert set(service["SupplementaryGroups"].split()) == {"video", "render", "input", "dialout"}
    assert service["Restart"] == "on-failure"
    assert service["StandardOutput"] == service["StandardError"] == "journal"
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    assert unit["Unit"]["Conflicts"] == "getty@tty1.service"
    install = (KIOSK / "install.sh").read_text()
    assert "usermod -a -G video,render,input,dialout" in install
    assert "s/^User=.*/User=$KIOSK_USER/" in install
    script = (KIOSK / "catan-kiosk").read_text()
    assert 'SDL_VIDEODRIVER="${SDL_VIDEODRIVER:-kmsdrm}"' in script
    assert "--fullscreen" in script


def test_the_unit_passes_systemd_s_own_check(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.fail("systemd-analyze is missing (the systemd package)")
    # The unit as installed, its ExecStart pointing at the script in this checkout.
    unit = tmp_path / "catan-companion.service"
    text = (KIOSK / "catan-companion.service").read_text()
    unit.write_text(text.replace("/usr/local/bin/catan-kiosk", str(KIOSK / "catan-kiosk")))
    result = subprocess.run(
        [analyze, "verify", "--man=no", str(unit)], capture_output=True, text=True, timeout=60
    )
    problems = [
        line
        for line in result.stderr.splitlines()
        if "catan-companion.service" in line and "User=" not in line
    ]
    assert problems == [], result.stderr


def test_the_udev_rule_names_the_dice_box() -> None:
    rules = [
        line
        for line in (KIOSK / "70-catan-dicebox.rules").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert len(rules) == 1
    keys = dict(
        part.strip().split("==", 1) if "==" in part else part.strip().split("=", 1)
        for part in rules[0].split(",")
    )
    assert keys["ATTRS{idVendor}"] == '"2e8a"' and keys["ATTRS{idProduct}"] == '"0005"'
    assert keys["SUBSYSTEM"] == '"tty"'
    assert keys["SYMLINK+"] == '"catan-dicebox"'
    assert keys["GROUP"] == '"dialout"'
    assert keys["ENV{ID_MM_DEVICE_IGNORE}"] == '"1"'
