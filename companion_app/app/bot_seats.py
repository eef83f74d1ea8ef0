"""The seats the tablet plays, in the running app: the bot is asked off the main thread (a
decision may take half a second), its choice applied on the main thread through
:meth:`CompanionApp.apply`, the path of a tap (journal, undo, log, dice box, phones), until a
person decides or the dice must roll; then the steps the table does by hand are shown with one
"Done" (:class:`~companion_app.app.widgets.bot_turn_panel.BotTurnPanel`).

A choice that comes back for a decision no longer due (an undo, a press of the box meanwhile)
is dropped and the bot is asked again. A game without bot seats costs one look at its config.
"""

from __future__ import annotations

import copy
import threading
from typing import Any

from kivy.clock import Clock

from companion_app.i18n.current import _
from companion_app.presenters import bot_turn as BT
from companion_app.presenters.game_controller import decision_key


class TableBots:
    """Owned by the app; :meth:`follow` is called at the end of every ``refresh()``."""

    def __init__(self, app: Any, decide: BT.Decide | None = None) -> None:
        self.app = app
        self._decide = decide
        self.table = BT.BotTable()
        self._session: object = None
        self._asked: object = None
        """The decision the bot is thinking about now (its key), or None."""
        self._passed: tuple[object, set[int]] = (None, set())
        """The decision at which bots answered "roll" (the dice box rolls) or "I do not
        build" (5-6 players: the next bot seat that may build is asked), and those seats."""
        self._failed: object = None
        self.panel: Any = None
        self._watched: Any = None
        """The screen manager whose return to the game screen shows the steps."""
        app.bind(language=lambda *_a: self.follow())  # the steps again in the new language

    @property
    def decide(self) -> BT.Decide:
        if self._decide is None:
            from companion_app.bot import decide

            self._decide = decide
        return self._decide

    def follow(self) -> None:
        session = self.app.session
        game = session.game if session is not None else None
        if game is None or not BT.has_bots(game):
            self._close_panel()
            self._session = session
            return
        if session is not self._session:
            self._session, self.table = session, BT.BotTable()
        key = decision_key(game)
        seat = BT.bot_to_decide(game, self._passed_at(key))
        deciding = seat is not None and key != self._failed
        if deciding and seat is not None and self._asked != key:
            self._ask(game, seat, key)
        self._show(self.table.steps(game, deciding=deciding))

    @property
    def busy(self) -> bool:
        """A bot is to decide now or thinking (the table waits for it)."""
        session = self.app.session
        if self._asked is not None:
            return True
        if session is None or not BT.has_bots(session.game):
            return False
        key = decision_key(session.game)
        seat = BT.bot_to_decide(session.game, self._passed_at(key))
        return seat is not None and key != self._failed

    def _passed_at(self, key: object) -> set[int]:
        at, seats = self._passed
        return seats if at == key else set()

    # ---- asking the bot -------------------------------------------------------------------

    def _ask(self, game: Any, seat: int, key: object) -> None:
        self._asked = key
        level = BT.bot_level(game, seat)
        assert level is not None
        position = copy.deepcopy(game)
        decide = self.decide

        def think() -> None:
            try:
                choice: Any = decide(position, seat, level)
            except Exception as exc:  # a bot's failure stops the bot, never the table
                choice = exc
            Clock.schedule_once(lambda _dt: self._decided(key, seat, choice), 0)

        threading.Thread(target=think, name="bot", daemon=True).start()

    def _decided(self, key: object, seat: int, choice: Any) -> None:
        if self._asked == key:
            self._asked = None
        session = self.app.session
        if session is None or decision_key(session.game) != key:
            self.follow()  # the game moved on meanwhile: ask about the decision due now
            return
        if isinstance(choice, Exception):
            self._failed = key
            self.app.message = _("The tablet's seat could not decide: {problem}").format(
                problem=str(choice).splitlines()[0][:200] if str(choice) else type(choice).__name__
            )
            self.app.refresh()
            return
        if BT.waits_for_table(choice.action):
            self._passed = (key, self._passed_at(key) | {seat})
            self.app.refresh()  # the next bot seat that may special-build is asked
            return
        self.table.note(len(session.game.history), choice.reason)
        if not self.app.apply(choice.action):
            self._failed = key

    # ---- the table's steps ----------------------------------------------------------------

    def done(self) -> None:
        """The table did the steps: one tap for the bot's whole turn."""
        session = self.app.session
        if session is not None:
            self.table.confirm(session.game)
        self._close_panel()
        self.app.refresh()

    def _show(self, steps: BT.BotSteps) -> None:
        if not steps.steps:
            self._close_panel()
            return
        manager = self.app.root
        if manager is None or not manager.has_screen("game"):
            return
        if self._watched is not manager:
            # Steps done while another screen is shown (the hand, the chart...) are shown on
            # the way back to the game screen, not at some later refresh.
            self._watched = manager
            manager.bind(current=self._screen_changed)
        if manager.current != "game":
            self._close_panel()  # another screen is shown: the steps wait for the game's
            return
        self._open_panel(steps, manager.get_screen("game"))

    def _screen_changed(self, _manager: Any, name: str) -> None:
        if name == "game":
            self.follow()

    def _open_panel(self, steps: BT.BotSteps, screen: Any) -> None:
        from companion_app.app.widgets.bot_turn_panel import BotTurnPanel

        if self.panel is None:
            self.panel = BotTurnPanel(on_done=self.done)
            self.panel.place_over(screen.ids.decisions)
            self.panel.open(animation=False)
        else:
            self.panel.place_over(screen.ids.decisions)
        self.panel.show(steps, screen.ids.board)

    def _close_panel(self) -> None:
        panel, self.panel = self.panel, None
        if panel is not None:
            panel.dismiss(animation=False)
