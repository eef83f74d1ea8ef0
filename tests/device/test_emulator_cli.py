"""``python -m companion_app.emulator``: PORT first, keys press the button, the track drawn,
scripted dice, faults, unplug and reset, the MicroPython VM."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import serial

from companion_app.device import protocol as p


class Cli:
    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion_app.emulator", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def expect(self, prefix: str, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            self.seen.append(line)
            if line.startswith(prefix):
                return line

    def keys(self, data: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def quit(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(timeout=10)


def read_until(port: serial.Serial, needle: bytes, timeout: float = 5.0) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while needle not in seen and time.monotonic() < deadline:
        seen += port.read(256)
    assert needle in seen, seen
    return seen


def test_port_first_then_a_key_rolls_the_scripted_dice(tmp_path: Path) -> None:
    script = tmp_path / "rolls.txt"
    script.write_text("# fixed rolls\n3 5 ship\n6 6 politics\n")
    cli = Cli("--seed", "9", "--script", str(script))
    first = cli.lines.get(timeout=15)
    assert first.startswith("PORT /dev/")
    path = first.split(" ", 1)[1]
    with serial.Serial(path, timeout=0.05) as port:
        port.write(b"\r\n" + p.encode("HELLO") + p.encode("PING", {"n": "1"}))
        seen = read_until(port, b"PONG n=1")  # the box has heard us: it rolls online now
        assert b"HELLO fw=1.1.0 proto=1 dev=D1CE0000000000E1 boot=00090000" in seen
        cli.keys(" ")
        read_until(port, b"ROLL seq=1 y=3 r=5 e=ship")
        assert cli.expect("ROLLED") == "ROLLED 3+5 ship seq=1 boot=00090000"
        port.write(p.encode("ACK", {"seq": 1}) + p.encode("TRACK", {"pos": 3, "len": 8}))
        read_until(port, b"OK cmd=TRACK")
        assert cli.expect("LEDS www").startswith("LEDS wwwS")
        cli.keys("\n")
        read_until(port, b"ROLL seq=2 y=6 r=6 e=politics")
    assert cli.quit() == 0


def test_unplug_prints_the_new_port_and_reset_a_new_boot() -> None:
    cli = Cli("--seed", "4", "--unplug-every", "1", "--reset-after", "2")
    assert cli.lines.get(timeout=15).startswith("PORT /dev/")
    cli.keys(" ")
    assert cli.expect("ROLLED").endswith("seq=1 boot=00040000 offline")  # nobody listened
    second = cli.expect("PORT ")
    assert second.startswith("PORT /dev/")
    with serial.Serial(second.split(" ", 1)[1], timeout=0.05) as port:
        port.write(b"\r\n" + p.encode("HELLO"))
        read_until(port, b"ROLL seq=1 ")  # not acknowledged: offered again after the replug
    cli.keys(" ")
    assert cli.expect("ROLLED").endswith("seq=2 boot=00040000")
    assert cli.expect("RESET") == "RESET boot=00040001"
    assert cli.quit() == 0
    assert cli.proc.stderr is not None and "Traceback" not in cli.proc.stderr.read()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--fault", "drop=2"], "a probability is 0-1"),
        (["--fault", "melt=0.1"], "want one of"),
        (["--script", "/nonexistent/rolls.txt"], "No such file"),
    ],
)
def test_bad_options_are_refused(args: list[str], message: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "companion_app.emulator", *args],
        capture_output=True,
        text=True,
        timeout=20,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == (1 if args[0] == "--script" else 2)  # 2: bad usage
    assert message in result.stderr


def test_a_bad_dice_script_is_refused(tmp_path: Path) -> None:
    script = tmp_path / "rolls.txt"
    script.write_text("3 5 ship\n7 1 ship\n")
    result = subprocess.run(
        [sys.executable, "-m", "companion_app.emulator", "--script", str(script)],
        capture_output=True,
        text=True,
        timeout=20,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 1
    assert "dice script line 2: want 'yellow red event'" in result.stderr


@pytest.mark.micropython
def test_the_micropython_vm_behind_the_port() -> None:
    cli = Cli("--micropython", "--seed", "7")
    path = cli.expect("PORT ").split(" ", 1)[1]
    with serial.Serial(path, timeout=0.05) as port:
        port.write(b"\r\n" + p.encode("HELLO"))
        read_until(port, b"boot=00070000")
        cli.keys(" ")
        # the same seed rolls the same dice in the VM as under CPython (firmware README)
        read_until(port, b"ROLL seq=1 y=2 r=5 e=trade")
    assert cli.quit() == 0


FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


def expected_frame(state: tuple[object, ...]) -> bytes:
    """What the firmware's own drawing gives for ``state`` (under this CPython)."""
    if str(FIRMWARE) not in sys.path:
        sys.path.insert(0, str(FIRMWARE))
    from dicebox.screen import Screen  # type: ignore[import-not-found]

    screen = Screen()
    screen.draw(state)
    return bytes(screen.buf)


def frame_pixels(frame: bytes) -> set[tuple[int, int]]:
    """The lit pixels of a display frame (MONO_VLSB bytes)."""
    return {
        (x, y) for y in range(64) for x in range(128) if frame[(y >> 3) * 128 + x] >> (y & 7) & 1
    }


def wait_for_png(folder: Path, pixels: set[tuple[int, int]], timeout: float = 10.0) -> Path:
    """The first display PNG in ``folder`` showing ``pixels``, waiting (up to ``timeout``) for
    the emulator to write it."""
    looked: set[Path] = set()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for path in sorted(set(folder.glob("display-*.png")) - looked):
            try:
                shown = png_pixels(path)
            except OSError:  # still being written: read it on the next look
                break
            looked.add(path)
            if shown == pixels:
                return path
        time.sleep(0.01)  # a poll of the folder: the emulator writes a file per new frame
    raise AssertionError(f"no frame with those pixels among {len(looked)} in {timeout} s")


def png_pixels(path: Path) -> set[tuple[int, int]]:
    """The lit pixels of a display PNG (4x4 per display pixel)."""
    from PIL import Image

    with Image.open(path) as image:
        small = image.convert("L").resize((128, 64), Image.Resampling.NEAREST)
        return {(x, y) for y in range(64) for x in range(128) if small.getpixel((x, y)) > 60}


RESULT = (3, 5, "ship", -1, 1, 8, -1, False, True, 1, "", "")
"""The display after the roll of 3, 5 and a ship, the box alone with one roll waiting."""
AFTER_RESET = (0, 0, "", -1, 1, 8, -1, False, True, 1, "", "")
"""After a reset: no roll shown, the ship and the waiting roll back from the flash."""


@pytest.mark.parametrize("vm", [False, pytest.param(True, marks=pytest.mark.micropython)])
def test_display_frames_as_pngs_and_rolls_kept_in_flash_across_a_reset(
    tmp_path: Path, vm: bool
) -> None:
    script = tmp_path / "rolls.txt"
    script.write_text("3 5 ship\n")
    flash = tmp_path / "flash.dat"
    pngs = tmp_path / "frames"
    args = ["--seed", "5", "--script", str(script), "--flash", str(flash)]
    cli = Cli(*args, "--display-png", str(pngs), *(["--micropython"] if vm else []))
    assert cli.lines.get(timeout=15).startswith("PORT /dev/")
    cli.keys(" ")
    assert cli.expect("ROLLED") == "ROLLED 3+5 ship seq=1 boot=00050000 offline"
    # the shake is over: the result frame, pixel for pixel as the firmware draws it
    result = wait_for_png(pngs, frame_pixels(expected_frame(RESULT)))
    cli.keys("r")  # a reset: the unacknowledged roll stays in the flash file
    assert cli.expect("RESET") == "RESET boot=00050001"
    # after the reset: the roll and the solo track came back from the flash file
    after = wait_for_png(pngs, frame_pixels(expected_frame(AFTER_RESET)))
    assert cli.quit() == 0
    frames = sorted(pngs.glob("display-*.png"))
    assert frames[0] < result < after == frames[-1]  # a frame before the roll, the last stands
    assert "roll 00050000 1 3 5 ship" in flash.read_text()
