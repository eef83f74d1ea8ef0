"""The app's side of the phones: a :class:`PhoneTable` on Kivy's main thread.

Started from the game screen's "Phones" button, stopped when the game screen closes (home) or
another game opens. A phone's answer reaches the app's ``apply`` through
``Clock.schedule_once``, so it is checked, journaled and shown exactly like a tap (and published
once, by the app's refresh). The pages read the app's game log: one log per session.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.clock import Clock

from companion_app.game_log import GameLog
from companion_app.i18n.current import _
from companion_app.journal import GameSession
from companion_app.phones.pairing import lan_address
from companion_app.phones.table import PhoneTable
from companion_app.rules.actions import Action
from companion_app.rules.errors import IllegalActionError
from companion_app.rules.messages import msg

PHONES_PORT = 8765
"""The port phones connect to; the next free one is taken if it is busy."""
PORT_TRIES = 10


class TablePhones:
    """The table server of one game session, while the table wants phones.

    ``apply`` is the app's door for an action (False when refused, ``refusal()`` then says
    why), ``current`` the session on the tablet now, ``log`` the app's game log of it.
    """

    def __init__(
        self,
        session: GameSession,
        *,
        apply: Callable[[Action], bool],
        refusal: Callable[[], str],
        current: Callable[[], GameSession | None],
        log: Callable[[], GameLog],
        on_request: Callable[[int], None] | None = None,
    ) -> None:
        self.session = session
        self._apply_on_tablet = apply
        self._refusal = refusal
        self._current = current
        self.host = lan_address()
        self.table = PhoneTable(lambda: session.game, self._apply, log=log, on_request=on_request)

    def start(self) -> None:
        """:raises OSError: no port could be opened on the LAN address."""
        last: OSError | None = None
        for port in range(PHONES_PORT, PHONES_PORT + PORT_TRIES):
            try:
                self.table.serve(_on_main_thread, host=self.host, port=port)
                return
            except OSError as exc:
                last = exc
        assert last is not None
        raise last

    def stop(self) -> None:
        self.table.stop()

    @property
    def running(self) -> bool:
        return self.table.server is not None and self.table.server.running

    def publish(self) -> None:
        if self.running:
            self.table.publish()

    def waiting_for(self) -> str:
        return self.table.waiting_for() if self.running else ""

    def build_requests(self) -> str:
        """``"Asking to build: Green, Brown"`` while phones asked for a special build in this
        phase (5-6 players), else ""."""
        if not self.running:
            return ""
        seats = self.table.build_requests()
        if not seats:
            return ""
        names = self.session.game.config.names
        asking = ", ".join(names[seat] for seat in seats)
        return _("Asking to build: {players}").format(players=asking)

    def url(self, seat: int) -> str:
        return self.table.url(seat)

    def pair(self, seat: int) -> str:
        return self.table.pair(seat)

    def _apply(self, action: Action) -> None:
        """The tablet's own door; raises (state unchanged) if the action is refused."""
        if self._current() is not self.session:
            raise IllegalActionError(msg("this game is no longer on the tablet"))
        if not self._apply_on_tablet(action):
            refusal = self._refusal()
            if refusal:
                raise IllegalActionError(msg("the tablet refused it: {reason}", reason=refusal))
            raise IllegalActionError(msg("the tablet refused it"))


def _on_main_thread(fn: object) -> None:
    Clock.schedule_once(lambda _dt: fn(), 0)  # type: ignore[operator]
