"""Build your table: the chosen board drawn large, so the table lays its tiles to match; or the
table's own board entered by tapping hexes and harbours (checked by the rules core)."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from companion_app.app.screens import load_kv
from companion_app.app.widgets.board_view import HARBOUR_COLOURS, BoardView  # noqa: F401
from companion_app.i18n import render_error
from companion_app.i18n.current import _, render
from companion_app.presenters.board_picture import (
    TERRAIN_COLOURS,
    Spot,
    board_only_picture,
    board_rows,
    harbour_label,
    text_colour_on,
)
from companion_app.presenters.forms import (
    HARBOUR_CHOICES,
    NO_TOKEN,
    SCENARIO_WORDS,
    TOKEN_CHOICES,
    BoardEntry,
    NewGameForm,
    known_board,
    terrain_choices,
)
from companion_app.rules.board import FRAME_19, Board
from companion_app.rules.cards import TERRAIN_WORDS, Terrain
from companion_app.rules.errors import ConfigError

load_kv(__file__)


class BuildTableScreen(Screen):
    mode = StringProperty("show")
    """"show": a generated board to lay out; "enter": the table's own board being entered."""
    title = StringProperty("")
    explain = StringProperty("")
    rows = StringProperty("")
    error = StringProperty("")
    ready = BooleanProperty(False)
    status = StringProperty("")
    """"entering" (cards still missing), "refused" (all entered, not a board) or "valid"."""
    fill_text = StringProperty("Fill in the starter layout")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.form: NewGameForm | None = None
        self.board: Board | None = None
        self.entry = BoardEntry()
        self.game_seed = 0

    def prepare(self, form: NewGameForm, board: Board | None, *, game_seed: int) -> None:
        """Show ``board`` (None: let the table enter its own)."""
        self.form = form
        self.game_seed = game_seed
        self.error = ""
        self.ids.palette.clear_widgets()
        if board is not None:
            self.mode = "show"
            self.board = board
            self.ready = True
            self._show_words()
            self.ids.board.show_hex_ids = False
            self.ids.board.highlight_spots = True
            self.ids.board.picture = board_only_picture(board)
            self.ids.board.spots = {}
            self.ids.board.selected = None
        else:
            self.mode = "enter"
            self.board = None
            self.entry = BoardEntry(frame=form.frame)
            self._entering_words()
            self.rows = ""
            self.ids.board.show_hex_ids = True
            self.ids.board.highlight_spots = False
            topology = form.frame.topology
            self.ids.board.spots = {("hex", h): None for h in range(topology.hex_count)} | {
                ("harbour", s): None for s in range(topology.harbour_count)
            }
            self.select(("hex", 0))

    def _show_words(self) -> None:
        form = self.form
        if form is not None and form.scenario is not None:
            self.title = _("Build your table · {scenario}").format(
                scenario=_(SCENARIO_WORDS[form.scenario])
            )
        elif form is not None and form.board_choice == "random":
            self.title = _("Build your table · seed {seed}").format(seed=form.seed)
        else:
            self.title = _("Build your table · starter layout")
        if self.board is not None:
            self.rows = "\n".join(board_rows(self.board))
        if form is not None and form.scenario is not None:
            self.explain = _(
                "Lay out the frame, the sea and land hexes, number tokens and harbours as "
                "shown, the top of the picture facing the tablet's top edge. The robber and "
                "the pirate (the black ship) start where they are drawn."
            )
            return
        self.explain = _(
            "Lay out the terrain hexes, number tokens and harbours as shown, "
            "the top of the picture facing the tablet's top edge. The robber starts "
            "in the desert."
        )

    def retranslate(self) -> None:
        """The words again in the table's language; what is entered stays."""
        self._entering_words()
        if self.mode == "show":
            self._show_words()
        elif self.ids.board.selected is not None:
            self.select(self.ids.board.selected)

    def _entering_words(self) -> None:
        """The entry's own words; the fill button's too, which stays (hidden) while a board
        is shown, so it is told again in any mode."""
        starter = self.entry.frame is FRAME_19
        if self.entry.frame.sea_map is not None:
            self.fill_text = _("Fill in the printed map")
        else:
            self.fill_text = (
                _("Fill in the starter layout") if starter else _("Fill in a sample layout")
            )
        if self.mode == "enter":
            self.title = _("Enter the board on your table")

    # ---- entering a board ---------------------------------------------------------------------

    def on_spot(self, spot: Spot) -> None:
        if self.mode == "enter":
            self.select(spot)

    def select(self, spot: Spot) -> None:
        self.ids.board.selected = spot
        palette = self.ids.palette
        palette.clear_widgets()
        kind, ident = spot
        if kind == "hex":
            self.explain = _("Hex {hex}: tap its terrain, then its number.").format(hex=ident)
            # Three a row where "mountains" fits a third of the column (not at 800x480).
            cols = 3 if palette.width >= dp(320) else 2
            terrains = terrain_choices(self.entry.frame)
            palette.add_widget(self._choices(terrains, self._terrain_button, cols=cols))
            if self.entry.terrains[ident] not in (None, *NO_TOKEN):
                palette.add_widget(self._choices(TOKEN_CHOICES, self._token_button, cols=5))
            elif self.entry.terrains[ident] is Terrain.DESERT and self.entry.frame is not FRAME_19:
                palette.add_widget(self._robber_button(ident))
        else:
            self.explain = _("Harbour {harbour}: tap the harbour lying there.").format(
                harbour=ident
            )
            palette.add_widget(self._choices(HARBOUR_CHOICES, self._harbour_button, cols=3))
        self._show_entry()

    def _robber_button(self, h: int) -> Any:
        """On 30 hexes (two deserts) the table says where the robber starts (§12); without a
        choice, on the desert nearer the middle."""
        button = Factory.ChoiceButton(
            text=_("The robber starts here"),
            state="down" if self.entry.robber == h else "normal",
            size_hint_y=None,
            height=dp(56),
        )
        button.robber_hex = h
        button.bind(on_release=lambda _b: self.choose_robber(h))
        return button

    def choose_robber(self, h: int) -> None:
        self.entry.set_robber(None if self.entry.robber == h else h)
        self.select(("hex", h))

    def _choices(self, values: Any, make: Any, *, cols: int) -> GridLayout:
        grid = GridLayout(cols=cols, spacing=8, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for value in values:
            grid.add_widget(make(value))
        return grid

    def _terrain_button(self, terrain: Terrain) -> Any:
        colour = TERRAIN_COLOURS[terrain]
        button = Factory.BigButton(
            text=render(TERRAIN_WORDS[terrain]),
            font_size="18sp",  # "mountains" fits a third of a 7" tablet's column
            background_color=colour,
            color=text_colour_on(colour),
        )
        button.bind(on_release=lambda _b: self.choose_terrain(terrain))
        return button

    def _token_button(self, token: int) -> Any:
        red = token in (6, 8)
        button = Factory.BigButton(
            text=str(token),
            background_color=(0.97, 0.93, 0.82, 1),
            color=(0.8, 0.05, 0.05, 1) if red else (0.1, 0.1, 0.1, 1),
            bold=True,
        )
        button.bind(on_release=lambda _b: self.choose_token(token))
        return button

    def _harbour_button(self, harbour: Any) -> Any:
        colour = HARBOUR_COLOURS[harbour]
        button = Factory.BigButton(
            text=harbour_label(harbour), background_color=colour, color=text_colour_on(colour)
        )
        button.bind(on_release=lambda _b: self.choose_harbour(harbour))
        return button

    def choose_terrain(self, terrain: Terrain) -> None:
        _kind, h = self.ids.board.selected
        self.entry.set_terrain(h, terrain)
        if terrain in NO_TOKEN:
            self._advance()
        else:
            self.select(("hex", h))

    def choose_token(self, token: int) -> None:
        _kind, h = self.ids.board.selected
        self.entry.set_token(h, token)
        self._advance()

    def choose_harbour(self, harbour: Any) -> None:
        _kind, slot = self.ids.board.selected
        self.entry.set_harbour(slot, harbour)
        self._advance()

    def _advance(self) -> None:
        """On to the next position still empty (hexes first, then harbours)."""
        for h in range(len(self.entry.terrains)):
            if self.entry.terrains[h] is None or (
                self.entry.terrains[h] not in NO_TOKEN and self.entry.tokens[h] is None
            ):
                self.select(("hex", h))
                return
        for s in range(len(self.entry.harbours)):
            if self.entry.harbours[s] is None:
                self.select(("harbour", s))
                return
        self.select(self.ids.board.selected)

    def fill_starter(self) -> None:
        """Every position filled from a known board (:func:`known_board`), to change what
        differs on the table."""
        self.entry = BoardEntry.from_board(known_board(self.entry.frame))
        self.select(("hex", 0))

    def _show_entry(self) -> None:
        self.ids.board.picture = self.entry.picture()
        board, error = self.entry.check()
        self.board = board
        self.ready = board is not None
        done = self.entry.entered
        positions = self.entry.positions
        self.error = (
            _("Board checked: it is a valid board.") if board else f"{done}/{positions} · {error}"
        )
        self.status = "valid" if board else ("refused" if done == positions else "entering")

    # ---- start --------------------------------------------------------------------------------

    def start(self) -> None:
        app = App.get_running_app()
        if self.form is None or self.board is None:
            return
        try:
            config = self.form.config(self.board, game_seed=self.game_seed)
        except ConfigError as exc:
            self.error = render_error(exc)
            self.status = "refused"
            return
        app.start_game(config)
