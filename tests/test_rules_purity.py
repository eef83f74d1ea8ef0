"""The rules core is pure: importing it loads no UI, serial, database or clock-reading code."""

from __future__ import annotations

import json
import subprocess
import sys

FORBIDDEN = ("kivy", "serial", "sqlite3", "companion_app.app", "companion_app.device")


def test_importing_rules_loads_neither_kivy_nor_serial() -> None:
    script = (
        "import json, sys, pkgutil, importlib, companion_app.rules as r\n"
        "for m in pkgutil.walk_packages(r.__path__, r.__name__ + '.'):\n"
        "    importlib.import_module(m.name)\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    loaded = json.loads(out)
    offending = [m for m in loaded if m.split(".")[0] in FORBIDDEN or m.startswith(FORBIDDEN)]
    assert offending == []
    assert "companion_app.rules" in loaded
