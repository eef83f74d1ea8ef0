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
        self._rolls: object = None
        """The decision at which a bot answered "roll": the dice box rolls, it is not asked."""
        self._failed: object = None
        self.panel: Any = None
        self._watching_screens = False
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
        seat = BT.bot_to_decide(game)
        deciding = seat is not None and key not in (self._rolls, self._failed)
        if deciding and self._asked != key:
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
        return BT.bot_to_decide(session.game) is not None and key not in (self._rolls, self._failed)

    # ---- asking the bot -------------------------------------------------------------------

    def _ask(self, game: Any, seat: Any, key: object) -> None:
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
            Clock.schedule_once(lambda _dt: self._decided(key, choice), 0)

        threading.Thread(target=think, name="bot", daemon=True).start()

    def _decided(self, key: object, choice: Any) -> None:
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
            self._rolls = key
            self.app.refresh()
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
        if manager is None:
            return
        if not self._watching_screens:
            # Back on the game screen (from the attack, a hand, the chart): the steps again.
            manager.bind(current=lambda *_a: self.follow())
            self._watching_screens = True
        if not manager.has_screen("game") or manager.current != "game":
            self._close_panel()  # another screen is shown: the steps wait for the game's
            return
        screen = manager.get_screen("game")
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
