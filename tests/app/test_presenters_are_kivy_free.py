"""The presenters and controllers (``companion_app/presenters``) never import Kivy, so they are
unit-tested without a window; the Kivy screens and widgets live in ``companion_app/app``."""

from __future__ import annotations

import ast
from pathlib import Path

import companion_app.presenters

PACKAGE = Path(companion_app.presenters.__file__).parent


def imported_modules(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_no_presenter_imports_kivy_or_the_app() -> None:
    offenders = {
        path.name: sorted(
            name
            for name in imported_modules(ast.parse(path.read_text(encoding="utf-8")))
            if name.split(".")[0] == "kivy" or name.startswith("companion_app.app")
        )
        for path in sorted(PACKAGE.glob("*.py"))
    }
    assert {name: mods for name, mods in offenders.items() if mods} == {}
    assert len(offenders) >= 12  # the package is not empty
