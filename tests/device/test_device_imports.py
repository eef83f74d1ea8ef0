"""`companion_app.device` never imports the emulator (nor the app): the emulator is built on the
device package, the virtual dice are opened from the emulator's side
(`companion_app.emulator.virtual`). Read from the source with ``ast``, every import counts,
those under ``if TYPE_CHECKING:`` and inside functions too; then checked once at run time."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import companion_app.device

ROOT = Path(companion_app.device.__file__).parent
FORBIDDEN = ("companion_app.emulator", "companion_app.app", "kivy")


def imported_modules(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def forbidden_imports(tree: ast.AST) -> list[str]:
    return sorted(
        name
        for name in imported_modules(tree)
        if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN)
    )


def test_the_check_finds_an_import_of_the_emulator_anywhere() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from companion_app.emulator.box import VirtualDiceBox\n"
        "def f():\n"
        "    import companion_app.emulator\n"
        "    from companion_app import emulator\n"
    )
    found = set(forbidden_imports(ast.parse(source)))
    assert found == {
        "companion_app.emulator",
        "companion_app.emulator.box",
        "companion_app.emulator.box.VirtualDiceBox",
    }


def test_no_device_module_imports_the_emulator_or_the_app() -> None:
    modules = sorted(ROOT.glob("*.py"))
    assert len(modules) >= 8
    offenders = {
        path.name: bad
        for path in modules
        if (bad := forbidden_imports(ast.parse(path.read_text(), str(path))))
    }
    assert offenders == {}


def test_importing_the_device_package_loads_no_emulator() -> None:
    names = sorted(f"companion_app.device.{path.stem}" for path in ROOT.glob("*.py"))
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('companion_app.emulator', "
        "'companion_app.app', 'kivy'))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout.strip() == "[]"
