"""A touch-driven run of the real app, started by ``test_app_ui.py`` in its own process.

Starts the app at 1280x800 on the display in ``$DISPLAY``, then taps through it the way a
table would: a new game on the starter board with three players, the whole initial placement by
tapping highlighted intersections and edges, five rolls with the on-screen roll button (the
virtual dice box), ending each turn with its button. After every step it compares what the
widgets show with the rules core's state and records each comparison; it saves a screenshot of
every screen. The result (checks, failures, final state) goes to a JSON file.

Usage: python ui_scenario.py --journal DB --artifacts DIR --result JSON
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from scenario_driver import ScenarioDriver, Step, scenario_main

from companion_app.app.companion import CompanionApp
from companion_app.app.widgets.player_panel import panel_text
from companion_app.game_log import GameLog
from companion_app.i18n import render
from companion_app.presenters import board_picture as B
from companion_app.presenters import choices as C
from companion_app.presenters import info_presenter as I
from companion_app.presenters import wording as W
from companion_app.rules.actions import BuildCity, EndTurn, Roll
from companion_app.rules.prompts import PromptKind
from companion_app.rules.topology import NODE_HEXES

ROLLS = 5


class Scenario(ScenarioDriver):
    draws_every_frame = False  # only the screenshots (their pixels are read): checks read widgets

    def __init__(self, app: CompanionApp, artifacts: Path) -> None:
        self.leds: list[str] = []
        self.pieces: list[dict[str, Any]] = []
        self.built = ""
        super().__init__(app, artifacts)

    # ---- the run ----------------------------------------------------------------------------

    def steps(self) -> Step:
        app = self.app
        yield lambda: app.root is not None and app.dice is not None
        yield 5
        home = app.root.get_screen("home")
        yield from self.shot("ui_01_home.png")
        yield from self.settings_popup(home)
        self.tap_widget(home.ids.new_game)
        yield 2
        new_game = app.root.get_screen("new_game")
        self.check("screen after New game", app.root.current, "new_game")
        # The random balanced board: its seed is shown and a re-roll changes it.
        self.tap_widget(new_game.ids.board_random)
        yield 2
        seed = new_game.form.seed
        self.check("seed shown", new_game.ids.seed.text, f"Seed {seed}  (balanced)")
        self.tap_widget(new_game.ids.reroll)
        yield 2
        self.check("re-roll changes the seed", new_game.form.seed != seed, True)
        new_seed = new_game.form.seed
        self.check("new seed shown", new_game.ids.seed.text, f"Seed {new_seed}  (balanced)")
        yield from self.shot("ui_02_new_game_random.png")
        yield from self.random_board_to_build(new_game)
        yield from self.enter_board_by_taps(new_game)
        # Three players: the fourth seat is left empty; the starter board.
        self.tap_widget(new_game.rows[3].ids.plays)
        self.tap_widget(new_game.ids.board_starter)
        yield 2
        self.check("players seated", new_game.form.player_count, 3)
        yield from self.shot("ui_03_new_game.png")
        self.tap_widget(new_game.ids.next)
        yield 2
        self.check("screen after Next", app.root.current, "build_table")
        table = app.root.get_screen("build_table")
        from companion_app.rules.board import STARTER_BOARD

        tokens = tuple(h.token for h in table.ids.board.picture.hexes)
        self.check("build-table tokens are the starter board's", tokens, STARTER_BOARD.tokens)
        yield from self.shot("ui_04_build_table.png")
        self.tap_widget(table.ids.start)
        yield 3
        self.check("screen after start", app.root.current, "game")
        yield from self.setup_by_taps()
        for i in range(1, ROLLS + 1):
            yield from self.roll_and_end_turn(i)
        app.show("home")
        yield 3
        buttons = [b for b in home.ids.games.walk(restrict=True) if hasattr(b, "game_id")]
        game_id = app.session.game_id
        state = app.session.game.to_json()
        self.check("the game is offered for resume", [b.game_id for b in buttons], [game_id])
        yield from self.shot("ui_09_home_resume.png")
        self.tap_widget(buttons[0])
        yield 3
        self.check("resumed: screen", app.root.current, "game")
        self.check(
            "resumed: the same game, replayed from the journal",
            (app.session.game_id, app.session.game.to_json() == state),
            (game_id, True),
        )
        self.compare_screen("resumed")

    def settings_popup(self, home: Any) -> Step:
        """Settings: the dice source and where the journal is."""
        from kivy.core.window import Window
        from kivy.uix.popup import Popup

        self.tap_widget(home.ids.settings)
        yield 10  # the popup opens with an animation
        popups = [w for w in Window.children if isinstance(w, Popup)]
        self.check("settings open", len(popups), 1)
        texts = [w.text for w in popups[0].walk() if hasattr(w, "text")]
        self.check(
            "settings name the journal", f"Game journal: {self.app.journal_path}" in texts, True
        )
        yield from self.shot("ui_01b_settings.png")
        yield from self.tap_button(popups[0], "Close")
        yield 10
        self.check("settings closed", [w for w in Window.children if isinstance(w, Popup)], [])

    def random_board_to_build(self, new_game: Any) -> Step:
        """A generated board: the table is shown it large, with its seed, to lay it out."""
        from companion_app.rules.board import random_balanced_board

        seed = new_game.form.seed
        self.tap_widget(new_game.ids.next)
        yield 2
        table = self.app.root.get_screen("build_table")
        board = random_balanced_board(seed)
        shown = table.ids.board.picture
        self.check(
            "random board: title names the seed", table.title, f"Build your table · seed {seed}"
        )
        self.check(
            "random board: terrains and tokens shown",
            [(h.terrain, h.token) for h in shown.hexes],
            list(zip(board.terrains, board.tokens, strict=True)),
        )
        self.check(
            "random board: harbours shown",
            [h for _s, _l, h in shown.harbours],
            list(board.harbours),
        )
        yield from self.shot("ui_04c_build_table_random.png")
        self.tap_widget(table.ids.back)
        yield 2

    def enter_board_by_taps(self, new_game: Any) -> Step:
        """The table's own board: positions tapped on the board, values on the palette, and the
        rules core's verdict shown."""
        app = self.app
        self.tap_widget(new_game.ids.board_table)
        yield 2
        self.tap_widget(new_game.ids.next)
        yield 2
        table = app.root.get_screen("build_table")
        self.check("entering: mode", (app.root.current, table.mode), ("build_table", "enter"))
        yield from self.tap_spot(table.ids.board, ("hex", 5))
        self.check("entering: tapped hex selected", table.ids.board.selected, ("hex", 5))
        yield from self.tap_button(table.ids.palette, "hills")
        yield from self.tap_button(table.ids.palette, "6")
        self.check(
            "entering: hex 5 entered",
            (table.entry.terrains[5].value, table.entry.tokens[5]),
            ("hills", 6),
        )
        self.check(
            "entering: moved on to the first empty hex", table.ids.board.selected, ("hex", 0)
        )
        self.check(
            "entering: the rules core names what is missing",
            table.error,
            "1/28 · hex 0 is missing; a board has 19 hexes",
        )
        self.check("entering: cannot start yet", table.ids.start.disabled, True)
        yield from self.shot("ui_04a_enter_board.png")
        self.tap_widget(table.ids.starter_fill)
        yield 2
        self.check(
            "entering: starter layout accepted",
            (table.ready, table.ids.start.disabled),
            (True, False),
        )
        yield from self.tap_spot(table.ids.board, ("hex", 5))
        yield from self.tap_button(table.ids.palette, "hills")
        yield from self.tap_button(table.ids.palette, "6")
        self.check(
            "entering: a fourth hills hex is refused",
            table.error,
            "28/28 · hills: 4 hexes, a board has 3",
        )
        self.check("entering: refused board cannot start", table.ids.start.disabled, True)
        yield from self.shot("ui_04b_enter_board_error.png")
        yield from self.tap_spot(table.ids.board, ("hex", 5))
        yield from self.tap_button(table.ids.palette, "pasture")
        yield from self.tap_button(table.ids.palette, "4")
        self.check("entering: corrected", table.error, "Board checked: it is a valid board.")
        self.tap_widget(table.ids.back)
        yield 2
        self.check("entering: back to the new game", app.root.current, "new_game")

    def game_screen(self) -> Any:
        return self.app.root.get_screen("game")

    def compare_screen(self, label: str) -> None:
        """What the game screen shows against the rules core's state."""
        game = self.app.session.game
        screen = self.game_screen()
        ids = screen.ids
        self.check(f"{label}: prompt", ids.prompt.text, render(game.describe_prompt()))
        self.check(f"{label}: turn", ids.turn.text, W.turn_words(game))
        self.check(
            f"{label}: track",
            (ids.track.position, ids.track.length),
            (game.barbarian_position, game.config.barbarian_track_length),
        )
        self.check(f"{label}: board pieces", ids.board.picture, B.board_picture(game))
        legal_spots = {B.action_spot(a) for a in game.legal_actions()} - {None}
        if C.wants_board_tap(game):
            self.check(f"{label}: highlighted spots", set(ids.board.spots), legal_spots)
        else:
            self.check(f"{label}: no spots highlighted", dict(ids.board.spots), {})
        lines = [c.text for c in reversed(ids.players.children)]
        for p, line in enumerate(lines):
            # The VP with its breakdown and the card counts; hands are private (hand screen).
            self.check(
                f"{label}: {game.config.names[p]} VP and hand shown",
                line,
                panel_text(I.panel_lines(game)[p]),
            )

    def box_leds_follow(self, label: str) -> Step:
        """The emulated box's LED strip shows the ship where the top bar's track shows it."""
        box = self.app.dice.virtual_box if self.app.dice else None
        self.check(f"{label}: virtual dice are the emulated box", box is not None, True)
        if box is None:
            return
        game = self.app.session.game
        yield lambda: box.leds() is not None
        yield lambda: _ship_led(box.leds()) == _expected_ship_led(game, box.leds())
        self.check(
            f"{label}: ship LED", _ship_led(box.leds()), _expected_ship_led(game, box.leds())
        )
        self.leds.append(box.leds())

    def setup_by_taps(self) -> Step:
        game = self.app.session.game
        screen = self.game_screen()
        board = screen.ids.board
        n = game.player_count
        yield from self.shot("ui_05_setup_start.png")
        for step in range(4 * n):
            self.compare_screen(f"setup {step}")
            order = [c for c in reversed(screen.ids.actions.children)]
            now = [i for i, c in enumerate(order) if c.state_name == "now"]
            # The list shows the rows around the current one, each row naming its seat.
            self.check(
                f"setup {step}: order marks who places",
                order[now[0]].seat if now else None,
                game.prompt.player,
            )
            spots = dict(board.spots)
            if game.prompt.kind is PromptKind.SETUP_ROAD:
                spot = min(spots, key=lambda s: s[1])
            else:
                spot = max(spots, key=lambda s: (_pips(game, s[1]), -s[1]))
            expected = spots[spot]
            before = len(game.history)
            yield from self.tap_spot(board, spot)
            self.check(
                f"setup {step}: the tap took the spot's action", game.history[before:], [expected]
            )
            if step == 1:
                yield from self.shot("ui_06_setup_first_road.png")
            if isinstance(expected, BuildCity):
                # The starting city brings its starting resources (§2), shown in the hand.
                p = expected.player
                # (the panel keeps a count with its word: no-break spaces, read as spaces)
                line = list(reversed(screen.ids.players.children))[p].text.replace("\u00a0", " ")
                start = render(W.hand_words(game.hand(p)))
                self.check(
                    f"setup {step}: starting resources shown",
                    (any(game.hand(p)), f"{game.card_count(p)} cards" in line, start in line),
                    (True, True, False),
                )
        self.check("setup over", game.in_setup, False)
        self.check("buildings after setup", len(B.board_picture(game).buildings), 2 * n)
        self.check("roads after setup", len(B.board_picture(game).roads), 2 * n)
        self.compare_screen("after setup")
        yield from self.shot("ui_07_setup_done.png")
        # Where the screenshot shows each building, for the test to look at its pixels.
        geo = board.geometry
        self.pieces = [
            {
                "node": b.node,
                "kind": b.kind,
                "colour": B.player_colour(game.config.players[b.owner].colour),
                "xy": board.to_window(*geo.node(b.node)),
                "size": geo.size,
            }
            for b in B.board_picture(game).buildings
        ]

    def build_on_the_board(self, i: int) -> Step:
        """The first time a build on the board is offered (a road, say): its button shows the
        legal places on the board, and a tap on one builds there."""
        if self.built:
            return
        game = self.app.session.game
        screen = self.game_screen()
        # The action bar's buttons whose choices are all places on the board.
        legal = game.legal_actions()
        pick = [
            b
            for b in reversed(screen.ids.bar.children)
            if all(B.action_spot(a) for a in legal if C.bar_key(a) == b.bar_key)
            and any(C.bar_key(a) == b.bar_key for a in legal)
        ]
        if not pick:
            return
        button = pick[0]
        group = next(g for g in C.action_groups(legal) if g.type_name == button.bar_key)
        self.tap_widget(button)
        yield 2
        shown = {spot: choice.action for spot, choice in screen.ids.board.spots.items()}
        self.check(
            f"roll {i}: {group.type_name} places highlighted", shown, B.spots_for(group.actions)
        )
        yield from self.shot("ui_08b_build_on_the_board.png")
        spot = min(shown)
        action = shown[spot]
        before = len(game.history)
        yield from self.tap_spot(screen.ids.board, spot)
        self.check(f"roll {i}: the tap built there", game.history[before:], [action])
        self.compare_screen(f"roll {i}: after building")
        self.built = action.type_name

    def roll_and_end_turn(self, i: int) -> Step:
        game = self.app.session.game
        screen = self.game_screen()
        yield lambda: game.awaiting_roll and screen.can_roll
        before = len(game.history)
        self.check(f"roll {i}: roll button enabled", screen.ids.roll.disabled, False)
        self.tap_widget(screen.ids.roll)
        yield (
            lambda: (
                len(game.history) > before
                and screen.ids.dice.roll is not None
                and (screen.ids.dice.roll.yellow == game.last_roll.yellow)
            )
        )
        yield 2
        roll = game.history[before]
        self.check(f"roll {i}: a roll was applied", isinstance(roll, Roll), True)
        view = W.roll_view(game)
        self.check(f"roll {i}: dice shown", screen.ids.dice.roll, view)
        self.check(f"roll {i}: roll words", screen.ids.roll_words.text, view.words if view else "")
        self.check(
            f"roll {i}: production shown",
            screen.ids.production.text,
            " · ".join(W.production_lines(game, GameLog.of(game))),
        )
        self.check(
            f"roll {i}: the log beside the board is the game's public log",
            screen.ids.log.lines,
            [render(e.text) for e in GameLog.of(game).entries],
        )
        self.check(
            f"roll {i}: the log's last lines are the roll and its production",
            [t for t in screen.ids.log.lines if "rolls" in t][-1].startswith(
                f"{game.config.names[roll.player]} rolls {roll.yellow} + {roll.red}"
            ),
            True,
        )
        self.compare_screen(f"roll {i}")
        yield from self.box_leds_follow(f"roll {i}")
        yield from self.shot(f"ui_08_roll_{i}.png")
        # Decisions a roll can bring (discards on a 7) are answered with their buttons.
        while game.prompt.kind is not PromptKind.TURN:
            reveal = [b for b in screen.ids.actions.children if getattr(b, "reveal", False)]
            if reveal:  # a discard: the picker opens after the player's tap, a choice made
                self.tap_widget(reveal[0])
                yield 8
                self.tap_widget(screen.picker_panel.ids.confirm)
                yield 2
                continue
            buttons = [b for b in screen.ids.actions.children if hasattr(b, "choice")]
            if not buttons:
                raise AssertionError(f"no button for prompt {game.prompt.kind}")
            self.tap_widget(buttons[-1])
            yield 2
        yield from self.build_on_the_board(i)
        self.check(f"roll {i}: End turn offered", screen.ids.end_turn.disabled, False)
        self.check(
            f"roll {i}: End turn is the legal action", screen.end_turn_action, EndTurn(game.active)
        )
        player = game.active
        self.tap_widget(screen.ids.end_turn)
        yield 2
        self.check(
            f"turn {i}: next player's roll",
            (game.prompt.kind, game.active),
            (PromptKind.ROLL, game.next_seat(player)),
        )
        self.compare_screen(f"after turn {i}")

    def result(self) -> dict[str, Any]:
        return {**super().result(), "leds": self.leds, "pieces": self.pieces, "built": self.built}


def _ship_led(leds: str | None) -> int | None:
    return None if not leds or "S" not in leds else leds.index("S")


def _expected_ship_led(game: Any, leds: str) -> int:
    """The LED the firmware lights for the ship (lights.py scales the track onto the strip)."""
    from companion_app.device.box_state import device_track

    pos, length = device_track(game.barbarian_position, game.config.barbarian_track_length)
    track_leds = len(leds) - 1
    return (pos * (track_leds - 1) + (length - 1) // 2) // (length - 1)


def _pips(game: Any, node: int) -> int:
    board = game.board
    return sum(B.pips(board.tokens[h]) for h in NODE_HEXES[node] if board.tokens[h])


def main() -> int:
    return scenario_main(Scenario, dice_seed=7)


if __name__ == "__main__":
    sys.exit(main())
