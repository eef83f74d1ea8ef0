"""A 7 with two players over the hand limit, answered by touch in the real app; counts taps.

Started by ``test_seven_taps.py`` (and ``make bench``) in its own process under Xvfb. The game
is a random game's start, applied through the journal session up to a 7 that leaves two
players over the limit; from the roll on, every step is a tap on the real widgets: each
discarding player's "Show my cards" (the tablet has been passed to them) and the picker's
Confirm; in a second pass the first player changes the suggestion by one card (− then +).

Usage: python seven_taps_scenario.py --journal DB --artifacts DIR --result JSON
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from scenario_driver import ScenarioDriver, Step, scenario_main

from companion_app.app.companion import CompanionApp
from companion_app.rules.actions import Action, Roll
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64


def seven_with_two_over_the_limit() -> tuple[GameConfig, list[Action], Roll, list[int]]:
    """The first random game (by seed) with a 7 that makes exactly two players discard."""
    for seed in range(200):
        config = GameConfig.for_players(4, seed=seed)
        game = Game.new(config)
        rng = SplitMix64(seed)
        while game.turn < 200 and not game.is_over:
            action = choose_random_action(game, rng)
            if isinstance(action, Roll) and action.total == 7 and not game.in_easy_start():
                over = [p for p in range(4) if game.card_count(p) > game.discard_limit(p)]
                if len(over) == 2:
                    return config, list(game.history), action, over
            game.apply(action)
    raise AssertionError("no 7 with two players over the limit in 200 random games")


class SevenTaps(ScenarioDriver):
    def __init__(self, app: CompanionApp, artifacts: Path) -> None:
        super().__init__(app, artifacts)
        self.taps = 0
        self.passes: list[dict[str, Any]] = []
        self.hands_before: list[tuple[int, tuple[int, ...]]] = []
        """(seat, hand) before each Confirm of the last pass."""

    def tap_at(self, x: float, y: float) -> None:
        self.taps += 1
        super().tap_at(x, y)

    def steps(self) -> Step:
        app = self.app
        yield lambda: app.root is not None and app.dice is not None
        yield 5
        config, before, seven, over = seven_with_two_over_the_limit()
        for change in (False, True):
            session = app.journal.new_game(config)
            for action in before:
                session.apply(action)
            app.open_session(session)  # as a resumed game: past attacks are not news
            yield 3
            app.apply(seven)  # the dice box's 7
            yield 3
            yield from self.discards(over, change)
        yield from self.undo_and_redo(over)
        yield from self.moved_on_elsewhere(config, before, seven)

    def discards(self, over: list[int], change: bool) -> Step:
        app = self.app
        game = app.session.game
        screen = app.root.get_screen("game")
        start = self.taps
        self.hands_before = []
        deciders = []
        per_card = 0
        for turn in range(len(over)):
            self.check(f"discard {turn}: a discard is due", game.prompt.kind, PromptKind.DISCARD)
            per_card += 1 + game.prompt.count  # the anchor: reveal, then one tap per card
            deciders.append(game.prompt.player)
            self.check(
                f"discard {turn}: the banner names the discarding player",
                game.config.names[game.prompt.player] in screen.headline,
                True,
            )
            reveal = [b for b in screen.ids.actions.children if getattr(b, "reveal", False)]
            self.check(f"discard {turn}: one Show my cards", len(reveal), 1)
            if not change and turn == 0:
                yield from self.shot("seven_covered.png")
            self.tap_widget(reveal[0])
            yield lambda: screen.picker_panel is not None
            yield 8
            panel = screen.picker_panel
            if not change and turn == 0:
                yield from self.shot("seven_picker.png")
            if change and turn == 0:
                # Keep one card of the most chosen kind, give one of another kind instead.
                rows = panel.picker.rows
                most = max(range(len(rows)), key=lambda i: rows[i].chosen)
                self.tap_widget(panel.lines[most].ids.minus)
                other = next(i for i in range(len(rows)) if i != most and panel.picker.can_add(i))
                self.tap_widget(panel.lines[other].ids.plus)
                yield 2
                yield from self.shot("seven_picker_changed.png")
            before = len(game.history)
            self.hands_before.append((game.prompt.player, tuple(game.hand(game.prompt.player))))
            self.tap_widget(panel.ids.confirm)
            yield lambda n=before: len(game.history) > n
            yield 3
        self.check("the discards were made", game.prompt.kind is PromptKind.DISCARD, False)
        self.check("each player over the limit discarded", sorted(deciders), sorted(over))
        self.passes.append({"changed": change, "taps": self.taps - start, "per_card": per_card})
        yield from self.shot("seven_done.png" if not change else "seven_done_changed.png")

    def undo_and_redo(self, over: list[int]) -> Step:
        """The toolbar's Undo takes back one player's whole discard per tap (the last first),
        back at that player's covered decision; Redo takes it again."""
        app = self.app
        game = app.session.game
        screen = app.root.get_screen("game")
        toolbar = screen.ids.toolbar.ids
        after = [tuple(game.hand(p)) for p in range(game.player_count)]
        for seat, hand in reversed(self.hands_before):
            self.tap_widget(toolbar.undo)
            yield 3
            self.check(f"undo: {seat}'s hand as before the Confirm", tuple(game.hand(seat)), hand)
            self.check(
                f"undo: {seat}'s discard is due again",
                (game.prompt.kind, game.prompt.player),
                (PromptKind.DISCARD, seat),
            )
            self.check(f"undo: {seat}'s cards covered", screen.controller.revealed, False)
        yield from self.shot("seven_undone.png")
        for _seat in over:
            self.tap_widget(toolbar.redo)
            yield 3
        self.check(
            "redo: both discards again",
            [tuple(game.hand(p)) for p in range(game.player_count)],
            after,
        )

    def moved_on_elsewhere(self, config: GameConfig, before: list[Action], seven: Roll) -> Step:
        """The picker is open and the decision is answered by another path (a direct change
        of the session, as the tour makes): the picker closes by itself, nothing applied twice."""
        app = self.app
        session = app.journal.new_game(config)
        for action in before:
            session.apply(action)
        app.open_session(session)
        yield 3
        app.apply(seven)
        yield 3
        game = session.game
        screen = app.root.get_screen("game")
        self.lay_out()
        reveal = [b for b in screen.ids.actions.children if getattr(b, "reveal", False)]
        self.tap_widget(reveal[0])
        yield lambda: screen.picker_panel is not None
        picked = screen.controller.picker.actions()
        for action in picked:
            session.apply(action)  # not through the screen, and no redraw
        length = len(game.history)
        yield lambda: screen.picker_panel is None
        yield 3
        self.check("elsewhere: nothing applied twice", len(game.history), length)
        self.check("elsewhere: the next player's discard", game.prompt.kind, PromptKind.DISCARD)
        self.check("elsewhere: the picker closed by itself", screen.picker_panel, None)
        self.check("elsewhere: the cards are covered", screen.controller.revealed, False)
        from kivy.core.window import Window
        from kivy.uix.modalview import ModalView

        self.check(
            "elsewhere: no dialog left open",
            [w for w in Window.children if isinstance(w, ModalView)],
            [],
        )

    def result(self) -> dict[str, Any]:
        per_card = self.passes[0]["per_card"] if self.passes else None
        return {**super().result(), "passes": self.passes, "per_card_taps": per_card}


def main() -> int:
    return scenario_main(SevenTaps, dice_seed=3)


if __name__ == "__main__":
    sys.exit(main())
