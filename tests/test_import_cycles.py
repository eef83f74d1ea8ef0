"""No import cycle anywhere in the package: each package's modules import one way, as the rules
core's do (tests/rules/test_rules_layers.py). Read from the source with ``ast``; every import
counts, those for type hints only (``if TYPE_CHECKING:``) and those inside functions too: a
cycle that Python happens to survive at run time is still one the next reader must untangle."""

from __future__ import annotations

import ast
from pathlib import Path

import companion_app
from tests.rules.test_rules_layers import find_cycle

TOP = "companion_app"
ROOT = Path(companion_app.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts).removesuffix(".__init__")


MODULES = {
    module_name(path): ast.parse(path.read_text(encoding="utf-8"))
    for path in sorted(ROOT.rglob("*.py"))
    if "node_modules" not in path.parts
}


def imported_modules(module: str, tree: ast.AST, known: set[str]) -> set[str]:
    """The package's modules ``module`` imports anywhere: ``from a.b import c`` names the
    module ``a.b.c`` where there is one, else ``a.b``; relative imports are resolved."""
    package = module if module in known and _is_package(module) else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            if not base.startswith(TOP):
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in known else base)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith(TOP))
    return (found & known) - {module}


def _is_package(module: str) -> bool:
    return (ROOT.parent / module.replace(".", "/") / "__init__.py").exists()


def import_graph(modules: dict[str, ast.AST]) -> dict[str, set[str]]:
    known = set(modules)
    return {name: imported_modules(name, tree, known) for name, tree in modules.items()}


def test_no_import_cycle_anywhere_in_the_package() -> None:
    graph = import_graph(MODULES)
    cycle = find_cycle(graph)
    assert cycle is None, f"import cycle: {' -> '.join(cycle or [])}"


def test_every_package_is_read() -> None:
    packages = {name.split(".")[1] for name in MODULES if name.count(".") >= 1}
    assert {"rules", "journal", "device", "phones", "i18n", "presenters", "app"} <= packages
    assert len(MODULES) > 100


def test_the_graph_sees_hinted_lazy_and_relative_imports() -> None:
    sources = {
        "companion_app.x.a": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from companion_app.x.b import B\n"
        ),
        "companion_app.x.b": "def f():\n    from companion_app.x import c\n",
        "companion_app.x.c": "from . import a\n",
        "companion_app.x": "",
    }
    modules = {name: ast.parse(text) for name, text in sources.items()}
    graph = import_graph(modules)
    assert graph["companion_app.x.a"] == {"companion_app.x.b"}
    assert graph["companion_app.x.b"] == {"companion_app.x.c"}
    assert find_cycle(graph) == [
        "companion_app.x.a",
        "companion_app.x.b",
        "companion_app.x.c",
        "companion_app.x.a",
    ]
