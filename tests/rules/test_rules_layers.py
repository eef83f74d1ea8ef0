"""The rules package's shape: imports one way (no cycles) and no module reaching into another's
private names. Read from the source with ``ast``. Every import counts, those under
``if TYPE_CHECKING:`` (for annotations only) and inside functions too: a cycle in the types is
a cycle the next reader has to untangle all the same."""

from __future__ import annotations

import ast
from pathlib import Path

import companion_app.rules

PACKAGE = "companion_app.rules"
ROOT = Path(companion_app.rules.__file__).parent
MODULES = {
    ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): ast.parse(
        path.read_text()
    )
    for path in sorted(ROOT.rglob("*.py"))
}


def rules_imports(tree: ast.AST) -> dict[str, set[str]]:
    """Modules of the package imported (anywhere), with the names taken from each."""
    imported: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == PACKAGE:
                for alias in node.names:
                    imported.setdefault(alias.name, set())
            elif node.module.startswith(PACKAGE + "."):
                name = node.module.removeprefix(PACKAGE + ".")
                imported.setdefault(name, set()).update(a.name for a in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PACKAGE + "."):
                    imported.setdefault(alias.name.removeprefix(PACKAGE + "."), set())
    return imported


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for nxt in sorted(graph.get(module, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            cycle = visit(module)
            if cycle:
                return cycle
    return None


def own_private_names(tree: ast.AST) -> set[str]:
    """Private names a module defines: functions, classes, globals and attributes it sets."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Attribute):
            names.add(node.target.attr)
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def private_reaches(module: str, tree: ast.AST) -> list[str]:
    own = own_private_names(tree)
    found = []
    for name, taken in rules_imports(tree).items():
        found += [f"{module} imports {name}.{t}" for t in taken if t.startswith("_")]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            attr = node.attr
            if attr.startswith("_") and not attr.startswith("__") and attr not in own:
                found.append(f"{module}:{node.lineno} reads .{attr}")
    return found


def test_the_rules_package_imports_one_way() -> None:
    graph = {name: set(rules_imports(tree)) & set(MODULES) for name, tree in MODULES.items()}
    assert find_cycle(graph) is None, f"import cycle: {' -> '.join(find_cycle(graph) or [])}"


def test_no_rules_module_reaches_into_another_modules_private_names() -> None:
    reaches = [r for name, tree in MODULES.items() for r in private_reaches(name, tree)]
    assert reaches == []


def test_the_checks_catch_a_cycle_and_a_private_access() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    tree = ast.parse(
        "from companion_app.rules import operations as ops\n"
        "from companion_app.rules.state import _hidden\n"
        "def f(game):\n    game._pay(0)\n    ops._helper()\n"
    )
    assert sorted(private_reaches("m", tree)) == [
        "m imports state._hidden",
        "m:4 reads ._pay",
        "m:5 reads ._helper",
    ]
    guarded = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from companion_app.rules.game import Game\n"
    )
    assert rules_imports(guarded) == {"game": {"Game"}}
    # A cycle made only of imports for type hints is a cycle too.
    hinted = {
        "errors": "if TYPE_CHECKING:\n    from companion_app.rules.actions import Action\n",
        "actions": "from companion_app.rules.errors import RulesError\n",
    }
    graph = {name: set(rules_imports(ast.parse(text))) for name, text in hinted.items()}
    assert find_cycle(graph) == ["actions", "errors", "actions"]


def test_the_layers_are_in_place() -> None:
    graph = {name: set(rules_imports(tree)) & set(MODULES) for name, tree in MODULES.items()}
    mechanics = {"base", "robber", "knights", "barbarians", "improvements", "progress"}
    below_the_game = {"state", "operations", "turnflow", "declare", "codec", "views", "registry"}
    for module in below_the_game | mechanics:
        assert "game" not in graph[module], module
    for low in ("state", "operations", "turnflow", "declare", "codec", "views", "events", "words"):
        assert not graph[low] & mechanics, low
    assert len((ROOT / "game.py").read_text().splitlines()) < 400


def test_every_action_type_is_declared_once_with_its_prompts_and_a_summary() -> None:
    from companion_app.rules import registry
    from companion_app.rules.actions import ACTION_TYPES
    from companion_app.rules.prompts import PromptKind

    assert set(registry.RULES) == set(ACTION_TYPES.values())
    for rule in registry.RULES.values():
        assert rule.prompts and str(rule.summary) == str(rule.summary).strip() != ""
    answered = {kind for rule in registry.RULES.values() for kind in rule.prompts}
    assert answered == set(PromptKind) - {PromptKind.GAME_OVER}
    assert set(registry.OPTIONS) == answered
