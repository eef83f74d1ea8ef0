"""A turn in which nobody special-builds, on the real widgets; counts the tablet's taps.

Started by ``test_special_build_taps.py`` (and ``make bench``) in its own process under Xvfb.
A random game's first turn after the setup is played three ways, each from the dice box's press
that rolls (applied as the box's roll is, not a tap) to the next player's roll:

- four players (no special build phase): End turn;
- five players, the table says so: End turn, "Nobody builds";
- five players, the next player rolls: End turn, then the roll button (the virtual dice's
  press, the dice's one door) ends the phase and rolls.

Along the way: the banner says whose special build it is, a player's name starts theirs with
the turn's bar and "Done building" in End turn's place.

Usage: python special_build_taps_scenario.py --journal DB --artifacts DIR --result JSON
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from scenario_driver import ScenarioDriver, Step, scenario_main

from companion_app.app.companion import CompanionApp
from companion_app.rules.actions import (
    Action,
    EndSpecialBuild,
    EventDie,
    NobodyBuilds,
    Roll,
    StartSpecialBuild,
)
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64


def first_turn(players: int, seed: int = 3) -> tuple[GameConfig, list[Action]]:
    """A random game's actions up to its first roll after the setup."""
    config = GameConfig.for_players(players, seed=seed)
    game = Game.new(config)
    rng = SplitMix64(seed)
    while game.in_setup or game.prompt.kind is not PromptKind.ROLL:
        game.apply(choose_random_action(game, rng))
    return config, list(game.history)


def quiet_roll(game: Game) -> Roll:
    """A roll that asks nobody anything: a 5, and a castle no one draws on yet (red 3)."""
    return Roll(game.active, 2, 3, EventDie.TRADE)


class SpecialBuildTaps(ScenarioDriver):
    def __init__(self, app: CompanionApp, artifacts: Path) -> None:
        super().__init__(app, artifacts)
        self.taps = 0
        self.counts: dict[str, int] = {}

    def tap_at(self, x: float, y: float) -> None:
        self.taps += 1
        super().tap_at(x, y)

    def steps(self) -> Step:
        app = self.app
        yield lambda: app.root is not None and app.dice is not None
        yield 5
        for way in ("four", "nobody", "roll"):
            yield from self.turn(way)
        yield from self.a_special_build()

    def start(self, players: int) -> Step:
        config, before = first_turn(players)
        session = self.app.journal.new_game(config)
        for action in before:
            session.apply(action)
        self.app.open_session(session)
        yield 3
        self.app.apply(quiet_roll(session.game))  # the dice box's press
        yield 3

    def turn(self, way: str) -> Step:
        app = self.app
        yield from self.start(4 if way == "four" else 5)
        game = app.session.game
        screen = app.root.get_screen("game")
        active, next_seat = game.active, game.next_seat(game.active)
        start = self.taps
        self.tap_widget(screen.ids.end_turn)
        yield 3
        if way != "four":
            self.check(f"{way}: the table says who builds", game.prompt.kind, PromptKind.WHO_BUILDS)
            self.check(
                f"{way}: the banner says it is the special build",
                screen.headline.startswith("Special build"),
                True,
            )
            self.check(f"{way}: the roll button is armed", screen.can_roll, True)
            if way == "nobody":
                yield from self.shot("special_build_who_builds.png")
                self.tap_widget(self.button_for(screen, NobodyBuilds))
            else:
                self.tap_widget(screen.ids.roll)  # the virtual dice box's press
            yield lambda: game.prompt.kind is not PromptKind.WHO_BUILDS
            yield 3
        self.counts[way] = self.taps - start
        self.check(f"{way}: the next player's turn", game.active, next_seat)
        self.check(f"{way}: not the same player", game.active != active, True)
        if way == "roll":
            self.check("roll: the next player rolled", isinstance(game.history[-1], Roll), True)
            self.check("roll: the roll was theirs", game.history[-1].player, next_seat)
            self.check("roll: the phase is over", game.special_build, None)
        else:
            self.check(f"{way}: the next player rolls", game.prompt.kind, PromptKind.ROLL)

    def button_for(self, screen: Any, kind: type[Action], **fields: int) -> Any:
        self.lay_out()
        for button in screen.ids.actions.children:
            action = getattr(getattr(button, "choice", None), "action", None)
            if isinstance(action, kind) and all(getattr(action, k) == v for k, v in fields.items()):
                return button
        raise AssertionError(f"no button for {kind.__name__} {fields}")

    def a_special_build(self) -> Step:
        """A name starts that player's special build: the banner names them, the turn's bar
        offers what they may build, and End turn's place says Done building."""
        app = self.app
        yield from self.start(5)
        game = app.session.game
        screen = app.root.get_screen("game")
        self.tap_widget(screen.ids.end_turn)
        yield 3
        builder = game.special_builders_left()[-1]
        name = game.config.names[builder]
        self.tap_widget(self.button_for(screen, StartSpecialBuild, builder=builder))
        yield 3
        self.check("build: the builder's special build", game.prompt.player, builder)
        self.check("build: the banner names the builder", screen.headline, f"Special build: {name}")
        self.check(
            "build: End turn's place says Done building", screen.end_turn_text, "Done building"
        )
        self.check(
            "build: trade is not on the bar", "offer_trade" in [b.key for b in screen.bar], False
        )
        yield from self.shot("special_build_building.png")
        self.tap_widget(screen.ids.end_turn)
        yield 3
        self.check(
            "build: done, the table says who builds next",
            isinstance(game.history[-1], EndSpecialBuild),
            True,
        )

    def result(self) -> dict[str, Any]:
        return {**super().result(), "taps": self.counts}


def main() -> int:
    return scenario_main(SpecialBuildTaps, dice_seed=3)


if __name__ == "__main__":
    sys.exit(main())
