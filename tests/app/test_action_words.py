"""Button words read the rules core's summary of an action (one place declares an action)."""

from __future__ import annotations

from companion_app.presenters.wording import describe_action
from companion_app.rules.actions import BuildKnight, BuildRoad, PlayDiplomat, PlayInventor
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.registry import summary
from tests.said import said


def test_board_actions_are_described_with_the_registry_summary_and_their_spot() -> None:
    game = Game.new(GameConfig.for_players(4))
    assert said(summary(BuildRoad(0, 5))) == "build a road"
    assert describe_action(game, BuildRoad(0, 5)) == "Build a road at edge 5"
    assert describe_action(game, BuildKnight(1, 12)) == "Build a basic knight at node 12"
    assert describe_action(game, PlayDiplomat(0, 33)) == "Diplomat: remove an open road at edge 33"
    assert describe_action(game, PlayInventor(0, 4, 11)) == (
        "Inventor: swap the tokens of hexes 4 and 11"
    )
