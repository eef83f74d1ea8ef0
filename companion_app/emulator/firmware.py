"""The real dice box firmware (``firmware/``) running on this computer, behind three pipes.

Both kinds look the same to the emulator: protocol bytes in (`to_fw`), protocol bytes out
(`from_fw`), button commands on a control pipe (``tap`` presses). `ThreadFirmware` runs it under
this CPython in a thread with the host hardware layer; `VmFirmware` runs it in the MicroPython
unix VM as a subprocess, as close to the Pico as a computer gets.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Protocol

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware"
"""The firmware in a checkout of the project (and an editable install)."""
PACKAGED_FIRMWARE_DIR = Path(__file__).resolve().parents[1] / "dicebox_firmware"
"""The copy a built package carries (``setup.py`` puts it there)."""


def firmware_dir() -> Path:
    """Where ``host_main.py`` is: the installed package's copy, else the checkout's."""
    for folder in (PACKAGED_FIRMWARE_DIR, FIRMWARE_DIR):
        if (folder / "host_main.py").exists():
            return folder
    raise FileNotFoundError(f"the dice box firmware is not at {FIRMWARE_DIR}")


def firmware_module(name: str) -> Any:
    """One of the firmware's modules (e.g. ``dicebox.store``), imported under this CPython."""
    fw = str(firmware_dir())
    if fw not in sys.path:
        sys.path.insert(0, fw)
    return importlib.import_module(name)


def check_flash_file(path: str) -> None:
    """``path`` may hold the box's flash record: there is none yet (in a folder that exists),
    or it is one (the firmware replaces it whole through ``path.new``). Anything else is
    someone else's file and is left as it is.

    :raises ValueError: naming the file and what is wrong with it.
    """
    store = firmware_module("dicebox.store")
    magic = (store.MAGIC + "\n").encode()
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"no folder {folder} for the flash record {path}")
    for candidate in (path, path + ".new"):
        if os.path.isdir(candidate):
            raise ValueError(f"{candidate} is a folder, not a flash record file")
        if not os.path.lexists(candidate):
            continue
        if not os.path.isfile(candidate):
            raise ValueError(f"{candidate} is not a regular file, not a flash record")
        with open(candidate, "rb") as f:
            data = f.read(store.MAX_BYTES + 1)
        if candidate != path and (magic.startswith(data) or data.startswith(magic)):
            continue  # the record being replaced when the box last stopped: ours, half written
        try:
            store.decode(data)
        except (ValueError, UnicodeError) as exc:
            reason = "not text" if isinstance(exc, UnicodeError) else str(exc)
            raise ValueError(
                f"{candidate} is not a dice box flash record ({reason}); it is left as it is"
            ) from None


def micropython_binary() -> str:
    """The ``micropython`` unix VM next to this interpreter (the project's virtualenv)."""
    candidate = Path(sys.executable).parent / "micropython"
    if candidate.exists():
        return str(candidate)
    found = shutil.which("micropython")
    if found is None:
        raise FileNotFoundError("micropython is not installed (make test installs it)")
    return found


def firmware_args(
    *,
    seed: int | None,
    boot_id: str | None,
    device_id: str | None,
    script: str | None,
    resend_ms: int | None,
    flash: str | None = None,
    dice_mode: str | None = None,
) -> list[str]:
    args: list[str] = []
    if seed is not None:
        args += ["--seed", str(seed)]
    if boot_id is not None:
        args += ["--boot-id", boot_id]
    if device_id is not None:
        args += ["--device-id", device_id]
    if script is not None:
        args += ["--script", script]
    if resend_ms is not None:
        args += ["--resend-ms", str(resend_ms)]
    if flash is not None:
        args += ["--flash", flash]
    if dice_mode is not None:
        args += ["--dice-mode", dice_mode]
    return args


class Firmware(Protocol):
    to_fw: int
    """Write protocol bytes for the box here."""
    from_fw: int
    """Read the box's protocol bytes here."""

    def tap(self) -> None: ...

    def leds(self) -> str | None:
        """The strip as text (``hw_host.frame_text``), or None before the first frame."""

    def screen(self) -> tuple[int, bytes] | None:
        """(frame number, the display's latest frame: 1,024 MONO_VLSB bytes), or None."""

    def stop(self) -> None: ...


class ThreadFirmware:
    """The firmware under CPython, in a thread of this process."""

    def __init__(self, args: list[str]) -> None:
        fw = str(firmware_dir())
        if fw not in sys.path:
            sys.path.insert(0, fw)
        import host_main  # type: ignore[import-not-found]
        from dicebox import hw_host  # type: ignore[import-not-found]

        self._hw_host: Any = hw_host
        host_r, self.to_fw = os.pipe()
        self.from_fw, dev_w = os.pipe()
        ctl_r, self._ctl_w = os.pipe()
        for fd in (self.to_fw, self.from_fw, self._ctl_w):
            os.set_blocking(fd, False)
        self._fds = [host_r, dev_w, ctl_r]
        opts = host_main.parse_args([*args, "--control", str(ctl_r)])
        serial = hw_host.StreamSerial(host_r, dev_w)
        self.box, self.hw, self.runner = host_main.build(opts, serial)
        self._thread = threading.Thread(target=self._run, name="dice-box-firmware", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.run(self.runner.run())

    def tap(self) -> None:
        os.write(self._ctl_w, b"tap\n")

    def leds(self) -> str | None:
        frame = self.hw.frame
        return str(self._hw_host.frame_text(frame)) if frame else None

    def screen(self) -> tuple[int, bytes] | None:
        hw = self.hw
        frame: bytes = hw.screen
        return (int(hw.screen_frames), frame) if frame else None

    def stop(self) -> None:
        """Power off: the box stops where it is (nothing more is flushed)."""
        self.runner.stop()
        self._thread.join(timeout=2.0)
        for fd in (*self._fds, self.to_fw, self.from_fw, self._ctl_w):
            _close(fd)


def spawn_host_main(interpreter: str, args: list[str]) -> tuple[subprocess.Popen[bytes], int]:
    """``interpreter firmware/host_main.py`` as a subprocess: protocol on stdin/stdout, LED frames
    on stderr (``--show-leds``), button commands on a control pipe whose write end is returned."""
    ctl_r, ctl_w = os.pipe()
    proc = subprocess.Popen(
        [
            interpreter,
            str(firmware_dir() / "host_main.py"),
            "--control",
            str(ctl_r),
            "--show-leds",
            *args,
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        pass_fds=(ctl_r,),
    )
    os.close(ctl_r)
    return proc, ctl_w


class VmFirmware:
    """The firmware in the MicroPython unix VM (``micropython firmware/host_main.py``)."""

    def __init__(self, args: list[str]) -> None:
        self.proc, self._ctl_w = spawn_host_main(micropython_binary(), ["--show-display", *args])
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self.to_fw = self.proc.stdin.fileno()
        self.from_fw = self.proc.stdout.fileno()
        os.set_blocking(self.to_fw, False)
        self._leds: str | None = None
        self._screen: tuple[int, bytes] | None = None
        self.diagnostics: list[str] = []
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            text = raw.decode(errors="replace").rstrip("\n")
            if text.startswith("LEDS "):
                self._leds = text[5:]
            elif text.startswith("OLED "):
                with contextlib.suppress(ValueError):
                    count = self._screen[0] + 1 if self._screen else 1
                    self._screen = (count, bytes.fromhex(text[5:]))
            elif len(self.diagnostics) < 100:
                self.diagnostics.append(text)

    def tap(self) -> None:
        os.write(self._ctl_w, b"tap\n")

    def leds(self) -> str | None:
        return self._leds

    def screen(self) -> tuple[int, bytes] | None:
        return self._screen

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=5)
        _close(self._ctl_w)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


def _close(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)
