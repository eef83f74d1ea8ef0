"""The dice box's one UF2 (``firmware/rp2/dicebox-<version>.uf2``): built from the tree's
firmware (never stale), deterministically, MicroPython's blocks as they are and the file system
at the rp2 port's offset; flashing it onto a Pico's RPI-RP2 drive."""

from __future__ import annotations

import hashlib
import io
import shutil
from pathlib import Path

from companion_app.emulator.rp2040 import (
    FLASH_BASE,
    FS_OFFSET,
    UF2,
    firmware_files,
    read_littlefs,
    uf2_flash,
)
from companion_app.emulator.rp2040 import uf2 as u

INFO_UF2 = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"


def test_the_uf2_is_built_from_the_trees_firmware() -> None:
    assert u.stale() is None  # the message names the command that rebuilds it
    path = u.dicebox_uf2()
    assert path.name == f"dicebox-{u.firmware_version()}.uf2"
    digest, name = path.with_name(path.name + ".sha256").read_text().split()
    assert (digest, name) == (hashlib.sha256(path.read_bytes()).hexdigest(), path.name)


def test_a_changed_source_makes_it_stale_with_the_rebuild_command(tmp_path: Path) -> None:
    firmware = tmp_path / "firmware"
    shutil.copytree(u.FIRMWARE, firmware, ignore=shutil.ignore_patterns("__pycache__"))
    assert u.stale(firmware) is None
    core = firmware / "dicebox" / "core.py"
    core.write_text(core.read_text() + "\n# one more line\n")
    why = u.stale(firmware)
    assert why is not None and "make uf2" in why and u.source_digest(firmware) in why
    # a host-only module is not flashed: a change to it leaves the UF2 as it is
    core.write_bytes((u.FIRMWARE / "dicebox" / "core.py").read_bytes())
    host = firmware / "dicebox" / "hw_host.py"
    host.write_text(host.read_text() + "\n# host only\n")
    assert u.stale(firmware) is None


def test_the_build_is_deterministic_and_is_the_committed_file() -> None:
    built = u.build()
    assert built == u.build()
    assert built == u.dicebox_uf2().read_bytes(), f"rebuild it: {u.REBUILD}"


def test_micropythons_blocks_as_they_are_then_the_file_system() -> None:
    data = u.dicebox_uf2().read_bytes()
    pages = u.uf2_pages(data)
    base = u.uf2_pages(UF2.read_bytes())
    assert pages[: len(base)] == base
    rest = [addr for addr, _ in pages[len(base) :]]
    assert rest and min(rest) == FLASH_BASE + FS_OFFSET and rest == sorted(set(rest))
    blocks = [data[i : i + 512] for i in range(0, len(data), 512)]
    for number, block in enumerate(blocks):  # numbered in order, the RP2040's family id
        words = [int.from_bytes(block[i : i + 4], "little") for i in range(0, 32, 4)]
        assert words[5:] == [number, len(blocks), u.FAMILY_RP2040]
        assert block[508:] == u.UF2_MAGIC_END.to_bytes(4, "little")
    flash = uf2_flash(data)
    for name, content in firmware_files().items():  # the files `make flash-files` copies
        assert read_littlefs(flash, name) == content, name
    build = u.read_build(data)
    assert build == {
        "dicebox": u.firmware_version(),
        "sources": u.source_digest(),
        "micropython": f"{UF2.name} {hashlib.sha256(UF2.read_bytes()).hexdigest()}",
    }


def test_flash_copies_it_onto_the_picos_boot_drive(tmp_path: Path) -> None:
    stick, drive = tmp_path / "USBSTICK", tmp_path / "RPI-RP2"
    for folder in (stick, drive):
        folder.mkdir()
    (stick / "INFO_UF2.TXT").write_text("Board-ID: SOMETHING-ELSE\n")
    (drive / "INFO_UF2.TXT").write_text(INFO_UF2)
    uf2 = u.dicebox_uf2()
    out = io.StringIO()
    assert u.flash(uf2, [tmp_path / "absent", stick, drive], out=out) == 0
    assert (drive / uf2.name).read_bytes() == uf2.read_bytes()
    assert not (stick / uf2.name).exists()
    assert f"copied {uf2.name} to {drive}" in out.getvalue()


def test_flash_without_a_pico_says_the_steps(tmp_path: Path) -> None:
    out = io.StringIO()
    assert u.flash(u.dicebox_uf2(), [tmp_path], picotool=None, out=out) == 1
    assert "Hold its white BOOTSEL button" in out.getvalue()
    assert str(u.dicebox_uf2()) in out.getvalue()
