"""The game: top bar (prompt, last roll and production, barbarian track, dice status), the board
with the legal spots highlighted, the players, the action bar of the turn, and the decision now
due, naming the player the tablet goes to.

Every value on screen comes from the presenter modules
(:mod:`~companion_app.presenters.board_picture`, :mod:`~companion_app.presenters.wording`,
:mod:`~companion_app.presenters.choices`); every tap becomes one of ``game.legal_actions()`` (or a
domestic offer the rules core accepts) handed to :meth:`CompanionApp.apply`. A tap on an action-bar
button opens that button's choices: spots on the board or buttons, sometimes in two steps (a
knight, then where it goes). A "choose several cards" decision opens the card picker once its
player uncovers their cards.

What is open (the bar button, its steps, the page, the uncovered cards, the picker's counts) is
:class:`companion_app.presenters.game_controller.GameController`'s: the screen binds widgets to it
and hands it the taps. Whenever the game moves on, by whatever path, the controller closes what was
open for the old decision; while a dialog is open the screen watches for that every frame.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.factory import Factory
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.utils import escape_markup

from companion_app.app.screens import load_kv
from companion_app.app.screens.game_view import GameViewScreen
from companion_app.app.widgets.board_view import BoardView  # noqa: F401  (used in kv)
from companion_app.app.widgets.card_picker_panel import CardPickerPanel
from companion_app.app.widgets.fit import fitting_block, fitting_size
from companion_app.app.widgets.game_log_view import GameLogView  # noqa: F401
from companion_app.app.widgets.game_toolbar import GameToolbar  # noqa: F401
from companion_app.app.widgets.player_panel import (  # noqa: F401
    MARKED_FILL,
    PlayerLine,
    PlayerPanel,
)
from companion_app.app.widgets.track_and_dice import BarbarianTrack, DiceView  # noqa: F401
from companion_app.app.widgets.trade_panel import TradePanel
from companion_app.app.widgets.why_not_panel import WhyNotPanel
from companion_app.game_log import log_for
from companion_app.i18n import catalogue, render, table_language
from companion_app.i18n.current import _, n_
from companion_app.presenters import board_picture as B
from companion_app.presenters import choices as C
from companion_app.presenters import wording as W
from companion_app.presenters.game_controller import GameController
from companion_app.presenters.why_not import WHY_NOT_KEY, why_not_button
from companion_app.rules.actions import Action, DeclineTrade, EndSpecialBuild, EndTurn, StopEffect
from companion_app.rules.game import Game

load_kv(__file__)


COMPACT_HEIGHT_DP = 700
"""Below this height the game screen uses its lower top bar."""
NARROW_WIDTH_DP = 1100
MOST_COLUMNS = 3
"""Choices that would not fit on one page go up to this many side by side first."""
SIDE_BY_SIDE_SP = 16
"""Their text size then: two lines of it fit a 56 dp button."""


class GameScreen(GameViewScreen):
    roll_text = StringProperty("")
    can_roll = BooleanProperty(False)
    can_end_turn = BooleanProperty(False)
    end_turn_text = StringProperty("End turn")
    """ "End turn", or in a special build (5-6 players) its "Done building"."""
    in_setup = BooleanProperty(False)
    list_title = StringProperty("")
    headline = StringProperty("")
    details = StringProperty("")
    banner_colour = ListProperty([0.3, 0.3, 0.3, 1])
    banner_text_colour = ListProperty([1, 1, 1, 1])
    can_go_back = BooleanProperty(False)
    compact = BooleanProperty(False)
    """A short window (a 7" tablet, 600 dp high): the top bar and the big buttons are lower."""
    narrow = BooleanProperty(False)
    """Less than 1100 dp wide (a 7" tablet, a portrait screen): the dice are drawn smaller."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.controller = GameController()
        self.step: C.ChoiceStep | None = None
        self.spot_actions: dict[B.Spot, Any] = {}
        """Board spots offered now: an Action (setup), a presenter Choice, or a knight's
        intersection to toggle (the knights sent against the barbarians)."""
        self.end_turn_action: Action | None = None
        self.bar: list[C.BarButton] = []
        self.trade: TradePanel | None = None
        self.picker_panel: CardPickerPanel | None = None
        self.why_not: WhyNotPanel | None = None
        self._watching: Any = None
        self.refill = Clock.create_trigger(lambda _dt: self.lay_out_choices(), -1)

    def retranslate(self) -> None:
        """The game's words and an open card picker's again in the table's language (what is
        chosen stays chosen)."""
        game = self.game
        if game is not None:
            self.controller.retell(game)
        self.refresh()
        if self.picker_panel is not None:
            self.picker_panel.update()

    def on_size(self, *_args: object) -> None:
        self.compact = self.height < dp(COMPACT_HEIGHT_DP)
        self.narrow = self.width < dp(NARROW_WIDTH_DP)

    def on_kv_post(self, _base_widget: object) -> None:
        # The room for choices changes with the bar's rows: lay them out again to fit. The
        # board's size decides how a road is tapped (the hint says it).
        self.ids.actions.bind(height=lambda *_a: self.refill())
        self.ids.board.bind(size=lambda *_a: self.refill())

    def show(self, game: Game) -> None:
        control = self.controller
        control.follow(game)  # the game moved on (any path): start from the bar again
        self._show_picker()
        ids = self.ids
        self.in_setup = game.in_setup
        ids.prompt.text = render(game.describe_prompt())
        ids.turn.text = W.turn_words(game)
        roll = W.roll_view(game)
        ids.dice.roll = roll
        ids.roll_words.text = roll.words if roll else _("No roll yet")
        session_log = getattr(App.get_running_app(), "session_log", None)
        log = session_log() if session_log is not None else None
        if log is None:
            log = log_for(None, game)
        ids.production.text = " · ".join(W.production_lines(game, log))
        ids.bank.text = _("Bank") + "\n" + W.bank_words(game)
        ids.log.show(log)
        position, length = W.barbarian_track(game)
        ids.track.position, ids.track.length = position, length
        forecast = game.barbarian_forecast()
        ids.track_words.text = W.track_line(game, forecast)
        ids.forecast.text = W.forecast_words(forecast, game.config.names).outcome
        app = App.get_running_app()
        virtual = app.dice is None or app.dice.is_virtual
        self.can_roll = game.awaiting_roll and virtual
        if game.awaiting_roll:
            self.roll_text = _("Roll the dice") if virtual else _("Press the dice box's button")
        else:
            self.roll_text = _("No roll due")
        ids.players.show(game)
        # Where the lines scroll (six players beside open choices), the deciding one in sight.
        Clock.schedule_once(lambda _dt: self._deciding_in_sight(), 0)
        legal = game.legal_actions()
        self._show_end_turn(game, legal)
        ids.board.picture = B.board_picture(game)
        self._show_prompt(game)
        if game.in_setup:
            self._show_setup(game, legal)
        else:
            self.bar = [*C.action_bar(game), *why_not_button(game)]
            if control.bar_key and not any(b.key == control.bar_key for b in self.bar):
                control.bar_key, control.steps = "", []
            self._fill_bar()
            self.step = control.current_step(game)
            self._fill_choices(game)
        ids.board.spots = self.board_spots()

    def _show_setup(self, game: Game, legal: list[Action]) -> None:
        """The placement order and the places to tap; once a coast edge is tapped where a road
        and a ship may both go (§13.3), the two as buttons."""
        self.bar = []
        self._fill_bar()
        steps = self.controller.steps
        self.step = steps[-1] if steps else None
        if self.step is not None:
            self._fill_choices(game)
            return
        self.spot_actions = dict(C.placement_spots(game, legal))
        self._fill_placement(game)

    def _deciding_in_sight(self) -> None:
        view, panel = self.ids.players_view, self.ids.players
        deciding = [w for w in panel.children if getattr(w, "fill", None) == list(MARKED_FILL)]
        if deciding and panel.height > view.height:
            view.scroll_to(deciding[0], padding=0, animate=False)

    def _show_end_turn(self, game: Game, legal: list[Action]) -> None:
        """End turn, or in a special build (5-6 players) the builder's Done building, in the
        same place."""
        end = next((a for a in legal if isinstance(a, EndTurn | EndSpecialBuild)), None)
        self.end_turn_action = end
        self.can_end_turn = end is not None
        done = isinstance(end, EndSpecialBuild)
        self.end_turn_text = W.describe_action(game, end) if done and end else _("End turn")

    def lay_out_choices(self) -> None:
        """The bar's rows changed the room the choices have: only the choices are laid out
        again (the rest of the screen shows the same game)."""
        game = self.game
        if game is None:
            return
        if game.in_setup:
            self._fill_placement(game)
        else:
            self._fill_choices(game)
        self.ids.board.spots = self.board_spots()

    def board_spots(self) -> dict[B.Spot, Any]:
        """The decision's spots; while the tablet's steps are shown, their places (the board's
        taps wait until Done), kept lit when the choices are laid out again."""
        bots = getattr(App.get_running_app(), "bots", None)
        panel = bots.panel if bots is not None else None
        if panel is not None and panel.board is self.ids.board:
            return {spot: None for spot in panel.steps.spots}
        return dict(self.spot_actions)

    # ---- what is shown --------------------------------------------------------------------------

    def _show_prompt(self, game: Game) -> None:
        phones = getattr(App.get_running_app(), "phones", None)
        waiting = phones.waiting_for() if phones is not None else ""
        control = self.controller
        view = W.prompt_view(
            game,
            revealed=control.revealed,
            on_phone=bool(waiting),
            in_hand=control.opened,
        )
        self.headline = view.headline
        asking = phones.build_requests() if phones is not None else ""
        self.details = waiting or " · ".join(words for words in (view.details, asking) if words)
        self.banner_colour = list(view.colour)
        self.banner_text_colour = list(B.text_colour_on(view.colour))

    def _tap_words(self) -> str:
        """How the highlighted places are taken: a road by its two ends where the board is too
        small for a finger on its middle (a 7-inch tablet)."""
        if self.ids.board.roads_by_ends(self.spot_actions):
            bar_key, game = self.controller.bar_key, self.game
            # A decision on a sea board (Road Building, the setup) may take a ship there too.
            at_sea = not bar_key and game is not None and game.topology.has_sea
            if bar_key in C.SHIP_KEYS or at_sea:
                return _("an edge's two ends")
            return _("a road's two ends")
        return _("a highlighted place")

    def _fill_bar(self) -> None:
        box = self.ids.bar
        box.clear_widgets()
        for item in self.bar:
            button = Factory.ChoiceButton(
                text=item.title,
                state="down" if item.key == self.controller.bar_key else "normal",
                font_size="17sp",
                height="48dp",
            )
            # A long word ("Fortschrittskarte") is set smaller rather than broken inside.
            button.bind(
                width=lambda b, w: setattr(
                    b, "font_size", fitting_size(b.text, w - dp(8), sp(17), sp(11))
                )
            )
            button.bar_key = item.key
            button.types = item.types
            button.bind(on_release=lambda b: self.pick_bar(b.bar_key))
            box.add_widget(button)
        # Where the bar scrolls (800x480), the open button stays in sight.
        Clock.schedule_once(lambda _dt: self._open_bar_in_sight(), 0)

    def _open_bar_in_sight(self) -> None:
        view, box = self.ids.bar_view, self.ids.bar
        down = [b for b in box.children if b.state == "down"]
        if down and box.height > view.height:
            view.scroll_to(down[0], padding=0, animate=False)

    def _fill_placement(self, game: Game) -> None:
        """The setup order with the current step marked; starting resources are in the hands."""
        self.list_title = _("Placement order (tap {where})").format(where=self._tap_words())
        self.can_go_back = False
        box = self.ids.actions
        box.cols = 1
        box.clear_widgets()
        order = W.placement_order(game)
        # As many rows as there is room for, the current one among them (never under the
        # toolbar): the two before it, then what comes next.
        room = max(1, int((box.height + dp(6)) // dp(62)))
        now = next((i for i, step in enumerate(order) if step.state == "now"), 0)
        first = max(0, min(now - 2, len(order) - room))
        for step in order[first : first + room]:
            state = {"done": _("done"), "now": "[b]» " + _("now") + "[/b]", "next": ""}[step.state]
            note = f" · {step.note}" if step.note else ""
            colour = game.config.players[step.seat].colour
            line = PlayerLine(
                text=f"{escape_markup(step.name)}: {step.piece}   {state}{note}",
                min_height=dp(42),
                stripe=B.player_colour(colour),
                mark=B.player_mark(colour),
                fill=MARKED_FILL if step.state == "now" else (0.17, 0.19, 0.23, 1),
                color=(0.6, 0.6, 0.6, 1) if step.state == "done" else (1, 1, 1, 1),
                font_size="17sp",
            )
            line.state_name = step.state
            line.seat = step.seat
            box.add_widget(line)

    def _fill_choices(self, game: Game) -> None:
        box = self.ids.actions
        box.clear_widgets()
        self.spot_actions = {}
        control = self.controller
        self.can_go_back = bool(control.steps)
        knights = C.commit_knights(game)
        if knights is not None:
            self._fill_commit(game, knights)
            return
        step = self.step
        if step is None:
            box.cols = 1
            self.list_title = self._bar_title(game)
            return
        name = game.config.names[game.prompt.player]
        if control.picking(game) and control.revealed:
            self.list_title = _("{player} chooses in the card picker").format(player=name)
            box.cols = 1
            return
        if control.covered(game) or control.picking(game):
            # A gold field's choice (§13.5) hides nothing: its picker opens without a cover.
            in_the_open = control.picking_in_the_open(game)
            title = _("{player} chooses in the card picker") if in_the_open else ""
            self.list_title = (title or _("Only {player} looks now")).format(player=name)
            box.cols = 1
            words = _("Open the card picker") if in_the_open else _("Show my cards")
            button = Factory.BigButton(
                text=words, height="56dp", background_color=(0.55, 0.35, 0.1, 1)
            )
            button.reveal = True
            button.bind(on_release=lambda _b: self.reveal())
            box.add_widget(button)
            return
        self.spot_actions = dict(step.spots)
        buttons = step.buttons
        cols = step.cols if len(buttons) > 1 else 1
        self.list_title = step.title
        if not control.steps:
            self.list_title = self._decision_title(game, step)
        elif step.spots and not buttons and not step.says_how:
            self.list_title = _("{step}: tap {where}").format(
                step=step.title, where=self._tap_words()
            )
        entries = []
        for choice in buttons:
            button = Factory.BigButton(
                text=choice.label, height="56dp", font_size="19sp" if cols < 4 else "17sp"
            )
            if isinstance(choice.action, StopEffect | DeclineTrade):
                button.background_color = (0.35, 0.35, 0.4, 1)  # the way out looks apart
            button.choice = choice
            button.bind(on_release=lambda b: self.choose(b.choice))
            entries.append(button)
        key = (control.decision, control.bar_key, len(control.steps))
        self._show_entries(entries, cols, key, fixed=self._cover_button(game))

    def _bar_title(self, game: Game) -> str:
        """Above the choices when nothing is open: how the decision is answered without them."""
        if game.awaiting_roll:
            if self.can_roll:
                return _("Roll: tap Roll the dice at the top")
            return _("Roll: press the dice box's button")
        if game.is_over:
            return _("The game is over")
        if C.special_building(game):
            return _("Build from the bar above, then {done}").format(done=self.end_turn_text)
        return _("Choose from the bar above, or end the turn") if self.bar else ""

    def _decision_title(self, game: Game, step: C.ChoiceStep) -> str:
        """A decision: the banner says what it is; here only how to answer."""
        if step.buttons and step.spots:
            return _("Tap {where}, or choose:").format(where=self._tap_words())
        if not step.buttons:
            return _("Tap {where} on the board").format(where=self._tap_words())
        if game.awaiting_roll:  # who special-builds: the next player's roll ends it too
            if self.can_roll:
                return _("Choose, or roll the dice")
            return _("Choose, or press the dice box")
        return _("Choose:")

    def _cover_button(self, game: Game) -> Any:
        """ "Cover my cards" under private choices shown by buttons, on every page: the
        decider can hide them again without choosing (None where nothing private is shown)."""
        if not self.controller.uncovered(game):
            return None
        cover = Factory.BigButton(
            text=_("Cover my cards"),
            height="56dp",
            font_size="18sp",
            background_color=(0.55, 0.35, 0.1, 1),
        )
        cover.cover = True
        cover.bind(on_release=lambda _b: self.cover())
        return cover

    def _fill_commit(self, game: Game, knights: list[C.KnightChoice]) -> None:
        """Evil barbarians: toggle the knights to send, on the board or by their buttons, then
        send them (the board shows which knight a button names)."""
        self.list_title = _("Tap the knights you send, then Send")
        self.spot_actions = {("node", k.node): k.node for k in knights}
        entries = []
        for knight in knights:
            button = Factory.ChoiceButton(
                text=_("{knight} (strength {strength})").format(
                    knight=knight.label, strength=knight.strength
                ),
                font_size="17sp",
                halign="center",
                valign="middle",
                state="down" if knight.node in self.controller.commit else "normal",
            )
            button.node = knight.node
            # A long knight name wraps to two lines rather than running out of its button.
            button.bind(width=lambda b, w: setattr(b, "text_size", (w - dp(8), None)))
            button.bind(on_release=lambda b: self.toggle_commit(b.node))
            entries.append(button)
        commit = self.controller.commit
        strength = sum(k.strength for k in knights if k.node in commit)
        send = Factory.BigButton(
            text=n_(
                "Send {count} knight, strength {strength}",
                "Send {count} knights, strength {strength}",
                len(commit),
                strength=strength,
            ),
            height="56dp",
            background_color=(0.18, 0.55, 0.30, 1),
        )
        send.send_knights = True
        send.disabled = C.commit_action(game, commit) is None
        send.bind(on_release=lambda _b: self.send_knights())
        self._show_entries(
            entries, 2 if len(entries) > 2 else 1, (self.controller.decision, "commit"), fixed=send
        )

    def _show_entries(self, entries: list[Any], cols: int, key: object, fixed: Any = None) -> None:
        """As many entries as fit, with "More choices" to page through the rest (no scrolling:
        a tap acts at once). ``fixed`` (e.g. Send) is on every page."""
        box = self.ids.actions
        rows = max(1, int((box.height + dp(6)) // dp(62)))
        extra = 1 if fixed is not None else 0
        room = rows * cols - extra
        pages = [entries]
        if len(entries) > room:
            wider = self._more_columns(entries, rows, cols, extra)
            if wider:
                cols, room = wider, rows * wider - extra
                for entry in entries:
                    entry.font_size = sp(SIDE_BY_SIDE_SP)
        if len(entries) > room:
            if rows == 1:
                # Room for one row only (a 7" tablet): a choice, More and Send side by side.
                cols, per_page = 2 + extra, 1
            else:
                # A page needs room for a choice, More and the fixed button.
                cols = max(cols, 2) if room < 2 else cols
                per_page = max(1, rows * cols - extra - 1)
            pages = [entries[i : i + per_page] for i in range(0, len(entries), per_page)]
        box.cols = cols
        page = self.controller.page_for(key, len(pages))
        width = (box.width - box.spacing[0] * (cols - 1)) / cols - dp(12)
        for widget in pages[page]:
            # Columns narrower than the words were set for (a page beside More and Send): set
            # smaller rather than run out of the button.
            widget.font_size = fitting_block(
                widget.text, width, widget.height - dp(8), widget.font_size, sp(12)
            )
            box.add_widget(widget)
        if len(pages) > 1:
            more = Factory.BigButton(
                text=_("More choices ({page}/{pages})").format(page=page + 1, pages=len(pages)),
                height="56dp",
                font_size="18sp",
                background_color=(0.35, 0.35, 0.4, 1),
            )
            more.more = True
            more.bind(on_release=lambda _b: self.next_page())
            box.add_widget(more)
        if fixed is not None:
            fixed.font_size = fitting_block(
                fixed.text, width, fixed.height - dp(8), fixed.font_size, sp(12)
            )
            box.add_widget(fixed)

    def _more_columns(self, entries: list[Any], rows: int, cols: int, extra: int) -> int:
        """Columns (up to ``MOST_COLUMNS``) that show every choice (and ``extra`` fixed
        buttons) on one page with each label in two lines of smaller text, or 0: a short list
        is never split into pages on a 7" tablet when narrower buttons hold it."""
        box = self.ids.actions
        size = sp(SIDE_BY_SIDE_SP)
        for wider in range(cols + 1, MOST_COLUMNS + 1):
            if len(entries) + extra > rows * wider:
                continue
            width = (box.width - box.spacing[0] * (wider - 1)) / wider - dp(12)
            for entry in entries:
                label = CoreLabel(text=entry.text, font_size=size, text_size=(width, None))
                label.refresh()
                if label.texture is None or label.texture.height > 2.6 * size:
                    return 0
            return wider
        return 0

    def next_page(self) -> None:
        self.controller.next_page()
        self.refresh()

    # ---- taps -----------------------------------------------------------------------------------

    def pick_bar(self, key: str) -> None:
        game = self.game
        if game is None:
            return
        self.controller.follow(game)
        if key == WHY_NOT_KEY:
            self.open_why_not(game)
            return
        if self.controller.pick_bar(game, key):
            self.open_trade(game)
        self.refresh()

    def open_trade(self, game: Game) -> None:
        self.trade = TradePanel(game, self.take)
        self.trade.bind(on_dismiss=lambda _p: setattr(self, "trade", None))
        self.trade.open()
        self._watch()

    def open_why_not(self, game: Game) -> None:
        """Why not?: the missing kinds' reasons, the private ones behind the player's cover."""
        self.why_not = WhyNotPanel(game, catalogue(table_language()), self.controller)
        self.why_not.bind(on_dismiss=lambda _p: self._why_not_closed())
        self.why_not.open()
        self._watch()

    def _why_not_closed(self) -> None:
        self.why_not = None
        self.refresh()

    def back(self) -> None:
        self.controller.back()
        self.refresh()

    def choose(self, choice: C.Choice) -> None:
        game = self.game
        if game is None:
            return
        action = self.controller.choose(game, choice)
        if action is not None:
            self.take(action)
        else:
            self.refresh()

    def reveal(self) -> None:
        game = self.game
        if game is not None:
            self.controller.reveal(game)
            self.refresh()

    # ---- the card picker ------------------------------------------------------------------------

    def _show_picker(self) -> None:
        """The picker panel follows the controller: opened when it has a picker, closed when
        the picker is gone (confirmed, covered, or the game moved on)."""
        picker = self.controller.picker
        panel = self.picker_panel
        if panel is not None and panel.picker is not picker:
            self.picker_panel = None
            panel.dismiss(animation=False)
        if picker is not None and self.picker_panel is None:
            self.picker_panel = CardPickerPanel(
                picker,
                on_change=self.change_picked,
                on_confirm=self.confirm_picked,
                on_cover=self.cover,
            )
            self.picker_panel.open(animation=False)
            self._watch()

    def change_picked(self, row: int, delta: int) -> None:
        if delta > 0:
            self.controller.add(row)
        else:
            self.controller.remove(row)
        if self.picker_panel is not None:
            self.picker_panel.update()

    def cover(self) -> None:
        """The picker's Cover, or "Cover my cards" under uncovered choices: the cards are
        hidden again, nothing chosen."""
        self.controller.cover()
        self.refresh()

    def confirm_picked(self) -> None:
        game = self.game
        if game is None:
            return
        actions = self.controller.confirm(game)
        self._show_picker()  # gone before the next player's first tap
        if actions:
            App.get_running_app().apply_all(actions)
        else:
            self.refresh()

    def _watch(self) -> None:
        """While a dialog is open, notice every frame whether the game moved on without this
        screen being drawn (a direct change to the session): the dialog then closes."""
        if self._watching is None:
            self._watching = Clock.schedule_interval(self._check_dialogs, 0)

    def _check_dialogs(self, _dt: float) -> bool:
        if self.picker_panel is None and self.trade is None and self.why_not is None:
            self._watching = None
            return False
        game = self.game
        if game is None or not self.controller.still_due(game):
            for name in ("trade", "why_not"):
                dialog = getattr(self, name)
                if dialog is not None:
                    setattr(self, name, None)
                    dialog.dismiss(animation=False)
            if game is not None:
                self.refresh()
            else:
                self.controller.close()
                self._show_picker()
        return True

    # ---- knights, spots, the turn ---------------------------------------------------------------

    def toggle_commit(self, node: int) -> None:
        self.controller.toggle_commit(node)
        self.refresh()

    def send_knights(self) -> None:
        game = self.game
        action = None if game is None else self.controller.send_knights(game)
        if action is not None:
            self.take(action)

    def on_spot(self, spot: B.Spot) -> None:
        target = self.spot_actions.get(spot)
        if isinstance(target, C.Choice):
            self.choose(target)
        elif isinstance(target, int):  # a knight's intersection: to send, or not (toggled)
            self.toggle_commit(target)
        elif target is not None:
            self.take(target)

    def end_turn(self) -> None:
        if self.end_turn_action is not None:
            self.take(self.end_turn_action)

    def take(self, action: Action) -> None:
        self.controller.close()
        App.get_running_app().apply(action)
