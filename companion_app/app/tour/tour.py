"""The tour's steps (see :mod:`companion_app.app.tour.run`); Kivy is configured before import."""

from __future__ import annotations

from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

from kivy.core.window import Window
from kivy.metrics import dp
from kivy.uix.modalview import ModalView

from companion_app.app.companion import CompanionApp
from companion_app.app.tour.driver import ScenarioDriver, Step
from companion_app.app.tour.layout_check import collect, problems, smallest_drawn
from companion_app.app.tour.plan import Plan
from companion_app.i18n import LANGUAGES, catalogue, table_language
from companion_app.i18n.current import render
from companion_app.presenters import choices as C
from companion_app.presenters.why_not import WHY_NOT_KEY
from companion_app.rules.actions import Action, BuildRoad, BuildShip, EndTurn, OfferTrade, Roll
from companion_app.rules.cards import TERRAIN_WORDS, Card, Terrain
from companion_app.rules.registry import PICKER_PROMPTS, PRIVATE_PROMPTS, is_turn

INFO_AFTER_TURN = 12
"""The turn after which the hands, the chart and the statistics are opened (cards to show)."""


class Tour(ScenarioDriver):
    draws_every_frame = False  # only the looks: a PNG each

    def __init__(
        self, app: CompanionApp, out: Path, plan: Plan, languages: tuple[str, ...] = ()
    ) -> None:
        super().__init__(app, out)
        self.plan = plan
        self.languages = languages
        """Where more than one: every look is taken in each, switched at once on the spot
        (``out/<ll>/NN_name.png``); the tour plays on in the first."""
        self.problems: list[str] = []
        self.smallest_drawn: dict[str, float] = {}
        """The smallest drawn size in dp of each kind of piece, token and spot marker seen."""
        self.seen: set[str] = set()
        self._foreign: dict[str, frozenset[str]] = {}
        """By language: the texts only other languages have (:meth:`words_of_another_language`)."""
        self.number = 0
        self.done = 0
        """Planned actions taken so far."""
        self.where = ""
        """Where the tour stopped, if it did."""

    def tick(self, dt: float) -> bool:
        going = super().tick(dt)
        if self.error and not self.where:
            root = self.app.root
            screen = root.current if root is not None else "no screen"
            self.where = f"after action {self.done} of {len(self.plan.actions)}, on {screen}"
        return going

    # ---- a screenshot and its check ------------------------------------------------------------

    def look(self, name: str) -> Step:
        """Lay out, save ``NN_name.png`` and check its layout; where the board is an overview
        (it zooms), also what a tap on it shows (``NN_name_zoomed.png``)."""
        yield 3
        self.lay_out()
        yield 2
        yield from self.look_now(name)
        board = self.board_in_overview()
        if board is not None:
            yield from self.zoomed_look(board, name)

    def board_in_overview(self) -> Any:
        """The current screen's board when it is an overview under no dialog, else None."""
        root = self.app.root
        if root is None or not Window.children or Window.children[0] is not root:
            return None
        board = root.current_screen.ids.get("board")
        return board if board is not None and getattr(board, "overview", False) else None

    def zoomed_look(self, board: Any, name: str) -> Step:
        """Zoom in by a tap on the first offered spot (or the board's middle), look, and pinch
        out again with two fingers (a pinch takes nothing)."""
        spots = list(board.spots or ())
        x, y = board.taps_for(spots[0])[0] if spots else board.to_window(*board.center)
        self.tap_at(x, y)
        yield 3
        yield from self.look_now(f"{name}_zoomed")
        yield from self.pinch(board, 0.25)
        if not board.overview:
            raise AssertionError("a pinch did not zoom the board out")

    def look_now(self, name: str) -> Step:
        """Save ``NN_name.png`` of the window as it is and check its layout; with several
        languages, in each of them, switched on the spot (the switch is under test too)."""
        self.number += 1
        shot = f"{self.number:02d}_{name}.png"
        if len(self.languages) < 2:
            yield from self.shot(shot)
            self.check_layout(shot)
            return
        for code in (*self.languages[1:], self.languages[0]):
            self.app.switch_language(code)
            yield 2
            self.lay_out()
            yield 1
            yield from self.shot(f"{code}/{shot}")
            self.check_layout(f"{code}/{shot}")

    def check_layout(self, shot: str) -> None:
        boxes = collect(Window)
        found = problems(boxes, Window.size, dp(1))
        for kind, size in smallest_drawn(boxes, dp(1)).items():
            self.smallest_drawn[kind] = min(self.smallest_drawn.get(kind, size), size)
        self.problems.extend(f"{shot}: {line}" for line in found)
        self.problems.extend(f"{shot}: {line}" for line in self.card_names_unread())
        self.problems.extend(f"{shot}: {line}" for line in self.words_of_another_language())

    @staticmethod
    def card_names_unread() -> list[str]:
        """Widgets naming a card (the trade dialog's rows) that do not show its name in the
        table's language now."""
        return [
            f"{widget.card.label} shown as {widget.text!r}, not {render(widget.card.words)!r}"
            for top in Window.children
            for widget in top.walk()
            if isinstance(getattr(widget, "card", None), Card)
            and widget.text != render(widget.card.words)
        ]

    def words_of_another_language(self) -> list[str]:
        """Labels and buttons whose whole text is another language's translation and none of
        this one's: a word left behind by a switch of language."""
        code = table_language()
        foreign = self._foreign.get(code)
        if foreign is None:
            own = catalogue(code).phrases()
            others = set().union(*(catalogue(c).phrases() for c in LANGUAGES if c != code))
            english = set().union(*(catalogue(c).message_ids() for c in LANGUAGES))
            foreign = self._foreign[code] = frozenset(others - own - english)
        return [
            f"{type(widget).__name__} {widget.text!r} is in another language than {code}"
            for top in Window.children
            for widget in top.walk()
            if isinstance(getattr(widget, "text", None), str) and widget.text.strip() in foreign
        ]

    def look_once(self, name: str) -> Step:
        if name not in self.seen:
            self.seen.add(name)
            yield from self.look(name)

    def popup(self) -> Any:
        popups = [w for w in Window.children if isinstance(w, ModalView)]
        if len(popups) != 1:
            raise AssertionError(f"{len(popups)} dialogs open")
        return popups[0]

    # ---- the run ------------------------------------------------------------------------------

    def steps(self) -> Step:
        app = self.app
        yield lambda: app.root is not None and app.dice is not None
        yield 5
        yield from self.before_the_game()
        app.start_game(self.plan.config)
        yield lambda: app.root.current == "game"
        for i, action in enumerate(self.plan.actions):
            yield from self.back_to_the_game()
            if not self.taken(i, action):
                yield from self.before(action)
            if not self.taken(i, action):
                game = self.session.game
                # The toolbar's screens once, at the first turn's own decision from this turn
                # on (not under a picker or another player's decision).
                if game.turn >= INFO_AFTER_TURN and "hand" not in self.seen and is_turn(game):
                    yield from self.information_screens()
                yield from self.take(action, self.plan.actions[i + 1 : i + 2])
            self.done = i + 1
        if "game_over" not in self.seen:
            # (Where the winning action was the only choice, taken at once, the end was
            # looked at already and its board is open.)
            yield lambda: app.root.current == "game_over"
            yield from self.back_to_the_game()
        yield from self.look("game_over_board")
        app.show("home")
        yield from self.look("home_after_the_game")

    def before_the_game(self) -> Step:
        app = self.app
        home = app.root.get_screen("home")
        yield from self.look("home")
        yield from self.tap_in_sight(home.ids.settings)
        yield 12  # the popup opens with an animation
        yield from self.look("settings")
        self.popup().dismiss(animation=False)
        yield 3
        yield from self.tap_in_sight(home.ids.new_game)
        yield 3
        new_game = app.root.get_screen("new_game")
        # The form offers a random board of a new seed at each start; the tour shows the
        # planned game's seed (the same screens every run).
        new_game.form.seed = self.plan.config.seed
        new_game.show_form()
        yield from self.look("new_game")
        if self.plan.config.scenario is not None:
            yield from self.new_shores(new_game)
            return
        players = len(self.plan.config.players)
        for row in new_game.rows[4:players]:  # green and brown take their seats (§12)
            yield from self.tap_in_sight(row.ids.plays)
            yield 2
        if players > 4:
            yield from self.look(f"new_game_{players}_players")
        yield from self.tap_in_sight(new_game.ids.board_random)
        yield 2
        yield from self.look("new_game_random_board")
        yield from self.tap_in_sight(new_game.ids.next)
        yield 3
        yield from self.look("build_table_random")
        table = app.root.get_screen("build_table")
        yield from self.tap_in_sight(table.ids.back)
        yield 3
        yield from self.tap_in_sight(new_game.ids.board_table)
        yield 2
        yield from self.tap_in_sight(new_game.ids.next)
        yield 3
        yield from self.enter_a_board(table)
        yield from self.tap_in_sight(table.ids.back)
        yield 3
        if not new_game.ids.board_starter.disabled:  # the 30-hex board has no starter layout
            yield from self.tap_in_sight(new_game.ids.board_starter)
            yield 2
            yield from self.tap_in_sight(new_game.ids.next)
            yield 3
            yield from self.look("build_table_starter")
            yield from self.tap_in_sight(table.ids.back)
            yield 3
        app.show("home")
        yield 2

    def new_shores(self, new_game: Any) -> Step:
        """Heading for New Shores chosen (4 players: a fourth seat taken first), its printed
        map to lay out, the table's own entered; then the game starts from Home."""
        app = self.app
        players = len(self.plan.config.players)
        for row in new_game.rows[3:players]:
            if row.ids.plays.state != "down":
                yield from self.tap_in_sight(row.ids.plays)
                yield 2
        yield from self.tap_in_sight(new_game.ids.new_shores)
        yield 2
        yield from self.look("new_game_new_shores")
        yield from self.tap_in_sight(new_game.ids.next)
        yield 3
        yield from self.look("build_table_new_shores")
        table = app.root.get_screen("build_table")
        yield from self.tap_in_sight(table.ids.back)
        yield 3
        # The table's own sea board (R27): a hex entered, then the printed map filled in.
        yield from self.tap_in_sight(new_game.ids.board_table)
        yield 2
        yield from self.tap_in_sight(new_game.ids.next)
        yield 3
        yield from self.look("board_entry_new_shores")
        yield from self.tap_in_sight(table.ids.starter_fill)
        yield 2
        yield from self.look("board_entry_new_shores_valid")
        yield from self.tap_in_sight(table.ids.back)
        yield 3
        app.show("home")
        yield 2

    def enter_a_board(self, table: Any) -> Step:
        """The table's own board by taps: a hex, then the rest filled in; on 30 hexes the
        desert the robber starts on (§12)."""
        yield from self.look("board_entry_empty")
        yield from self.tap_spot(table.ids.board, ("hex", 5))
        yield from self.tap_button(table.ids.palette, render(TERRAIN_WORDS[Terrain.HILLS]))
        yield from self.tap_button(table.ids.palette, "6")
        yield from self.look("board_entry_first_hex")
        yield from self.tap_in_sight(table.ids.starter_fill)
        yield 2
        yield from self.look("board_entry_valid")
        deserts = [h for h, t in enumerate(table.entry.terrains) if t is Terrain.DESERT]
        if len(deserts) > 1:
            yield from self.tap_spot(table.ids.board, ("hex", deserts[-1]))
            robber = [b for b in table.ids.palette.walk() if hasattr(b, "robber_hex")]
            yield from self.tap_in_sight(robber[0])
            yield 2
            yield from self.look("board_entry_robber")

    def taken(self, i: int, action: Action) -> bool:
        """The planned action ``i`` is in the game already: taken by taps, or a decision with
        one option and nothing private that the app took at once."""
        history = self.session.game.history
        if len(history) <= i:
            return False
        if history[i] != action:
            raise AssertionError(f"action {i}: taken {history[i]}, planned {action}")
        return True

    def take(self, action: Action, following: list[Action]) -> Step:
        """The planned action through the journal session, then, as after a tap, any decision
        with one option that follows taken at once: left pending, the next event from the dice
        link would take it (``_dice_changed``), at a moment set by the machine's load. The
        screen is redrawn (as after a tap) when the next step is something new to look at, or
        the game changed screens. A dialog left open for the decision (the card picker) closes
        on its own once the game has moved on."""
        session = self.session
        attacks = session.game.barbarian_attacks
        session.apply(action)
        self.app.take_only_choices()
        game = session.game
        news = game.barbarian_attacks != attacks or game.is_over or not following
        if news or (following and self.is_new(following[0])):
            self.app.refresh()
            yield 1

    def is_new(self, action: Action) -> bool:
        game = self.session.game
        kind = game.prompt.kind
        if kind.value not in self.seen:
            return True
        if not is_turn(game) or isinstance(action, Roll | EndTurn):
            return False
        return f"bar_{C.bar_key(action)}" not in self.seen

    def back_to_the_game(self) -> Step:
        """The attack and the end come up on their own screens: look, then back to the game."""
        app = self.app
        name = app.root.current
        if name == "game":
            return
        yield from self.look_once(name)
        yield 2
        self.lay_out()
        screen = app.root.get_screen(name)
        yield from self.tap_in_sight(screen.ids.back if name != "game_over" else screen.ids.board)
        yield lambda: app.root.current == "game"
        yield 1

    def game_screen(self) -> Any:
        return self.app.root.get_screen("game")

    def before(self, action: Action) -> Step:
        """The first time a decision or a kind of action comes up: open it by taps and look."""
        game = self.session.game
        screen = self.game_screen()
        kind = game.prompt.kind
        taken = len(game.history)
        if kind.value not in self.seen:
            yield from self.look_once(kind.value)
            if kind in PRIVATE_PROMPTS or kind in PICKER_PROMPTS:  # a gold field's: in the open
                yield from self.shown(screen, action)
        if len(game.history) != taken:
            # A decision with one option, taken by the app while the tour looked at it (the
            # dice box's news, arriving in wall-clock time, makes the app take such ones).
            return
        by_taps = yield from self.piece_by_taps(screen, action)
        if by_taps:
            return
        if is_turn(game) and not game.awaiting_roll and "why_not" not in self.seen:
            yield from self.why_not(screen)
        if not is_turn(game) or isinstance(action, Roll | EndTurn):
            return
        key = C.bar_key(action)
        if f"bar_{key}" in self.seen:
            return
        yield from self.bar_shown(screen, key)
        yield from self.tap_in_sight(self.bar_button(screen, key))
        yield 3
        if isinstance(action, OfferTrade):
            yield 10  # the trade dialog opens with an animation
            yield from self.look_once(f"bar_{key}")
            self.popup().dismiss(animation=False)
            yield 3
        else:
            yield from self.look_once(f"bar_{key}")
            if screen.controller.bar_key == key:
                # The bar is drawn again after each tap: its button now, closed again (the
                # planned action follows).
                yield from self.tap_in_sight(self.bar_button(screen, key))
                yield 2

    def shown(self, screen: Any, action: Action) -> Step:
        """ "Show my cards" (or "Open the card picker") tapped, and a look; a picker in the open
        (a gold field's choice, §13.5) of one card is then answered by taps: + on the planned
        card's row, Confirm."""
        kind = self.session.game.prompt.kind
        self.lay_out()
        reveal = [b for b in screen.ids.actions.children if getattr(b, "reveal", False)]
        if not reveal:
            return
        yield from self.tap_in_sight(reveal[0])
        yield from self.look(f"{kind.value}_shown")
        panel = screen.picker_panel
        if kind in PRIVATE_PROMPTS or panel is None or panel.picker.count != 1:
            return
        keys = [row.key for row in panel.picker.rows]
        card = getattr(action, "card", None)
        if card not in keys or panel.picker.action_for(card) != action:
            raise AssertionError(f"the card picker does not offer {action}")
        taken = len(self.session.game.history)
        yield from self.tap_in_sight(panel.lines[keys.index(card)].ids.plus)
        yield 2
        yield from self.tap_in_sight(panel.ids.confirm)
        yield lambda: len(self.session.game.history) > taken

    def piece_by_taps(
        self, screen: Any, action: Action
    ) -> Generator[int | Callable[[], bool], None, bool]:
        """A piece taken by taps on the board the first time it comes up: the setup's (a coast
        edge's road or ship, the first road) and Road Building's first ship; True when taps
        took it."""
        game = self.session.game
        if game.in_setup and isinstance(action, BuildRoad | BuildShip):
            return (yield from self.setup_piece_by_taps(screen, action))
        if isinstance(action, BuildShip) and not is_turn(game):  # Road Building's, Diplomat's
            return (yield from self.free_ship_by_taps(screen, action))
        return False

    def setup_piece_by_taps(
        self, screen: Any, action: BuildRoad | BuildShip
    ) -> Generator[int | Callable[[], bool], None, bool]:
        """The first setup piece where a road and a ship may both go, and the first road, taken
        by taps on the board; True when taps took it."""
        wanted = {"road_or_ship", "road_by_taps"} if self.session.game.topology.has_sea else set()
        if wanted | {"road_by_taps"} <= self.seen:
            return False
        # The board offers this decision's places (after a decision of the same kind the
        # screen is not drawn again between the two).
        self.app.refresh()
        yield 1
        if self.road_or_ship(screen, action):
            yield from self.road_or_ship_by_taps(screen, action)
            return True
        if isinstance(action, BuildRoad) and "road_by_taps" not in self.seen:
            self.seen.add("road_by_taps")
            yield from self.road_by_taps(screen.ids.board, action)
            return True
        return False

    def road_or_ship(self, screen: Any, action: Action) -> bool:
        """The first setup piece on a coast edge where a road and a ship may both go (§13.3)."""
        if "road_or_ship" in self.seen or not isinstance(action, BuildRoad | BuildShip):
            return False
        if not self.session.game.in_setup:
            return False
        return isinstance(screen.spot_actions.get(("edge", action.edge)), C.Choice)

    def road_or_ship_by_taps(self, screen: Any, action: Action) -> Step:
        """A tap on the edge asks which piece (a look), the planned one's button answers."""
        assert isinstance(action, BuildRoad | BuildShip)
        self.seen.add("road_or_ship")
        self.lay_out()
        yield 1
        yield from self.tap_spot(screen.ids.board, ("edge", action.edge))
        yield 3
        yield from self.look("road_or_ship")
        yield from self.tap_choice(screen, action)

    def tap_choice(self, screen: Any, action: Action) -> Step:
        """Tap the one choice button below the board that takes ``action`` (a coast edge's
        road or ship)."""
        buttons = [
            b
            for b in screen.ids.actions.children
            if getattr(getattr(b, "choice", None), "action", None) == action
        ]
        if len(buttons) != 1:
            raise AssertionError(f"{len(buttons)} buttons take {action}")
        yield from self.tap_in_sight(buttons[0])
        yield 3

    def free_ship_by_taps(
        self, screen: Any, action: BuildShip
    ) -> Generator[int | Callable[[], bool], None, bool]:
        """The first of Road Building's pieces built as a ship (§13.9, R15), and the first
        ship a Diplomat took placed again (§13.9, R14), free: a look at the places offered,
        then taps on the board (a coast edge asks road or ship: the ship's button answers);
        True when taps took it."""
        game = self.session.game
        kind = game.prompt.kind
        name = f"{kind.value}_ship"
        if f"{name} by taps" in self.seen:
            return False
        self.seen.add(f"{name} by taps")
        taken = len(game.history)
        self.app.refresh()
        yield 1
        yield from self.look(name)
        yield from self.tap_spot(screen.ids.board, ("edge", action.edge))
        yield 3
        if len(game.history) == taken:
            yield from self.tap_choice(screen, action)
        if game.history[taken:] != [action]:
            raise AssertionError(f"the taps took {game.history[taken:]}, planned {action}")
        return True

    def why_not(self, screen: Any) -> Step:
        """The action bar's "Why not?" at the first turn: the reasons as they open, then after
        "Show my cards"; closed again (the cards covered) before the planned action."""
        self.lay_out()
        yield from self.tap_in_sight(self.bar_button(screen, WHY_NOT_KEY))
        yield 10  # the panel opens with an animation
        yield from self.look_once("why_not")
        panel = self.popup()
        reveal = [b for b in panel.buttons.children if getattr(b, "reveal", False)]
        if reveal:
            yield from self.tap_in_sight(reveal[0])
            yield 3
            yield from self.look_once("why_not_shown")
        panel.dismiss(animation=False)
        yield 3

    def bar_shown(self, screen: Any, key: str) -> Step:
        """Waits until the action bar offers ``key``: the bar of the decision just reached may
        come some frames late (after the dice box's thread answers, in wall-clock time), so as
        long as any wait for the app (``waiting.WaitBudget``)."""

        def offered() -> bool:
            self.lay_out()
            return any(b.bar_key == key for b in screen.ids.bar.children)

        yield offered

    def bar_button(self, screen: Any, key: str) -> Any:
        buttons = [b for b in screen.ids.bar.children if b.bar_key == key]
        if len(buttons) != 1:
            raise AssertionError(f"{len(buttons)} action-bar buttons for {key}")
        return buttons[0]

    def road_by_taps(self, board: Any, action: BuildRoad) -> Step:
        """The first road is taken by taps on the board: on its middle, or where the board is
        small on its two ends (a look while the first end is held); where the board is an
        overview, a first tap zooms in (a look at the zoom)."""
        self.lay_out()
        yield 1
        taps = board.taps_for(("edge", action.edge))
        for n, (x, y) in enumerate(taps):
            zooming = getattr(board, "overview", False)
            self.tap_at(x, y)
            yield 3
            if n + 1 < len(taps):
                yield from self.look("road_zoomed_in" if zooming else "road_end_held")

    def progress_card_rule(self, hand: Any) -> Step:
        """A progress card tapped in an uncovered hand shows its rule: the first seat holding
        one is uncovered (its seat button, then the cover)."""
        for seat_button in reversed(hand.ids.seats.children):
            yield from self.tap_in_sight(seat_button)
            yield 3
            yield from self.tap_in_sight(hand.ids.cover)
            yield 3
            self.lay_out()
            tiles = [t for t in hand.ids.progress.children if hasattr(t, "card")]
            if tiles:
                yield from self.tap_in_sight(tiles[-1])
                yield 12  # the popup opens with an animation
                yield from self.look("progress_card_rule")
                self.popup().dismiss(animation=False)
                yield 3
                return

    def information_screens(self) -> Step:
        """The toolbar's hand (covered, then shown), chart and statistics."""
        app = self.app
        toolbar = self.game_screen().ids.toolbar
        # A picker answered just before closes on the next frame: the toolbar is under it.
        yield lambda: not [w for w in Window.children if isinstance(w, ModalView)]
        yield 2
        yield from self.tap_in_sight(toolbar.ids.hand)
        yield 3
        hand = app.root.get_screen("hand")
        yield from self.look_once("hand")
        yield from self.tap_in_sight(hand.ids.cover)
        yield 3
        yield from self.look("hand_shown")
        yield from self.progress_card_rule(hand)
        yield from self.tap_in_sight(hand.ids.back)
        yield 3
        yield from self.tap_in_sight(toolbar.ids.chart)
        yield 3
        yield from self.look_once("chart")
        yield from self.tap_in_sight(app.root.get_screen("improvements").ids.back)
        yield 3
        yield from self.tap_in_sight(toolbar.ids.stats)
        yield 3
        yield from self.look_once("statistics")
        yield from self.tap_in_sight(app.root.get_screen("statistics").ids.back)
        yield 3
        yield from self.resume_from_home()

    def resume_from_home(self) -> Step:
        """Home in the middle of a game: the game under Resume, its Delete asks first (kept),
        then the game is resumed with its button."""
        app = self.app
        yield from self.tap_in_sight(self.game_screen().ids.toolbar.ids.home)
        yield 3
        home = app.root.get_screen("home")
        yield from self.look("home_resume")
        rows = [w for w in home.ids.games.walk(restrict=True) if hasattr(w, "summary")]
        if len(rows) != 1:
            raise AssertionError(f"{len(rows)} games offered for resume")
        yield from self.tap_in_sight(rows[0])
        yield 12  # the popup opens with an animation
        yield from self.look("delete_confirm")
        yield from self.tap_in_sight(self.popup().ids.no)
        yield 12
        resume = [w for w in home.ids.games.walk(restrict=True) if hasattr(w, "game_id")]
        yield from self.tap_in_sight(resume[0])
        yield lambda: app.root.current == "game"
        yield 2
