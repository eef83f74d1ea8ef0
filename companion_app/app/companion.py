"""The Kivy application object: owns the screens and the (non-UI) services they show.

Services are plain objects: the journal (every action committed before it is shown), the
current game session, the dice controller. Screens call :meth:`CompanionApp.apply` with the
rules core's own actions and redraw in :meth:`refresh`; nothing here decides a rule.

Undo and redo go through the journal session, then :meth:`refresh` tells the dice box the new
state (as after any action). :meth:`refresh` also notices a new barbarian attack and the end of
the game, however they came (a tap, a roll from the dice box, a redo), and shows their screens.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion_app import APP_NAME, __version__
from companion_app.app.screens import INFO_SCREENS, make_screen
from companion_app.app.screens.home import HomeScreen
from companion_app.app.sound_cues import SoundCues
from companion_app.device.discovery import DiceSource, choose_dice_source
from companion_app.i18n import LANGUAGES, SOURCE, can_show, current, render_error
from companion_app.i18n.current import _, n_
from companion_app.journal import GameSession, Journal, JournalError, JournalStep
from companion_app.journal.errors import ExportNotSavedError
from companion_app.journal.exports import delete_after_export, exports_folder, save_export
from companion_app.journal.upgrade import backup_note
from companion_app.presenters.home_board import LastBoard
from companion_app.presenters.settings import (
    chosen_language,
    read_settings,
    settings_path,
    write_settings,
)
from companion_app.rules.actions import Action, Roll
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import IllegalActionError, NothingToUndoError

if TYPE_CHECKING:
    # The phones (aiohttp) load only when switched on; a game's modules (the bots, the log,
    # the decisions' helpers) and the dice's when first used, after Home's first frame.
    from companion_app.app.bot_seats import TableBots
    from companion_app.app.phones import TablePhones
    from companion_app.game_log import GameLog
    from companion_app.presenters.dice_controller import DiceController

SCREENSHOT_DELAY_S = 1.0
READY_LINE = "READY"
"""Printed (with the seconds since start) once the home screen's first frame is on screen."""


class CompanionApp(App):
    """Holds the screens, the journal, the current game session and the dice controller."""

    dice_status = StringProperty("")
    dice_kind = StringProperty("virtual")
    message = StringProperty("")
    journal_problem = StringProperty("")
    """Why the journal file cannot be used (Home then offers a new one or another file)."""
    """The last problem to show the table (an illegal action, a journal error)."""
    version = StringProperty(__version__)
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    muted = BooleanProperty(False)
    """The sound cues are off (remembered between games, in settings.json beside the journal)."""
    language = StringProperty(SOURCE)
    """The table's language (a code of ``i18n.LANGUAGES``): chosen in Settings and remembered,
    the system's locale at the first start, ``--lang`` for one run."""
    game_over = BooleanProperty(False)
    """The current game has a winner: the toolbar offers the end screen again."""
    announce_events = True
    """Show the barbarian attack and game-over screens when they happen (tests that drive only
    the game screen may turn this off)."""

    def __init__(
        self,
        *,
        dice: DiceSource,
        journal_path: Path,
        screenshot: str | None = None,
        exit_when_ready: bool = False,
        dice_seed: int | None = None,
        started_at: float | None = None,
        language: str | None = None,
    ) -> None:
        super().__init__()
        self.title = APP_NAME
        self.dice_source = dice
        self.journal_path = journal_path
        self._journal: Journal | None = None
        self.session: GameSession | None = None
        self.game_log: GameLog | None = None
        """The current game's log (one per session: the screens and the phones read it),
        caught up by :meth:`session_log`."""
        self._log_at: tuple[object, int, object] | None = None
        self._screenshot = screenshot
        self._exit_when_ready = exit_when_ready
        self._started_at = started_at if started_at is not None else time.perf_counter()
        self._dice_seed = dice_seed
        self.dice: DiceController | None = None
        self.dice_status = dice.describe()
        self.pending_config: GameConfig | None = None
        """A configured game waiting for the table to lay out its board."""
        self._attacks_seen = 0
        self._offline_popup: Any = None
        self._over_seen = False
        self.last_export: Path | None = None
        self.phones: TablePhones | None = None
        """The table server for players' phones, while switched on (off by default)."""
        self._bots: TableBots | None = None
        self.settings_path = settings_path(journal_path)
        self.sounds = SoundCues(self.settings_path)
        self.muted = self.sounds.muted
        self.last_board = LastBoard()
        """The board Home greets with (`presenters.home_board`)."""
        self.language = chosen_language(language, journal_path, os.environ)
        current.use(self.language)

    @property
    def bots(self) -> TableBots:
        """The seats the tablet plays: asked after every refresh, their steps shown."""
        if self._bots is None:
            from companion_app.app.bot_seats import TableBots

            self._bots = TableBots(self)
        return self._bots

    @bots.setter
    def bots(self, bots: TableBots) -> None:
        self._bots = bots

    # ---- lifetime -------------------------------------------------------------------------

    def build(self) -> ScreenManager:
        Window.clearcolor = (0.11, 0.13, 0.16, 1)
        manager = ScreenManager(transition=NoTransition())
        manager.add_widget(HomeScreen(name="home"))
        if self._screenshot or self._exit_when_ready:
            Window.bind(on_flip=self._first_frame)
        return manager

    def on_start(self) -> None:
        # The dice start after the first frame, so the home screen shows at once: the virtual
        # dice run the box's firmware, whose start (imports, collections) took a fifth of a
        # second, and a fixed delay fired before the first frame on a slow start.
        Window.bind(on_flip=self._start_dice_after_first_frame)

    def _start_dice_after_first_frame(self, *_args: object) -> None:
        Window.unbind(on_flip=self._start_dice_after_first_frame)
        if self._exit_when_ready and not self._screenshot:
            return  # it quits after this frame
        Clock.schedule_once(lambda _dt: self.start_dice(), 0)

    def on_stop(self) -> None:
        self.stop_phones()
        if self.dice is not None:
            self.dice.close()
        if self._journal is not None:
            self._journal.close()

    def _first_frame(self, *_args: object) -> None:
        Window.unbind(on_flip=self._first_frame)
        if self._exit_when_ready:
            elapsed = time.perf_counter() - self._started_at
            print(f"{READY_LINE} {elapsed:.3f}", flush=True)
            if not self._screenshot:
                Clock.schedule_once(lambda _dt: self.stop(), 0)
                return
        if self._screenshot:
            Clock.schedule_once(self._take_screenshot, SCREENSHOT_DELAY_S)

    def _take_screenshot(self, _dt: float) -> None:
        assert self._screenshot is not None
        save_screenshot(self._screenshot)
        self.stop()

    # ---- dice ---------------------------------------------------------------------------------

    def start_dice(self, source: DiceSource | None = None) -> None:
        """Start (or restart with another source) the dice controller."""
        if self.dice is not None:
            self.dice.close()
        if source is not None:
            self.dice_source = source
        from companion_app.presenters import dice_controller

        self.dice = dice_controller.DiceController(
            self.dice_source,
            schedule=lambda fn: Clock.schedule_once(lambda _dt: fn(), 0),
            on_change=self._dice_changed,
            seed=self._dice_seed,
        )
        try:
            self.dice.start()
        except Exception as exc:  # a missing port, a failed emulator: the app still runs
            self.message = _("Dice: {problem}").format(problem=exc)
        self.dice.attach(self.session)
        self._show_dice_status()

    def search_dice_box(self) -> None:
        source = choose_dice_source()
        self.start_dice(source)
        if source.is_virtual:
            self.message = _("No dice box found: the virtual dice roll for now.")

    def use_virtual_dice(self) -> None:
        self.start_dice(DiceSource(None))

    def roll_virtual(self) -> None:
        """The on-screen roll button: a press of the virtual dice box."""
        if self.dice is not None:
            self.dice.press_virtual()

    def _show_dice_status(self) -> None:
        if self.dice is not None:
            self.dice_status = self.dice.status.text
            self.dice_kind = self.dice.status.kind

    # ---- the journal and the game -------------------------------------------------------------

    @property
    def journal(self) -> Journal:
        if self._journal is None:
            self._journal = Journal(self.journal_path, make_parents=True)
            if self._journal.backup is not None:
                self.message = backup_note(self._journal.backup)
        return self._journal

    def unfinished_games(self) -> list[Any]:
        try:
            games = self.journal.unfinished_games()
        except JournalError as exc:
            self._journal_failed(exc)
            return []
        self.journal_problem = ""
        return games

    def _journal_failed(self, exc: JournalError) -> None:
        """The journal file cannot be used: Home says why and offers a way on."""
        if self._journal is not None:
            self._journal.close()
            self._journal = None
        self.journal_problem = str(exc)
        if self.root is not None:
            self.show("home")

    def use_journal(self, path: Path) -> None:
        """Use another journal file (a new one is created there if there is none)."""
        if self._journal is not None:
            self._journal.close()
            self._journal = None
        self.journal_path = path
        self.journal_problem = ""
        self.message = ""
        if self.root is not None:
            self.show("home").fill_games()

    def start_journal_beside(self) -> None:
        """A new, empty journal next to the damaged one, which stays as it is."""
        from companion_app.journal.paths import beside

        damaged = self.journal_path
        try:
            fresh = beside(damaged)
        except OSError as exc:
            self.message = _("Journal: {problem}").format(problem=exc)
            return
        self.use_journal(fresh)
        if not self.journal_problem:
            self.message = _("New journal {name}; the damaged one is kept at {path}").format(
                name=fresh.name, path=damaged
            )

    def start_game(self, config: GameConfig) -> None:
        try:
            session = self.journal.new_game(config)
        except JournalError as exc:
            self._journal_failed(exc)
            return
        self.open_session(session)

    def resume_game(self, game_id: int) -> None:
        try:
            session = self.journal.open_game(game_id)
        except JournalError as exc:
            self.message = _("Could not resume game {number}: {problem}").format(
                number=game_id, problem=exc
            )
            return
        self.open_session(session)

    def open_session(self, session: GameSession) -> None:
        self.stop_phones()
        self.session = session
        self.message = ""
        # A resumed game's past attack (or its end) is not news: only changes from now on are.
        self._attacks_seen = session.game.barbarian_attacks
        self._over_seen = session.game.is_over
        if self.dice is not None:
            self.dice.attach(session)
        self.show("game")
        self.refresh()

    def apply(self, action: Action) -> bool:
        """Commit an action to the journal, then show it. False (with a message) if refused."""
        return self.apply_all([action])

    def apply_all(self, actions: Sequence[Action]) -> bool:
        """Commit actions in order (a card picker's choice), stopping at the first refused;
        then any one-option decision that follows is taken at once, and the screen redrawn."""
        session = self.session
        if session is None:
            return False
        try:
            for action in actions:
                session.apply(action)
        except (IllegalActionError, JournalError) as exc:
            self.message = render_error(exc)
            self.refresh()
            return False
        self.message = ""
        self._apply_unexpected_rolls()
        self.take_only_choices()
        self.refresh()
        return True

    def _apply_unexpected_rolls(self) -> None:
        """After a change by hand: a roll the box sent while none was due is applied now if one
        is due (a press that crossed an undo). `refresh` itself never changes the game."""
        if self.dice is not None:
            self.dice.apply_unexpected()

    def _dice_changed(self) -> None:
        """The dice box's news (a roll applied, the link's state): the one-option decisions a
        roll brings are taken, then everything is redrawn."""
        self.take_only_choices()
        self.refresh()

    def take_only_choices(self) -> None:
        """A decision with one legal option and nothing private is taken at once after the game
        moved on (a tap, a roll from the box, a phone, a redo; never after an undo, and never
        by `refresh`); the log marks it, and Undo takes it back with what brought it
        (``game_controller.undo_span``)."""
        session = self.session
        if session is None:
            return
        from companion_app.presenters import game_controller as GC

        for _attempt in range(GC.MAX_AUTOMATIC):
            action = GC.only_choice(session.game)
            if action is None:
                return
            try:
                session.apply(action)
            except (IllegalActionError, JournalError) as exc:
                self.message = render_error(exc)
                return

    def refresh(self) -> None:
        """Everything on screen follows the current state; the dice box follows too."""
        self._show_dice_status()
        if self.dice is not None and self.dice.last_error:
            self.message, self.dice.last_error = self.dice.last_error, ""
        if self.dice is not None and self.session is not None:
            self.dice.update_box()
            self._offer_offline_rolls(self.session)
        session = self.session
        self.session_log()
        self.can_undo = session is not None and session.can_undo
        self.can_redo = session is not None and session.can_redo
        self.game_over = session is not None and session.game.is_over
        self.sounds.follow(session.game if session is not None else None)
        manager = self.root
        if manager is None:
            return
        if self.phones is not None:
            self.phones.publish()
        if manager.has_screen("game"):
            manager.get_screen("game").refresh()
        if session is not None:
            self._announce(session)
        current = manager.current_screen
        if current is not None and current.name in INFO_SCREENS:
            current.refresh()
        self.bots.follow()

    def session_log(self) -> GameLog | None:
        """The current game's log caught up with its history: the one log of the session,
        synced only when the history changed since (the screens and the phones read it)."""
        session = self.session
        if session is None:
            return None
        game = session.game
        history = game.history
        last = history[-1] if history else None
        at = self._log_at
        if (
            self.game_log is None
            or at is None
            or at[0] is not game
            or at[1] != len(history)
            or at[2] is not last
        ):
            from companion_app.game_log import log_for

            self.game_log = log_for(self.game_log, game)
            self._log_at = (game, len(history), last)
        return self.game_log

    def _announce(self, session: GameSession) -> None:
        """Show the attack screen after a new barbarian attack, the end screen once the game
        is won; an undo that takes them back only resets what counts as new."""
        game = session.game
        attacked = game.barbarian_attacks > self._attacks_seen
        won = game.is_over and not self._over_seen
        self._attacks_seen = game.barbarian_attacks
        self._over_seen = game.is_over
        if not self.announce_events or self.root.current not in ("game", *INFO_SCREENS):
            return
        if won:
            self.show("game_over")
        elif attacked:
            self.show("attack")

    def _offer_offline_rolls(self, session: GameSession) -> None:
        """Rolls the dice box made while the tablet was away are offered once the game waits
        for a roll: the oldest can be used, or all dismissed (the box then forgets them)."""
        table = self.dice.table if self.dice is not None else None
        game = session.game
        if self._offline_popup is not None or table is None or not table.offline:
            return
        if not game.awaiting_roll or game.is_over:
            return
        from companion_app.app.widgets.confirm import ConfirmPopup
        from companion_app.presenters import journal_words as J

        def answered(use: bool) -> None:
            self._offline_popup = None
            if use:
                table.apply_offline()
            else:
                table.dismiss_offline()
            self.refresh()

        self._offline_popup = ConfirmPopup(
            words=lambda: {
                "title": _("Rolls made while the tablet was away"),
                "question": J.offline_question(game, table.offline),
                "yes_text": _("Use that roll"),
                "no_text": _("Dismiss them"),
            },
            on_yes=lambda: answered(True),
            on_no=lambda: answered(False),
        )
        self._offline_popup.open()

    def set_muted(self, muted: bool) -> None:
        self.sounds.set_muted(muted)
        self.muted = muted

    # ---- undo / redo ------------------------------------------------------------------------

    def set_language(self, code: str) -> None:
        """Speak ``code`` from now on, everywhere at once, and remember it. The rules' words
        follow by themselves (:mod:`companion_app.app.language`); what a screen wrote from
        Python is written again: the shown screens are redrawn from the game, which a switch
        never changes."""
        if code not in LANGUAGES or not can_show(code):
            return  # Settings greys it: its catalogue is not compiled
        write_settings(self.settings_path, read_settings(self.settings_path).with_(language=code))
        self.switch_language(code)

    def switch_language(self, code: str) -> None:
        """The switch itself, not remembered (``--lang``, the tour's languages)."""
        current.use(code)
        self.language = code
        self._show_dice_status()
        manager = self.root
        if manager is None:
            return
        for screen in manager.screens:
            retranslate = getattr(screen, "retranslate", None)
            if retranslate is not None:
                retranslate()

    def request_undo(self) -> None:
        """The Undo button: what one tap did is taken back (a card picker's choice whole, a
        choice taken at once with what brought it); a roll only after a confirmation (the dice
        were thrown)."""
        session = self.session
        if session is None or not session.can_undo:
            return
        from companion_app.presenters import game_controller as GC

        span = GC.undo_span(session.game)
        roll = next((a for a in span if isinstance(a, Roll)), None)
        if roll is not None:
            from companion_app.app.widgets.confirm import ConfirmPopup
            from companion_app.presenters import journal_words as J

            index = len(session.game.history) - 1 - span.index(roll)
            step = JournalStep(index, roll)
            ConfirmPopup(
                words=lambda: {
                    "question": J.undo_question(session.game, step),
                    "yes_text": _("Undo the roll"),
                },
                on_yes=self.undo,
            ).open()
        else:
            self.undo()

    def undo(self) -> JournalStep | None:
        """Take back what one tap did through the journal (``game_controller.undo_span``);
        the dice box follows. Returns the earliest step taken back."""
        session = self.session
        if session is None or not session.can_undo:
            return None
        from companion_app.presenters import game_controller as GC

        return self._undo_or_redo(len(GC.undo_span(session.game)), undo=True)

    def redo(self) -> JournalStep | None:
        """Take again what the last Undo took back; the dice box follows."""
        session = self.session
        if session is None or not session.can_redo:
            return None
        from companion_app.presenters import game_controller as GC

        return self._undo_or_redo(GC.redo_span(session.game, session.redo_actions), undo=False)

    def _undo_or_redo(self, count: int, *, undo: bool) -> JournalStep | None:
        session = self.session
        assert session is not None
        from companion_app.presenters import journal_words as J

        steps: list[JournalStep] = []
        try:
            for _step in range(max(1, count)):
                steps.append(session.undo() if undo else session.redo())
        except (JournalError, NothingToUndoError) as exc:
            self.message = (
                _("Undo failed: {problem}") if undo else _("Redo failed: {problem}")
            ).format(problem=exc)
            self.refresh()
            return None
        main = steps[-1] if undo else steps[0]
        words = J.step_words(session.game, main)
        if len(steps) > 1:
            self.message = (
                n_(
                    "Undone: {step} ({count} actions together)",
                    "Undone: {step} ({count} actions together)",
                    len(steps),
                    step=words,
                )
                if undo
                else n_(
                    "Redone: {step} ({count} actions together)",
                    "Redone: {step} ({count} actions together)",
                    len(steps),
                    step=words,
                )
            )
        else:
            self.message = (_("Undone: {step}") if undo else _("Redone: {step}")).format(step=words)
        length = len(session.game.history)
        self._apply_unexpected_rolls()
        if not undo or len(session.game.history) > length:
            self.take_only_choices()
        self.refresh()
        return main

    # ---- export ------------------------------------------------------------------------------

    def export_game(self, game_id: int | None = None) -> Path | None:
        """Write a game's journal export (the current game's by default) next to the journal;
        returns the file."""
        session = self.session
        if game_id is None:
            if session is None:
                return None
            game_id = session.game_id
        try:
            path = save_export(self.journal, game_id, exports_folder(self.journal_path))
        except JournalError as exc:
            self.message = _("Export failed: {problem}").format(problem=exc)
            return None
        self.last_export = path
        return path

    # ---- phones (docs/phones.md) ---------------------------------------------------------------

    def open_phones(self) -> None:
        """Switch the table server on (if it is off) and show each seat's QR code."""
        if self.session is None:
            return
        from companion_app.app.phones import TablePhones
        from companion_app.app.widgets.phones_popup import PhonesPopup

        if self.phones is None:
            session = self.session
            phones = TablePhones(
                session,
                apply=self.apply,
                refusal=lambda: self.message,
                current=lambda: self.session,
                log=lambda: self._phones_log(session),
                on_request=lambda _seat: self.refresh(),
            )
            try:
                phones.start()
            except OSError as exc:
                self.message = _("Phones: cannot listen on {host}: {problem}").format(
                    host=phones.host, problem=exc.strerror or exc
                )
                return
            self.phones = phones
        config = self.session.game.config
        bots = frozenset(seat for seat, p in enumerate(config.players) if p.bot is not None)
        PhonesPopup(self.phones, config.names, tablets=bots).open()

    def _phones_log(self, session: GameSession) -> GameLog:
        from companion_app.game_log import log_for

        log = self.session_log() if self.session is session else None
        return log if log is not None else log_for(None, session.game)

    def stop_phones(self) -> None:
        if self.phones is not None:
            self.phones.stop()
            self.phones = None

    def delete_game(self, game_id: int) -> bool:
        """Delete a game from the journal, its export saved first (so an accidental delete can
        be imported back); the current game stays open only if it is another one."""
        try:
            path = delete_after_export(self.journal, game_id, exports_folder(self.journal_path))
        except ExportNotSavedError as exc:
            self.message = _("Export failed: {problem}").format(problem=exc)
            return False
        except JournalError as exc:
            self.message = _("Delete failed: {problem}").format(problem=exc)
            return False
        self.last_export = path
        if self.session is not None and self.session.game_id == game_id:
            self.session = None
            if self.dice is not None:
                self.dice.attach(None)
        self.message = _("Game {number} deleted; its export is {path}").format(
            number=game_id, path=path
        )
        return True

    # ---- screens ------------------------------------------------------------------------------

    def show(self, name: str) -> Any:
        """Switch to a screen, creating it on first use (only the home screen loads at start)."""
        manager: ScreenManager = self.root
        if name == "home":
            self.stop_phones()  # the game screen closes: so does the table server
        if not manager.has_screen(name):
            manager.add_widget(make_screen(name))
        manager.current = name
        return manager.get_screen(name)


def save_screenshot(path: str | os.PathLike[str]) -> Path:
    """Save the window to ``path`` (PNG); Kivy numbers its files, so the result is moved."""
    target = Path(path).resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    written = Window.screenshot(name=str(target))
    if written:
        os.replace(written, target)
    else:
        print(f"screenshot to {target} failed", file=sys.stderr)
    return target
