"""The build's two steps beyond pyproject.toml: the dice box firmware goes into the package, and
the languages' catalogues are compiled (``.po`` → ``.mo``, with Babel, a build requirement).

The firmware lives at the top of the project (``firmware/``: ``make flash`` copies it to the
Pico, ``hardware/`` reads its pin map, the tests run it), and the app's virtual dice run the same
code on this computer. A built package carries a copy in ``companion_app/dicebox_firmware/``,
which ``companion_app.emulator.firmware.firmware_dir`` prefers when it exists (an editable
install and a checkout read ``firmware/`` itself).

The catalogues are compiled here and never at start, since a kiosk's or a tablet's install is
read-only; a checkout gets its ``.mo`` files from ``make catalogues`` (docs/translating.md).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

FIRMWARE = Path(__file__).resolve().parent / "firmware"
LOCALE = Path(__file__).resolve().parent / "companion_app" / "locale"
PACKAGED_FIRMWARE = ("companion_app", "dicebox_firmware")


def firmware_files() -> list[Path]:
    """The firmware's modules: ``main.py`` (the Pico), ``host_main.py`` (this computer) and
    the ``dicebox`` package, and ``rp2/``, relative to ``firmware/``."""
    found = [p.relative_to(FIRMWARE) for p in sorted(FIRMWARE.rglob("*.py"))]
    # MicroPython's rp2 port for the emulated Pico, and the dice box's one UF2 (MicroPython with
    # the firmware: `catan-dice-emulator --uf2-path`, `--rp2040`), with their licences.
    found += [p.relative_to(FIRMWARE) for p in sorted((FIRMWARE / "rp2").rglob("*")) if p.is_file()]
    return [p for p in found if "__pycache__" not in p.parts]


def compile_catalogues(build_lib: Path) -> None:
    """Each language's ``companion.po`` as ``companion.mo`` beside it in the build."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for source in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        target = build_lib / source.relative_to(LOCALE.parent.parent).with_suffix(".mo")
        target.parent.mkdir(parents=True, exist_ok=True)
        with source.open("rb") as po, target.open("wb") as mo:
            write_mo(mo, read_po(po, locale=source.parent.parent.name), use_fuzzy=False)


class BuildWithFirmware(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        compile_catalogues(Path(self.build_lib))
        target = Path(self.build_lib, *PACKAGED_FIRMWARE)
        shutil.rmtree(target, ignore_errors=True)
        for name in firmware_files():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(FIRMWARE / name, target / name)


setup(cmdclass={"build_py": BuildWithFirmware})
