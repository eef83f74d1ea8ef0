"""The game: top bar (prompt, last roll and production, barbarian track, dice status), the board
with the legal spots highlighted, the players, and the legal actions as buttons.

Every value on screen comes from :mod:`companion_app.app.presenter`; every tap becomes one of
``game.legal_actions()`` handed to :meth:`CompanionApp.apply`.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup

from companion_app.app import presenter as P
from companion_app.app.screens import load_kv
from companion_app.app.widgets.board_view import BoardView  # noqa: F401  (used in kv)
from companion_app.app.widgets.game_toolbar import GameToolbar  # noqa: F401
from companion_app.app.widgets.player_panel import PlayerLine, PlayerPanel  # noqa: F401
from companion_app.app.widgets.track_and_dice import BarbarianTrack, DiceView  # noqa: F401
from companion_app.rules.actions import Action, EndTurn
from companion_app.rules.game import Game

load_kv(__file__)


class GameScreen(Screen):
    roll_text = StringProperty("Roll the dice")
    can_roll = BooleanProperty(False)
    can_end_turn = BooleanProperty(False)
    in_setup = BooleanProperty(False)
    list_title = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.board_group = ""
        """The on-board action type picked from the list (e.g. build_road), or ""."""
        self.spot_actions: dict[P.Spot, Action] = {}
        self.end_turn_action: Action | None = None

    @property
    def game(self) -> Game | None:
        app = App.get_running_app()
        return None if app is None or app.session is None else app.session.game

    def on_pre_enter(self, *_args: object) -> None:
        self.refresh()

    def refresh(self) -> None:
        game = self.game
        if game is None:
            return
        ids = self.ids
        self.in_setup = game.in_setup
        ids.prompt.text = game.describe_prompt()
        ids.turn.text = P.turn_words(game)
        roll = P.roll_view(game)
        ids.dice.roll = roll
        ids.roll_words.text = roll.words if roll else "No roll yet"
        ids.production.text = "\n".join(P.production_lines(game)[:4])
        position, length = P.barbarian_track(game)
        ids.track.position, ids.track.length = position, length
        ids.track_words.text = f"Barbarians {position} / {length}"
        app = App.get_running_app()
        virtual = app.dice is None or app.dice.is_virtual
        self.can_roll = game.awaiting_roll and virtual
        if game.awaiting_roll:
            self.roll_text = "Roll the dice" if virtual else "Press the dice box's button"
        else:
            self.roll_text = "No roll due"
        ids.players.show(game)
        legal = game.legal_actions()
        self.end_turn_action = next((a for a in legal if isinstance(a, EndTurn)), None)
        self.can_end_turn = self.end_turn_action is not None
        groups = [g for g in P.action_groups(legal) if g.type_name != EndTurn.type_name]
        if game.in_setup or P.wants_board_tap(game):
            self.board_group = ""
            self.spot_actions = P.spots_for(legal)
        elif self.board_group and any(g.type_name == self.board_group for g in groups):
            group = next(g for g in groups if g.type_name == self.board_group)
            self.spot_actions = P.spots_for(group.actions)
        else:
            self.board_group = ""
            self.spot_actions = {}
        ids.board.picture = P.board_picture(game)
        ids.board.spots = dict(self.spot_actions)
        if game.in_setup:
            self._fill_placement(game)
        else:
            self._fill_actions(game, groups)

    def _fill_placement(self, game: Game) -> None:
        """The setup order with the current step marked; starting resources are in the hands."""
        self.list_title = "Placement order (tap a highlighted spot)"
        box = self.ids.actions
        box.clear_widgets()
        for step in P.placement_order(game):
            mark = {"done": "done", "now": "[b]» now[/b]", "next": ""}[step.state]
            note = f" · {step.note}" if step.note else ""
            line = PlayerLine(
                text=f"{escape_markup(step.name)}: {step.piece}   {mark}{note}",
                min_height=dp(42),
                stripe=P.player_colour(game.config.players[step.seat].colour),
                fill=(0.30, 0.33, 0.22, 1) if step.state == "now" else (0.17, 0.19, 0.23, 1),
                color=(0.6, 0.6, 0.6, 1) if step.state == "done" else (1, 1, 1, 1),
                font_size="17sp",
            )
            line.state_name = step.state
            box.add_widget(line)

    def _fill_actions(self, game: Game, groups: list[P.ActionGroup]) -> None:
        box = self.ids.actions
        box.clear_widgets()
        self.list_title = "Actions" if groups else ""
        board_tap = P.wants_board_tap(game)
        for group in groups:
            if group.on_board:
                if board_tap:
                    continue
                button = Factory.ChoiceButton(
                    text=f"{group.title} ({_places(len(group.actions))})",
                    state="down" if group.type_name == self.board_group else "normal",
                )
                button.type_name = group.type_name
                button.bind(on_release=lambda b: self.pick_group(b.type_name))
                box.add_widget(button)
                continue
            for action in group.actions:
                button = Factory.BigButton(text=P.describe_action(game, action), height="56dp")
                button.action = action
                button.bind(on_release=lambda b: self.take(b.action))
                box.add_widget(button)
        if board_tap:
            self.list_title = "Tap a highlighted place on the board"
        elif game.awaiting_roll:
            self.list_title = "Roll: the dice box's button, or the red button above"

    # ---- taps -----------------------------------------------------------------------------------

    def pick_group(self, type_name: str) -> None:
        self.board_group = "" if self.board_group == type_name else type_name
        self.refresh()

    def on_spot(self, spot: P.Spot) -> None:
        action = self.spot_actions.get(spot)
        if action is not None:
            self.board_group = ""
            self.take(action)

    def end_turn(self) -> None:
        if self.end_turn_action is not None:
            self.take(self.end_turn_action)

    def take(self, action: Action) -> None:
        App.get_running_app().apply(action)


def _places(n: int) -> str:
    return "1 place" if n == 1 else f"{n} places"
