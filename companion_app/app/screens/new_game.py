"""New game: players (names, colours, seat order, who starts), board, variants, dice source and
the dice mode.

The choices live in :class:`~companion_app.presenters.forms.NewGameForm`; the rules core's config
checks them and its error is shown as it is.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen

from companion_app.app.screens import load_kv
from companion_app.app.widgets.seat_button import add_seat_button, show_seat
from companion_app.i18n import render_error
from companion_app.i18n.current import _
from companion_app.journal import JournalError
from companion_app.journal.people import Person
from companion_app.presenters.board_picture import player_colour, text_colour_on
from companion_app.presenters.forms import (
    COLOUR_WORDS,
    DICE_MODE_NOTES,
    NewGameForm,
    known_board,
    scenario_note,
    seed_words,
)
from companion_app.rules.errors import ConfigError

load_kv(__file__)


class PlayerRow(BoxLayout):
    """One seat: plays or empty, name, colour, move up, starts."""

    index = NumericProperty(0)
    screen: Any = ObjectProperty(None)


class NewGameScreen(Screen):
    board_choice = StringProperty("starter")
    seed = NumericProperty(1)
    vp_target = NumericProperty(13)
    track_length = NumericProperty(7)
    dice_mode_note = StringProperty(DICE_MODE_NOTES["fair"])
    seed_shown = BooleanProperty(False)
    """The seed deals the board: a random one, or the harbours of New Shores for 4."""
    seed_words = StringProperty("")
    scenario_note = StringProperty("")
    error = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.form = NewGameForm()
        self.form.reroll()
        self.rows: list[PlayerRow] = []
        for i in range(len(self.form.players)):
            row = PlayerRow(index=i, screen=self)
            add_seat_button(row, partial(self.next_bot, i))
            self.rows.append(row)
            self.ids.rows.add_widget(row)
        self._filling = False
        self.show_form()

    def on_pre_enter(self, *_args: object) -> None:
        app = App.get_running_app()
        if app is not None and app.dice is not None:
            self.form.virtual_dice = app.dice.is_virtual
        if app is not None:
            try:
                self.form.known = app.journal.people()
            except JournalError:
                self.form.known = []
        self.show_form()

    def retranslate(self) -> None:
        self.form.name_defaults_again()
        self.show_form()

    def show_form(self) -> None:
        """Every control shows the form's value (the form is the only state)."""
        form = self.form
        self._filling = True
        for row, slot in zip(self.rows, form.players, strict=True):
            row.ids.plays.state = "down" if slot.plays else "normal"
            if row.ids.name.text != slot.name:
                row.ids.name.text = slot.name
            row.ids.name.disabled = not slot.plays
            colour = player_colour(slot.colour)
            row.ids.colour.text = _(COLOUR_WORDS.get(slot.colour, slot.colour))
            row.ids.colour.background_color = colour
            row.ids.colour.color = text_colour_on(colour)
            row.ids.colour.disabled = not slot.plays
            row.ids.first.state = "normal"
            row.ids.first.disabled = not slot.plays
            show_seat(row, slot)
        seated = [i for i, p in enumerate(form.players) if p.plays]
        self.rows[seated[form.first_player]].ids.first.state = "down"
        for choice in ("starter", "random", "table"):
            self.ids[f"board_{choice}"].state = "down" if form.board_choice == choice else "normal"
            # Five or six play on the 30-hex board: it has no starter layout.
            self.ids[f"board_{choice}"].disabled = choice not in form.board_choices
        self.ids.new_shores.state = "down" if form.scenario == "new_shores" else "normal"
        self.ids.new_shores.disabled = not form.may_sail
        self.scenario_note = scenario_note(form)
        self.seed_words = seed_words(form)
        self.seed_shown = bool(self.seed_words)
        self.ids.dice_virtual.state = "down" if form.virtual_dice else "normal"
        self.ids.dice_box.state = "normal" if form.virtual_dice else "down"
        for mode in DICE_MODE_NOTES:
            self.ids[f"dice_{mode}"].state = "down" if form.dice_mode == mode else "normal"
        self.dice_mode_note = DICE_MODE_NOTES[form.dice_mode]
        for name in ("easy_start", "quick_knights", "evil_barbarians"):
            self.ids[name].state = "down" if getattr(form, name) else "normal"
        self._show_known()
        self.board_choice = form.board_choice
        self.seed = form.seed
        self.vp_target = form.vp_target
        self.track_length = form.track_length
        self._filling = False

    def _show_known(self) -> None:
        """A button for each known person not at the table yet, in their colour, and one to
        the standings once anybody is known."""
        box = self.ids.known
        box.clear_widgets()
        for person in self.form.unseated():
            colour = player_colour(person.colour)
            button = Button(
                text=person.name,
                size_hint=(None, None),
                size=(dp(140), dp(48)),
                font_size=sp(18),
                shorten=True,
                text_size=(dp(128), None),
                halign="center",
                background_normal="",
                background_color=colour,
                color=text_colour_on(colour),
            )
            button.bind(on_release=lambda _b, p=person: self.seat_known(p))
            box.add_widget(button)
        if self.form.known:
            standings = Button(
                text=_("Standings"),
                size_hint=(None, None),
                size=(dp(140), dp(48)),
                font_size=sp(18),
                background_normal="",
                background_color=(0.22, 0.42, 0.62, 1),
            )
            standings.bind(on_release=lambda _b: App.get_running_app().show("standings"))
            box.add_widget(standings)

    # ---- edits (from kv) ----------------------------------------------------------------------

    def seat_known(self, person: Person) -> None:
        self.form.seat_known(person)
        self.show_form()

    def toggle_plays(self, index: int) -> None:
        self.form.toggle_plays(index)
        self.show_form()

    def rename(self, index: int, text: str) -> None:
        if not self._filling:
            self.form.players[index].name = text

    def next_bot(self, index: int) -> None:
        self.form.next_bot(index)
        self.show_form()

    def next_colour(self, index: int) -> None:
        self.form.next_colour(index)
        self.show_form()

    def move_up(self, index: int) -> None:
        self.form.move_up(index)
        self.show_form()

    def set_first(self, index: int) -> None:
        self.form.set_first(index)
        self.show_form()

    def set_board(self, choice: str) -> None:
        self.form.board_choice = choice
        self.show_form()

    def set_scenario(self, scenario: str) -> None:
        """Heading for New Shores, or ("") the island game."""
        self.form.set_scenario(scenario or None)
        self.show_form()

    def reroll(self) -> None:
        self.form.reroll()
        self.show_form()

    def step(self, name: str, delta: int) -> None:
        self.form.step(name, delta)
        self.show_form()

    def set_variant(self, name: str, on: bool) -> None:
        setattr(self.form, name, on)
        self.show_form()

    def set_dice(self, virtual: bool) -> None:
        self.form.virtual_dice = virtual
        self.show_form()

    def set_dice_mode(self, mode: str) -> None:
        self.form.set_dice_mode(mode)
        self.show_form()

    def next(self) -> None:
        """Check the choices with the rules core and go on to the board on the table."""
        app = App.get_running_app()
        board = self.form.board()
        try:
            # A table entering its own board gets the config once the board is accepted.
            self.form.config(board if board is not None else _any_board(self.form))
        except ConfigError as exc:
            self.error = render_error(exc)
            return
        self.error = ""
        if app.dice is None or app.dice.is_virtual != self.form.virtual_dice:
            if self.form.virtual_dice:
                app.use_virtual_dice()
            else:
                app.search_dice_box()
        screen = app.show("build_table")
        screen.prepare(self.form, board, game_seed=self.form.seed)


def _any_board(form: NewGameForm) -> Any:
    """A board of the seated players' island (or sea map), to check the rest of the choices
    with."""
    return known_board(form.frame)
