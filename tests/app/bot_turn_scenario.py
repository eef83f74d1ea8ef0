"""Two people and the tablet at the table, on the real widgets: Blue's seat is made the
tablet's on New game (taps on the seat's button, up to the Player), the game starts, the
people's decisions and the dice box's rolls come as a tap would, and each time the tablet has
played, its steps are shown and confirmed with one tap on Done. Screenshots of the New game
rows and of a bot turn
(and, in one run, the same turn in German).

Usage: python bot_turn_scenario.py --journal DB --artifacts DIR --result JSON
(UI_SCENARIO_SIZE=800x480 for the window's size).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from scenario_driver import ScenarioDriver, Step, scenario_main

from companion_app.app.companion import CompanionApp
from companion_app.presenters import bot_turn as BT
from companion_app.rules.actions import Action, EndTurn, EventDie, Roll
from companion_app.rules.board import STARTER_BOARD
from companion_app.rules.game import Game

SIZE = os.environ.get("UI_SCENARIO_SIZE", "1280x800")
BOT_TURNS = 2
"""Bot turns of the main game (after the setup) played through at least."""
MOST_BOT_TURNS = 6
"""At most, looking for a turn in which the tablet places a piece (for its screenshot)."""


def person(game: Game) -> Action:
    """A person at the table: End turn when they can, else the first legal choice."""
    legal = game.legal_actions()
    end = next((a for a in legal if isinstance(a, EndTurn)), None)
    return end or legal[0]


def box_roll(game: Game) -> Roll:
    """The dice box's press: no 7 (the scenario is about the tablet's turn, not the robber)."""
    n = len(game.history)
    yellow, red = 1 + n % 6, 1 + (n // 6) % 6
    if yellow + red == 7:
        red = red % 6 + 1
    return Roll(game.prompt.player, yellow, red, EventDie.SHIP)


class BotTurnScenario(ScenarioDriver):
    def __init__(self, app: CompanionApp, artifacts: Path) -> None:
        super().__init__(app, artifacts)
        self.taps = 0
        self.turns: list[dict[str, Any]] = []
        self.shown = False
        """The screenshot of a main-game bot turn was taken."""

    def tap_at(self, x: float, y: float) -> None:
        self.taps += 1
        super().tap_at(x, y)

    def steps(self) -> Step:
        app = self.app
        yield lambda: app.root is not None and app.dice is not None
        yield 5
        form_screen = app.show("new_game")
        yield 3
        rows = form_screen.rows
        yield from self.tap(rows[3].ids.plays)  # three seats
        for _level in ("learner", "player"):  # Blue: the tablet, as the Player (quicker)
            yield from self.tap(rows[1].ids.seat)
        yield 3
        self.check("new game: Blue's seat is the tablet's", rows[1].ids.seat.text, "Tablet: Player")
        self.check("new game: Red's seat a person's", rows[0].ids.seat.text, "Person")
        yield from self.shot(f"bot_new_game_{SIZE}.png")
        config = form_screen.form.config(STARTER_BOARD)
        self.check(
            "new game: the config's seats", [p.bot for p in config.players], [None, "player", None]
        )
        app.start_game(config)
        yield 5
        game = app.session.game
        screen = app.root.get_screen("game")
        bots = app.bots
        for _step in range(600):
            yield lambda: bots.panel is not None or not bots.busy
            yield 2
            if bots.panel is not None:
                yield from self.confirm_turn(game, screen)
                played = sum(1 for t in self.turns if not t["setup"])
                if (played >= BOT_TURNS and self.shown) or played >= MOST_BOT_TURNS:
                    break
                continue
            if game.is_over:
                break
            if game.awaiting_roll:
                app.apply(box_roll(game))  # a press on the dice box (anyone's)
            else:
                self.check("only people are asked", BT.bot_level(game, game.prompt.player), None)
                app.apply(person(game))
        self.check(
            "the tablet played turns of the main game",
            sum(not t["setup"] for t in self.turns) >= BOT_TURNS,
            True,
        )
        yield from self.undo_the_bots_turn(game, screen)
        yield from self.phones_for_people()

    def phones_for_people(self) -> Step:
        """The phones' QR codes: one per person, none for the tablet's seat."""
        from kivy.core.window import Window

        app = self.app
        app.open_phones()
        yield 5
        popups = [w for w in Window.children if type(w).__name__ == "PhonesPopup"]
        names = [card.name for card in popups[0].ids.seats.children] if popups else []
        self.check("phones: a QR code per person only", sorted(names), ["Red", "White"])
        for popup in popups:
            popup.dismiss()
        app.stop_phones()
        yield 3

    def undo_the_bots_turn(self, game: Game, screen: Any) -> Step:
        """The person after the tablet taps Undo: the tablet's turn goes back with the tap that
        brought it (the roll for it too, after the roll's confirmation), and the decision is a
        person's again; nothing is shown or decided for the tablet meanwhile."""
        from kivy.core.window import Window

        from companion_app.app.widgets.confirm import ConfirmPopup
        from companion_app.presenters.game_controller import undo_span

        app = self.app
        yield lambda: not app.bots.busy and app.bots.panel is None
        span = undo_span(game)
        length = len(game.history)
        self.check(
            "undo: the span holds the tablet's choices", any(a.player == 1 for a in span), True
        )
        self.tap_widget(screen.ids.toolbar.ids.undo)
        yield 3
        popups = [w for w in Window.children if isinstance(w, ConfirmPopup)]
        if popups:  # the tablet's roll is in the span: the dice were thrown
            self.tap_widget(popups[0].ids.yes)
        yield lambda: len(game.history) < length
        yield 5
        self.check("undo: the whole span taken back", len(game.history), length - len(span))
        self.check("undo: a person decides", BT.bot_level(game, game.prompt.player), None)
        self.check("undo: the tablet waits", (app.bots.busy, app.bots.panel), (False, None))
        yield from self.expert_hint(game)

    def expert_hint(self, game: Game) -> Step:
        """The person deciding now uncovers their hand and asks what the Expert would do."""
        app = self.app
        hand = app.show("hand")
        yield 3
        self.check("hint: not before the cards are shown", getattr(hand, "expert_hint", None), None)
        yield from self.tap(hand.ids.cover)
        hint = hand.expert_hint
        self.check("hint: offered under the hand", hint.parent is not None, True)
        yield from self.tap(hint.ask_button)
        yield lambda: hint.answer.text.startswith("The Expert would: ")
        yield 10
        self.check("hint: the answer in sight", _in_window(hint.answer), True)
        yield from self.shot(f"bot_hint_{SIZE}.png")
        # A language switch while the answer is shown: the answer in the new language too.
        app.switch_language("de")
        yield 3
        self.check("hint: the answer in German", hint.answer.text[:19], "Der Experte würde: ")
        app.switch_language("en")
        yield 3
        self.check("hint: back in English", hint.answer.text[:18], "The Expert would: ")
        yield from self.tap(hand.ids.done)
        self.check("hint: covered with the cards", hint.parent, None)
        app.show("game")
        yield 3

    def confirm_turn(self, game: Game, screen: Any) -> Step:
        app = self.app
        panel = app.bots.panel
        setup = game.in_setup
        steps = panel.steps.steps
        main_turns = sum(1 for t in self.turns if not t["setup"])
        self.check("the steps name the tablet's seat", any(s.seat == 1 for s in steps), True)
        self.check(
            "every bot choice has its reason",
            all(s.reason is not None for s in steps if s.seat == 1 and s.spot is not None),
            True,
        )
        self.check(
            "a place is lit on the board",
            set(screen.ids.board.spots) >= set(panel.steps.spots),
            True,
        )
        board = screen.ids.board
        if panel.steps.spots and board.zooms:
            self.check("the board zooms in on the tablet's piece", board.zoom.factor > 1, True)
        if not setup and not self.shown and (panel.steps.spots or main_turns + 1 >= BOT_TURNS):
            self.shown = True
            yield from self.shot(f"bot_turn_{SIZE}.png")
            if SIZE == "800x480":
                app.switch_language("de")
                yield 3
                self.check("German: the steps again", panel.done.text, "Fertig")
                yield from self.shot(f"bot_turn_{SIZE}_de.png")
                app.switch_language("en")
                yield 3
        elif setup and not self.turns:
            yield from self.shot(f"bot_setup_{SIZE}.png")
        before = self.taps
        self.tap_widget(panel.done)
        yield lambda: app.bots.panel is None
        yield 2
        self.turns.append({"setup": setup, "taps": self.taps - before, "steps": len(steps)})

    def result(self) -> dict[str, Any]:
        return {**super().result(), "turns": self.turns}


def _in_window(widget: Any) -> bool:
    """The widget lies wholly inside the scroll view around it (not scrolled out of sight)."""
    from kivy.uix.scrollview import ScrollView

    view = widget.parent
    while not isinstance(view, ScrollView):
        view = view.parent
    _x, y = widget.to_window(widget.x, widget.y)
    _vx, vy = view.to_window(view.x, view.y)
    return widget.height > 0 and vy <= y and y + widget.height <= vy + view.height


def main() -> int:
    return scenario_main(BotTurnScenario, dice_seed=3)


if __name__ == "__main__":
    sys.exit(main())
