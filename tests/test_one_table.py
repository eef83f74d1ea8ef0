"""One table for one thing (the project's second principle): the tablet's Why not? asks about
the kinds of action the rules core names (``whynot_words.ASKED``, which the phones read through
``Game.why_not_now``), never a list of its own."""

from __future__ import annotations

import ast
from pathlib import Path

from companion_app.i18n import SOURCE, catalogue
from companion_app.presenters import choices
from companion_app.presenters import why_not as tablet
from companion_app.rules import actions
from companion_app.rules.actions import PlayProgress
from companion_app.rules.whynot_words import ASKED
from tests.rules.builders import make_game


def test_the_tablets_why_not_asks_about_the_rules_cores_kinds_in_the_bars_order() -> None:
    assert [kind for _key, kind in tablet.BAR_KINDS] == list(ASKED)
    # Each under its action type's name, the card plays under the bar's one button.
    for key, kind in tablet.BAR_KINDS:
        assert key == (choices.PROGRESS_KEY if kind is PlayProgress else kind.type_name)
    assert dict(tablet.BAR_KINDS)[choices.PROGRESS_KEY] is PlayProgress


def test_the_tablet_and_a_phone_ask_about_the_same_kinds() -> None:
    game = make_game(buildings={8: (0, "settlement")}, prompt="roll")
    seat = game.prompt.player
    # Before the roll nothing of the bar is offered: every kind has its reason on both.
    phone = game.why_not_now(seat)
    rows = tablet.why_not_rows(game, catalogue(SOURCE), revealed=True)
    assert len(rows) == len(phone) == len(ASKED)


def test_the_why_not_presenter_names_no_kind_of_action_itself() -> None:
    """It reads the kinds from the rules core: no action class of its own choosing."""
    source = Path(tablet.__file__).read_text(encoding="utf-8")
    named = {node.id for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Name)}
    kinds = {
        name
        for name, value in vars(actions).items()
        if isinstance(value, type) and issubclass(value, actions.Action)
    }
    assert named & kinds <= {"Action", "PlayProgress"}
