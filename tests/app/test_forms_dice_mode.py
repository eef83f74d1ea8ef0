"""The dice mode on the new-game form: chosen among the three, carried into the game's config."""

from __future__ import annotations

import pytest

from companion_app.presenters.forms import DICE_MODE_NOTES, NewGameForm
from companion_app.rules.board import STARTER_BOARD
from companion_app.rules.config import DICE_MODES


def test_a_new_game_is_fair_unless_the_table_chooses_otherwise() -> None:
    form = NewGameForm()
    assert form.config(STARTER_BOARD).dice_mode == "fair"
    assert "dice_mode" not in form.config(STARTER_BOARD).to_json()


@pytest.mark.parametrize("mode", ["balanced", "deck", "fair"])
def test_the_chosen_mode_goes_into_the_config(mode: str) -> None:
    form = NewGameForm()
    form.set_dice_mode("deck" if mode == "fair" else "fair")
    assert form.set_dice_mode(mode) == mode
    assert form.config(STARTER_BOARD, game_seed=5).dice_mode == mode


def test_a_mode_that_is_not_one_leaves_the_choice() -> None:
    form = NewGameForm()
    form.set_dice_mode("balanced")
    assert form.set_dice_mode("loaded") == "balanced"
    assert form.config(STARTER_BOARD).dice_mode == "balanced"


def test_every_mode_has_its_note_on_the_screen() -> None:
    assert tuple(DICE_MODE_NOTES) == DICE_MODES
    assert "12 left" in DICE_MODE_NOTES["balanced"] and "5 left" in DICE_MODE_NOTES["deck"]
