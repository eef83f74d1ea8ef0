"""The phone page names the game's dice mode (phone.js shows it under the last roll)."""

from __future__ import annotations

import pytest

from companion_app.phones.view import seat_page
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game


@pytest.mark.parametrize("mode", ["fair", "balanced", "deck"])
def test_the_page_carries_the_games_dice_mode(mode: str) -> None:
    game = Game.new(GameConfig.for_players(3, seed=2, dice_mode=mode))
    assert seat_page(game, 1)["dice_mode"] == mode
