"""A six-player game's screens at the small tablet sizes, in German and Vietnamese, started by
``test_small_screen_ui.py`` in its own process under Xvfb.

The game screen at 800x480, 1024x600 and portrait 800x1280: the bank's words and the log's
lines never overlap, at its newest end the log shows no line cut at its top, and the
barbarian track's words fit their box (in Polish too: "Barbarzyńcy 6/7 · ~2 rzuty"). The
Bishop's rule, the longest in German, fits its popup at 800x480. Then Home with no game open:
it greets with the last game's 30-hex board, its harbours in the table's words. Then Settings
in a copy whose German catalogue is not compiled: German greyed, with the reason.
Last, a four-player Heading for New Shores turn at 800x480 whose action bar has twelve buttons:
the bar scrolls, and the decision its last row opens keeps "Show my cards" in the window. Every
step is recorded as a check and photographed.

Usage: python small_screen_scenario.py --journal DB --artifacts DIR --result JSON
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from scenario_driver import ScenarioDriver, Step, scenario_main

from companion_app import i18n
from companion_app.rules.board import Board
from companion_app.rules.config import GameConfig
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64

SIZES = ((800, 480), (1024, 600), (800, 1280))
LANGUAGES = ("de", "vi")
GAME_LANGUAGES = (*LANGUAGES, "pl")
"""The game screen's languages: Polish has the longest barbarian track words."""
SEED = 3
TURNS = 30
MORE_ACTIONS = 12
SEA_BAR_BUTTONS = 12
"""A New Shores turn's bar at most: Why not? and eleven kinds of action."""
SEA_BAR_SEED = 1130
"""A four-player New Shores game planned as the tour plans one whose turn at its action 166
has such a bar with the Commercial Harbor (the tour's own game has none as full)."""


def board_only_hexes(board: Board) -> Any:
    from companion_app.presenters.board_picture import board_only_picture

    return board_only_picture(board).hexes


def window_box(widget: Any) -> tuple[float, float, float, float]:
    x, y = widget.to_window(widget.x, widget.y)
    return x, y, widget.width, widget.height


def text_box(label: Any) -> tuple[float, float, float, float]:
    """Where a label's text is drawn: its texture, centred in the label."""
    width, height = label.texture_size
    x, y = label.to_window(label.center_x - width / 2, label.center_y - height / 2)
    return x, y, width, height


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The height two boxes share (0 where they do not meet)."""
    across = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    down = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0.0, down) if across > 0 else 0.0


def cut_lines(log: Any) -> list[str]:
    """The log's lines drawn in part only: inside its box at one end, outside at the other."""
    view = window_box(log)
    cut = []
    for line in log.layout_manager.children:
        box = window_box(line)
        shown = overlap(box, view)
        if 0.5 < shown < box[3] - 0.5:
            cut.append(f"{line.text!r}: {shown:.0f} of {box[3]:.0f} px shown")
    return cut


def label_problems(label: Any) -> list[str]:
    """The layout check's problems of one label (its text needs more than its box)."""
    from kivy.core.window import Window
    from kivy.metrics import dp

    from companion_app.app.tour.layout_check import collect, problems

    box = window_box(label)
    mine = [b for b in collect(Window) if b.rect == box and b.needs is not None]
    return problems(mine, Window.size, dp(1))


class Scenario(ScenarioDriver):
    def steps(self) -> Step:
        from kivy.core.window import Window

        app = self.app
        app.announce_events = False  # the game screen stays, whatever the actions bring
        yield lambda: app.root is not None and app.dice is not None
        yield 5
        session = app.journal.new_game(GameConfig.for_players(6, seed=SEED))
        rng = SplitMix64(SEED)
        while session.game.turn < TURNS:
            session.apply(choose_random_action(session.game, rng))
        app.open_session(session)
        screen = app.root.get_screen("game")
        for code in GAME_LANGUAGES:
            app.switch_language(code)
            for width, height in SIZES:
                Window.size = (width, height)
                yield lambda w=width, h=height: tuple(Window.size) == (w, h)
                yield 5
                where = f"{code} {width}x{height}"
                bank, log = screen.ids.bank, screen.ids.log
                self.check(f"{where}: the log is at its newest line", log.scroll_y, 0)
                self.check(f"{where}: the log has lines", len(log.lines) > 5, True)
                self.check(
                    f"{where}: the bank's words and the log's box do not overlap",
                    overlap(text_box(bank), window_box(log)),
                    0.0,
                )
                self.check(f"{where}: no log line is cut", cut_lines(log), [])
                self.check(
                    f"{where}: the barbarian track's words fit",
                    label_problems(screen.ids.track_words),
                    [],
                )
                self.check(
                    f"{where}: the decision's heading fits",
                    label_problems(screen.ids.headline),
                    [],
                )
                yield from self.shot(f"small_screen_{code}_{width}x{height}.png")
        # The log's lines move with each action: a few more at 800x480 in German.
        app.switch_language("de")
        Window.size = (800, 480)
        yield lambda: tuple(Window.size) == (800, 480)
        for step in range(MORE_ACTIONS):
            app.apply(choose_random_action(session.game, rng))
            yield 3
            bank, log = screen.ids.bank, screen.ids.log
            where = f"de 800x480, {step + 1} actions on"
            self.check(
                f"{where}: the bank's words and the log's box do not overlap",
                overlap(text_box(bank), window_box(log)),
                0.0,
            )
            self.check(f"{where}: no log line is cut", cut_lines(log), [])
        yield from self.bishop_rule_at_800x480()
        yield from self.home_after_the_game(session.game.config.board)
        yield from self.settings_without_german()
        yield from self.sea_bar_at_800x480()

    def bishop_rule_at_800x480(self) -> Step:
        """The Bishop's rule, the longest in German, in its popup at 800x480: set smaller
        rather than its last line cut."""
        from companion_app.app.screens.hand import CardRulePopup
        from companion_app.rules.cards import ProgressCard

        popup = CardRulePopup(ProgressCard.BISHOP)
        popup.open(animation=False)
        yield 5
        self.check(
            "de 800x480: the Bishop's rule fits its popup", label_problems(popup.ids.rule), []
        )
        yield from self.shot("small_screen_bishop_rule_de_800x480.png")
        popup.dismiss(animation=False)
        yield 2

    def home_after_the_game(self, board: Board) -> Step:
        """Home as at a start: no game open, the journal's last game is the six players'."""
        from kivy.metrics import dp

        app = self.app
        app.session = None
        app.dice.attach(None)
        home = app.show("home")
        yield 5
        for code in LANGUAGES:
            app.switch_language(code)
            yield 3
            picture = home.ids.board.picture
            self.check(f"home {code}: the last game's board", len(picture.hexes), 30)
            self.check(f"home {code}: its hexes", picture.hexes, board_only_hexes(board))
            self.check(
                f"home {code}: its harbours in the table's words",
                [label for _slot, label, _harbour in picture.harbours],
                [
                    "3:1" if h.resource is None else f"2:1 {i18n.render(h.resource.words, code)}"
                    for h in board.harbours
                ],
            )
            self.check(
                f"home {code} 800x480: its robber drawn at 44 dp or more",
                [round(d.shown_size) for d in home.ids.board.drawn if d.shown_size < dp(44)],
                [],
            )
            yield from self.shot(f"small_screen_home_{code}.png")

    def settings_without_german(self) -> Step:
        """The German catalogue not compiled (as in a checkout without ``make catalogues``)."""
        from kivy.core.window import Window

        from companion_app.app.screens.home import SettingsPopup

        app = self.app
        home = app.show("home")
        yield 5
        compiled = i18n.LOCALE_DIR
        copy = Path(tempfile.mkdtemp()) / "locale"
        shutil.copytree(compiled, copy)
        (copy / "de" / "LC_MESSAGES" / "companion.mo").unlink()
        i18n.LOCALE_DIR = copy
        i18n.catalogue.cache_clear()
        try:
            app.switch_language("vi")
            self.check("no German catalogue: it cannot be shown", i18n.can_show("de"), False)
            self.check("no German catalogue: Vietnamese can", i18n.can_show("vi"), True)
            yield from self.tap(home.ids.settings)
            popup = next(w for w in Window.children if isinstance(w, SettingsPopup))
            ids = popup.ids
            self.check(
                "settings: German greyed, the others not",
                {code: ids[f"lang_{code}"].disabled for code in i18n.LANGUAGES},
                {code: code == "de" for code in i18n.LANGUAGES},
            )
            reason = ids.languages_missing
            self.check(
                "settings: the reason names German and what compiles it",
                ("Deutsch" in reason.text, "make catalogues" in reason.text, reason.height > 0),
                (True, True, True),
            )
            self.check(
                "settings: the reason in the table's language",
                reason.text,
                i18n.catalogue("vi")
                .gettext(
                    "Greyed out: {languages}. Their words are not compiled in this copy "
                    "(make catalogues)."
                )
                .format(languages="Deutsch"),
            )
            yield from self.shot("small_screen_settings_no_german.png")
            yield from self.tap(ids.lang_de)
            self.check("settings: a tap on German changes nothing", app.language, "vi")
            popup.dismiss()
            yield 2
        finally:
            i18n.LOCALE_DIR = compiled
            i18n.catalogue.cache_clear()
            shutil.rmtree(copy.parent)

    def sea_bar_at_800x480(self) -> Step:
        """Heading for New Shores, four players, at 800x480 in German: the planned game's turn
        whose bar has twelve buttons (ships, knights, the Commercial Harbor, Why not?). The
        bar scrolls; the Commercial Harbor, tapped in its last row, opens its decision with
        "Show my cards" in the window, and the layout check finds nothing."""
        from kivy.core.window import Window
        from kivy.metrics import dp

        from companion_app.app.tour.layout_check import collect, inside, problems
        from companion_app.app.tour.plan import make_plan
        from companion_app.presenters.choices import HARBOR_KEY, action_bar

        app = self.app
        plan = make_plan(SEA_BAR_SEED, 4, scenario="new_shores")
        session = app.journal.new_game(plan.config)
        actions = iter(plan.actions)
        while len(action_bar(session.game)) < SEA_BAR_BUTTONS - 1 or HARBOR_KEY not in {
            b.key for b in action_bar(session.game)
        }:
            session.apply(next(actions))
        app.switch_language("de")
        Window.size = (800, 480)
        yield lambda: tuple(Window.size) == (800, 480)
        app.open_session(session)
        yield 5
        screen = app.root.get_screen("game")
        bar = screen.ids.bar
        view = screen.ids.get("bar_view", bar.parent)
        self.check("sea bar 800x480: its buttons", len(bar.children), SEA_BAR_BUTTONS)
        self.check(
            "sea bar 800x480: it scrolls",
            (bar.height > view.height, getattr(view, "do_scroll_y", False)),
            (True, True),
        )
        harbor = next(b for b in bar.children if b.bar_key == HARBOR_KEY)
        yield from self.tap(harbor)
        yield 5
        # The bar is filled again after a tap: its open button is a new one.
        harbor = next(b for b in bar.children if b.bar_key == HARBOR_KEY)
        window = (0.0, 0.0, float(Window.width), float(Window.height))
        choices = list(screen.ids.actions.children)
        self.check("sea bar 800x480: the Commercial Harbor is open", harbor.state, "down")
        self.check(
            "sea bar 800x480: Show my cards offered",
            [b.text for b in choices],
            [i18n.catalogue("de").gettext("Show my cards")],
        )
        self.check(
            "sea bar 800x480: the choices lie in the window",
            [b.text for b in choices if not inside(window_box(b), window)],
            [],
        )
        self.check(
            "sea bar 800x480: the open button in sight",
            inside(window_box(harbor), window_box(view)),
            True,
        )
        self.check(
            "sea bar 800x480: the layout check",
            problems(collect(Window), Window.size, dp(1)),
            [],
        )
        yield from self.shot("small_screen_sea_bar_de_800x480.png")


if __name__ == "__main__":
    sys.exit(scenario_main(Scenario, dice_seed=SEED))
