"""The Kivy application object: owns the screens and the (non-UI) services they show.

Services are plain objects: the journal (every action committed before it is shown), the
current game session, the dice controller. Screens call :meth:`CompanionApp.apply` with the
rules core's own actions and redraw in :meth:`refresh`; nothing here decides a rule.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import StringProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion_app import APP_NAME, __version__
from companion_app.app.dice_controller import DiceController
from companion_app.app.screens.home import HomeScreen
from companion_app.device.discovery import DiceSource, choose_dice_source
from companion_app.journal import GameSession, Journal, JournalError
from companion_app.rules.actions import Action
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import IllegalActionError

SCREENSHOT_DELAY_S = 1.0
READY_LINE = "READY"
"""Printed (with the seconds since start) once the home screen's first frame is on screen."""


class CompanionApp(App):
    """Holds the screens, the journal, the current game session and the dice controller."""

    dice_status = StringProperty("")
    dice_kind = StringProperty("virtual")
    message = StringProperty("")
    """The last problem to show the table (an illegal action, a journal error)."""
    version = StringProperty(__version__)

    def __init__(
        self,
        *,
        dice: DiceSource,
        journal_path: Path,
        screenshot: str | None = None,
        exit_when_ready: bool = False,
        dice_seed: int | None = None,
        dice_backend: str = "auto",
        started_at: float | None = None,
    ) -> None:
        super().__init__()
        self.title = APP_NAME
        self.dice_source = dice
        self.journal_path = journal_path
        self._journal: Journal | None = None
        self.session: GameSession | None = None
        self._screenshot = screenshot
        self._exit_when_ready = exit_when_ready
        self._started_at = started_at if started_at is not None else time.perf_counter()
        self._dice_seed = dice_seed
        self._dice_backend = dice_backend
        self.dice: DiceController | None = None
        self.dice_status = dice.describe()
        self.pending_config: GameConfig | None = None
        """A configured game waiting for the table to lay out its board."""

    # ---- lifetime -------------------------------------------------------------------------

    def build(self) -> ScreenManager:
        Window.clearcolor = (0.11, 0.13, 0.16, 1)
        manager = ScreenManager(transition=NoTransition())
        manager.add_widget(HomeScreen(name="home"))
        if self._screenshot or self._exit_when_ready:
            Window.bind(on_flip=self._first_frame)
        return manager

    def on_start(self) -> None:
        # The dice start after the first frame, so the home screen is usable at once.
        Clock.schedule_once(lambda _dt: self.start_dice(), 0.05)

    def on_stop(self) -> None:
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
        self.dice = DiceController(
            self.dice_source,
            schedule=lambda fn: Clock.schedule_once(lambda _dt: fn(), 0),
            on_change=self.refresh,
            seed=self._dice_seed,
            backend=self._dice_backend,
        )
        try:
            self.dice.start()
        except Exception as exc:  # a missing port, a failed emulator: the app still runs
            self.message = f"Dice: {exc}"
        self.dice.attach(self.session)
        self._show_dice_status()

    def search_dice_box(self) -> None:
        source = choose_dice_source()
        self.start_dice(source)
        if source.is_virtual:
            self.message = "No dice box found: the virtual dice roll for now."

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
        return self._journal

    def unfinished_games(self) -> list[Any]:
        try:
            return self.journal.unfinished_games()
        except JournalError as exc:
            self.message = f"Journal: {exc}"
            return []

    def start_game(self, config: GameConfig) -> None:
        self.open_session(self.journal.new_game(config))

    def resume_game(self, game_id: int) -> None:
        try:
            self.open_session(self.journal.open_game(game_id))
        except JournalError as exc:
            self.message = f"Could not resume game {game_id}: {exc}"

    def open_session(self, session: GameSession) -> None:
        self.session = session
        self.message = ""
        if self.dice is not None:
            self.dice.attach(session)
        self.show("game")
        self.refresh()

    def apply(self, action: Action) -> bool:
        """Commit an action to the journal, then show it. False (with a message) if refused."""
        if self.session is None:
            return False
        try:
            self.session.apply(action)
        except (IllegalActionError, JournalError) as exc:
            self.message = str(exc)
            self.refresh()
            return False
        self.message = ""
        self.refresh()
        return True

    def refresh(self) -> None:
        """Everything on screen follows the current state; the dice box follows too."""
        self._show_dice_status()
        if self.dice is not None and self.dice.last_error:
            self.message, self.dice.last_error = self.dice.last_error, ""
        if self.dice is not None and self.session is not None:
            self.dice.sync()
        manager = self.root
        if manager is not None and manager.has_screen("game"):
            manager.get_screen("game").refresh()

    # ---- screens ------------------------------------------------------------------------------

    def show(self, name: str) -> Any:
        """Switch to a screen, creating it on first use (only the home screen loads at start)."""
        manager: ScreenManager = self.root
        if not manager.has_screen(name):
            manager.add_widget(_make_screen(name))
        manager.current = name
        return manager.get_screen(name)


def _make_screen(name: str) -> Any:
    if name == "new_game":
        from companion_app.app.screens.new_game import NewGameScreen

        return NewGameScreen(name=name)
    if name == "build_table":
        from companion_app.app.screens.build_table import BuildTableScreen

        return BuildTableScreen(name=name)
    if name == "game":
        from companion_app.app.screens.game import GameScreen

        return GameScreen(name=name)
    raise KeyError(f"no screen named {name!r}")


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
