"""Why not? asked by touch in the real app; counts taps.

Started by ``test_why_not_ui.py`` in its own process under Xvfb. A random game's turn where the
player on turn holds cards but cannot build a city: "Why not?" on the action bar opens the
reasons (the public ones readable at once, the city's covered), "Show my cards" uncovers the
city's ("A city needs 2 grain and 3 ore: you have …"), Close covers the cards again; opened
again, the panel closes by itself when the turn ends by another path.

Usage: python why_not_scenario.py --journal DB --artifacts DIR --result JSON
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from scenario_driver import ScenarioDriver, Step, scenario_main

from companion_app.app.companion import CompanionApp
from companion_app.i18n import SOURCE, catalogue
from companion_app.presenters.why_not import WHY_NOT_KEY
from companion_app.rules.actions import Action, BuildCity, EndTurn
from companion_app.rules.cards import Card
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.pieces import SETTLEMENT
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64


def a_turn_without_a_city() -> tuple[GameConfig, list[Action]]:
    """The first random game's turn (from turn 8) whose player holds a settlement and some
    cards, but not a city's price."""
    for seed in range(100):
        config = GameConfig.for_players(4, seed=seed)
        game = Game.new(config)
        rng = SplitMix64(seed)
        while game.turn < 60 and not game.is_over:
            p = game.active
            if (
                game.turn >= 8
                and game.prompt.kind is PromptKind.TURN
                and 2 <= game.card_count(p) <= 6
                and any(game.node_level[n] == SETTLEMENT for n in game.buildings_of[p])
                and game.hand(p)[Card.ORE] < 3
                and not game.progress_hand(p)
            ):
                return config, list(game.history)
            game.apply(choose_random_action(game, rng))
    raise AssertionError("no turn without a city in 100 random games")


class WhyNotTaps(ScenarioDriver):
    def __init__(self, app: CompanionApp, artifacts: Path) -> None:
        super().__init__(app, artifacts)
        self.taps = 0
        self.asked: dict[str, int] = {}

    def tap_at(self, x: float, y: float) -> None:
        self.taps += 1
        super().tap_at(x, y)

    def steps(self) -> Step:
        app = self.app
        yield lambda: app.root is not None and app.dice is not None
        yield 5
        config, before = a_turn_without_a_city()
        session = app.journal.new_game(config)
        for action in before:
            session.apply(action)
        app.open_session(session)
        yield 5
        game = session.game
        screen = app.root.get_screen("game")
        name = game.config.names[game.active]
        reason = game.why_not(BuildCity, game.active)
        self.check("the city's reason reads the hand", reason is not None and reason.private, True)
        start = self.taps
        self.tap_widget(self._bar_button(screen))
        yield lambda: screen.why_not is not None
        yield 5
        panel = screen.why_not
        self.asked["public"] = self.taps - start
        city = self._row(panel, "City")
        self.check("covered: the city's row waits behind the cards", city.covered, True)
        self.check("covered: its words are not shown", f"behind {name}'s cards" in city.text, True)
        yield from self.shot("why_not_covered.png")
        self.tap_widget(self._panel_button(panel, "reveal"))
        yield lambda: not self._row(panel, "City").covered
        yield 3
        self.asked["private"] = self.taps - start
        english = catalogue(SOURCE).render(reason.text) if reason else ""
        self.check("uncovered: the city's reason", english in self._row(panel, "City").text, True)
        self.check("uncovered: the game screen's cover is open", screen.controller.revealed, True)
        yield from self.shot("why_not_shown.png")
        self.tap_widget(self._panel_button(panel, "close"))
        yield lambda: screen.why_not is None
        yield 3
        self.check("closed: the cards are covered again", screen.controller.revealed, False)
        # Opened again, then the turn ends by another path: the panel closes by itself.
        self.tap_widget(self._bar_button(screen))
        yield lambda: screen.why_not is not None
        yield 3
        session.apply(EndTurn(game.active))
        yield lambda: screen.why_not is None
        yield 3
        self.check("elsewhere: the panel closed by itself", screen.why_not, None)
        self.check("elsewhere: the cards are covered", screen.controller.revealed, False)

    def _bar_button(self, screen: Any) -> Any:
        return next(b for b in screen.ids.bar.children if getattr(b, "bar_key", "") == WHY_NOT_KEY)

    def _row(self, panel: Any, title: str) -> Any:
        label = next(w for w in panel.rows.children if w.why_not_row.title == title)

        class Row:
            covered = label.why_not_row.covered
            text = label.text

        return Row

    def _panel_button(self, panel: Any, what: str) -> Any:
        return next(b for b in panel.buttons.children if getattr(b, what, False))

    def result(self) -> dict[str, Any]:
        return {**super().result(), "taps": self.asked}


def main() -> int:
    return scenario_main(WhyNotTaps, dice_seed=3)


if __name__ == "__main__":
    sys.exit(main())
