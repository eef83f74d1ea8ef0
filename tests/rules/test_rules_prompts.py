"""Every prompt kind declared once (a ``PromptRule`` beside the actions answering it): who
decides, what the shared screen and the phones may show, the card picker's hand and heading, the
banner's words; and no module outside the rules core branches on a prompt's kind."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import companion_app
from companion_app.rules import registry
from companion_app.rules.declare import Decider, PickedHand
from companion_app.rules.messages import Plural
from companion_app.rules.prompts import Prompt, PromptKind
from tests.said import said

ROOT = Path(companion_app.__file__).parent
KIND_NAMES = {k.name for k in PromptKind}
KIND_VALUES = {k.value for k in PromptKind}

DETAILS_FIELDS = {"offerer", "gives", "takes", "active", "offered"}


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def _counted_once(words: str | Plural) -> bool:
    """Words without a count, or one sentence with its plural counting ``{count}``: never a
    counted phrase glued in (its case is the phrase's, not the sentence's)."""
    if isinstance(words, Plural):
        return _fields(words.singular) == _fields(words.plural) == {"count"}
    return not _fields(words)


def test_every_prompt_kind_is_declared_once_in_the_module_of_its_mechanic() -> None:
    declared = [rule.kind for module in registry.MECHANICS for rule in module.PROMPTS]
    assert sorted(k.value for k in declared) == sorted(KIND_VALUES)
    # Beside the actions that answer it: every prompt but the end is answered by some action.
    answered = {kind for rule in registry.RULES.values() for kind in rule.prompts}
    assert answered == set(PromptKind) - {PromptKind.GAME_OVER}


def test_each_declaration_is_consistent_and_its_words_are_one_template() -> None:
    for kind, rule in registry.PROMPTS.items():
        english = said(registry.prompt_words(Prompt(kind, 0, 2)))
        assert english and english == english.strip(), kind
        assert _counted_once(rule.words) and _counted_once(rule.sea_words), kind
        assert _fields(rule.details) <= DETAILS_FIELDS, kind
        phone = rule.phone_details
        assert (
            _counted_once(phone) if isinstance(phone, Plural) else _fields(phone) <= DETAILS_FIELDS
        )
        assert _fields(rule.shown) <= {"target", "cards"}, kind
        if rule.picker is not None and rule.picker.hand is PickedHand.BANK:
            # The bank's resources (a gold field's choice, §13.5): nothing hidden.
            assert not rule.private and rule.phone and not rule.shown, kind
        elif rule.picker is not None:
            # Choosing among hidden cards: private, on the decider's phone, words to show.
            assert rule.private and rule.phone and rule.shown, kind
        if rule.picker is not None:
            # One sentence counted by the cards to choose, and Confirm naming them.
            heading = rule.picker.heading
            assert _fields(heading.singular) == _fields(heading.plural), kind
            assert {"player", "count"} <= _fields(heading.singular), kind
            assert _fields(heading.singular) <= {"player", "count", "active", "target"}, kind
            assert _fields(rule.picker.confirm) == {"cards"}, kind
        if rule.private:
            assert kind in registry.ALWAYS_ASKED, kind
    assert {
        PromptKind.DISCARD,
        PromptKind.WEDDING_GIVE,
        PromptKind.HARBOR_ANSWER,
        PromptKind.PROGRESS_DISCARD,
        PromptKind.SPY,
        PromptKind.MASTER_MERCHANT,
        PromptKind.GOLD,  # a gold field's choice among the bank's resources (§13.5)
    } == registry.PICKER_PROMPTS
    assert (
        registry.PICKER_PROMPTS
        | {
            PromptKind.TRADE_RESPONSE,
            PromptKind.DESERTER_REMOVE,
        }
        == registry.PHONE_PROMPTS
    )
    assert {k for k, r in registry.PROMPTS.items() if r.decider is Decider.ON_TURN} == {
        PromptKind.ROLL,
        PromptKind.TURN,
    }
    assert registry.PROMPTS[PromptKind.SPY].picker.hand is PickedHand.TARGET_PROGRESS  # type: ignore[union-attr]


def test_the_banner_words_come_from_the_declaration() -> None:
    names = ("Anna", "Ben", "Cleo")
    assert said(registry.describe_prompt(Prompt(PromptKind.WEDDING_GIVE, 1, 2), names)) == (
        "Ben: Wedding: give 2 cards of your choice"
    )
    assert said(registry.describe_prompt(Prompt(PromptKind.PROGRESS_DISCARD, 2, 1))) == (
        "Player 3: more than 4 progress cards: discard 1 card"
    )
    assert said(registry.describe_prompt(Prompt(PromptKind.FREE_ROAD, 0, 1), names)) == (
        "Anna: build 1 road free, or stop"
    )
    sea = registry.describe_prompt(Prompt(PromptKind.FREE_ROAD, 0, 2), names, sea=True)
    assert said(sea) == "Anna: build 2 roads or ships free, or stop"


# ---- no module outside the rules core branches on a prompt's kind -----------------------------


def branches_on_prompt_kinds(tree: ast.AST) -> list[int]:
    """Lines naming a prompt kind (``PromptKind.DISCARD``) or comparing with a kind's value."""
    lines = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr in KIND_NAMES
            and isinstance(node.value, ast.Name)
            and node.value.id == "PromptKind"
        ):
            lines.append(node.lineno)
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            mentions_kind = any("kind" in ast.unparse(side) for side in sides)
            values = {
                c.value
                for side in sides
                for c in ast.walk(side)
                if isinstance(c, ast.Constant) and isinstance(c.value, str)
            }
            if mentions_kind and values & KIND_VALUES:
                lines.append(node.lineno)
    return sorted(lines)


def test_the_scan_finds_a_branch_on_a_prompt_kind() -> None:
    tree = ast.parse(
        "def f(game):\n"
        "    if game.prompt.kind is PromptKind.SPY:\n"
        "        return 1\n"
        "    if game.prompt.kind.value in ('discard', 'turn'):\n"
        "        return 2\n"
        "    return [k for k in PromptKind]\n"
    )
    assert branches_on_prompt_kinds(tree) == [2, 4]


def test_no_module_outside_the_rules_core_branches_on_prompt_kinds() -> None:
    rules = ROOT / "rules"
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted(ROOT.rglob("*.py"))
        if rules not in path.parents
        for line in branches_on_prompt_kinds(ast.parse(path.read_text()))
    ]
    assert found == []
