"""The rules core builds no sentence for people: it names one by its message id.

Read from the source with ``ast``. In ``companion_app/rules`` a text for people is a call of
``msg`` / ``nmsg`` / ``pmsg`` (or a declaration's ``N_`` / ``Nn_``) with literal message ids, so the
catalogue's extraction finds every one and the reader's language renders it. What the scan
refuses anywhere else in the package: an f-string, ``str.format`` or ``%`` on a literal, a
literal glued with ``+``, and a literal with words in it (a letter and a space) that is not a
message id, a docstring, an enum's value or part of a ``raise`` (the errors of hostile files
and of bugs, for engineers).

A module whose docstring has a line starting with ``Developer words:`` says why its texts are
for engineers (the JSON readers, the invariants, the random-game CLI); only the modules listed
in :data:`DEVELOPER_MODULES` may say so, so a mechanic cannot opt out quietly.
"""

from __future__ import annotations

import ast
from pathlib import Path

import companion_app.rules

ROOT = Path(companion_app.rules.__file__).parent
MESSAGE_CALLS = {"msg": 1, "nmsg": 2, "pmsg": 2, "N_": 1, "Nn_": 2}
"""The constructors of messages and how many literal ids each takes first."""
DEVELOPER_MODULES = {
    "__main__.py",
    "board.py",
    "board_entry.py",
    "codec.py",
    "config.py",
    "invariants.py",
    "jsonshape.py",
    "messages.py",
    "randomplay.py",
    "seamap.py",
}
MARK = "Developer words:"


def _call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _has_words(text: str) -> bool:
    return " " in text.strip() and any(c.isalpha() for c in text)


def _exempt(tree: ast.Module) -> set[int]:
    """The nodes that may hold words: docstrings and bare strings, the ids of messages, what a
    ``raise`` says, enum values, type annotations and what a value is compared with."""
    exempt: set[int] = set()

    def inside(node: ast.AST) -> None:
        exempt.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.annotation, ast.Name)
            and node.annotation.id == "TypeAlias"
            and node.value is not None
        ):
            inside(node.value)
        if isinstance(node, ast.Compare):
            exempt.update(id(n) for n in (node.left, *node.comparators) if _is_text(n))
        if isinstance(node, ast.Expr) and _is_text(node.value):
            exempt.add(id(node.value))
        elif isinstance(node, ast.Raise):
            inside(node)
        elif isinstance(node, ast.Call) and _call_name(node) in MESSAGE_CALLS:
            for arg in node.args[: MESSAGE_CALLS[_call_name(node)]]:
                exempt.add(id(arg))
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.Assign) and _is_text(item.value):
                    exempt.add(id(item.value))  # an enum member's value
        elif isinstance(node, ast.AnnAssign | ast.arg) and node.annotation is not None:
            inside(node.annotation)
        elif isinstance(node, ast.FunctionDef) and node.returns is not None:
            inside(node.returns)
    return exempt


def sentences_built(source: str) -> list[str]:
    """Where ``source`` builds or holds text for people outside a message: ``"line: what"``,
    the first finding of each line."""
    tree = ast.parse(source)
    exempt = _exempt(tree)
    found: dict[int, str] = {}
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Call) and _call_name(node) in MESSAGE_CALLS:
            ids = node.args[: MESSAGE_CALLS[_call_name(node)]]
            if len(ids) < MESSAGE_CALLS[_call_name(node)] or not all(map(_is_text, ids)):
                found.setdefault(line, f"{_call_name(node)} without a literal message id")
        if id(node) in exempt:
            continue
        if isinstance(node, ast.JoinedStr):
            found.setdefault(line, "an f-string")
        elif isinstance(node, ast.BinOp) and (_is_text(node.left) or _is_text(node.right)):
            glued = isinstance(node.op, ast.Add | ast.Mod)
            if glued and not (_is_text(node.left) and _is_text(node.right)):
                found.setdefault(line, f"text glued with {type(node.op).__name__}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("format", "format_map")
            and _is_text(node.func.value)
        ):
            found.setdefault(line, f"str.{node.func.attr}")
        elif _is_text(node) and isinstance(node, ast.Constant) and _has_words(node.value):
            found.setdefault(line, f"words outside a message: {node.value[:40]!r}")
    return [f"{line}: {what}" for line, what in sorted(found.items())]


def _docstring_marked(tree: ast.Module) -> bool:
    doc = ast.get_docstring(tree) or ""
    return any(line.strip().startswith(MARK) for line in doc.splitlines())


def test_the_scan_finds_a_sentence_built_in_each_way() -> None:
    planted = (
        "def check(game, a):\n"
        '    return f"edge {a.edge} already has a road"\n'
        "def button(game, a, names):\n"
        '    return "Build a road at edge " + str(a.edge)\n'
        "def told(t, a):\n"
        '    return "{} builds a road".format(t.who(a.player))\n'
        "def reason(game, a):\n"
        '    return "the robber must move to another hex"\n'
        "def words(card):\n"
        "    return msg(card.name)\n"
    )
    assert [f.split(":", 1)[0] for f in sentences_built(planted)] == ["2", "4", "6", "8", "10"]


def test_messages_docstrings_raises_and_enum_values_pass() -> None:
    clean = (
        '"""A module that speaks in messages."""\n'
        "class Decider(Enum):\n"
        '    ON_TURN = "on turn"\n'
        "def check(game, a):\n"
        '    """Why not, in words naming the rule."""\n'
        "    if a.edge < 0:\n"
        '        raise AssertionError(f"edge {a.edge} is below 0")\n'
        '    return msg("edge {edge} already has a road", edge=a.edge)\n'
        "def count(n):\n"
        '    return nmsg("{count} card", "{count} cards", n)\n'
        'ORE = pmsg("card", "ore")\n'
        'WORDS = N_("discard {cards}")\n'
        'HEADING = Nn_("{player}: discard {count} card", "{player}: discard {count} cards")\n'
        'NUMBERS = ", ".join(["8", "3"])\n'
    )
    assert sentences_built(clean) == []


def test_no_sentence_for_people_is_built_inside_the_rules_core() -> None:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        name = str(path.relative_to(ROOT))
        if name in DEVELOPER_MODULES:
            continue
        found += [f"{name}:{where}" for where in sentences_built(path.read_text())]
    assert found == []


def test_only_the_developer_modules_keep_english_and_each_says_why() -> None:
    marked = {
        str(path.relative_to(ROOT))
        for path in ROOT.rglob("*.py")
        if _docstring_marked(ast.parse(path.read_text()))
    }
    assert marked == DEVELOPER_MODULES
