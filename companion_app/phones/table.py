"""The tablet's side of the phones, without Kivy: pages out after every change, answers in.

:class:`PhoneTable` runs on the thread that owns the game (Kivy's main thread in the app, the
main thread of the headless server). After every change the owner calls :meth:`publish`;
each paired seat's page is rebuilt from ``Game.view_for(seat)`` and the owner's game log (one
log per session: the app's, handed in as ``log``) and sent if it changed. A phone's answer
arrives through :meth:`decide` on the same thread and goes through the same ``apply`` as a tap
on the tablet: the rules core checks it, the journal commits it, then everyone sees it (published
once: by the owner's refresh inside ``apply``, or else by :meth:`decide`), and the tablet can
undo it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from companion_app.game_log import GameLog
from companion_app.i18n.current import _
from companion_app.journal import JournalError
from companion_app.phones.server import DEFAULT_LIMITS, HintWork, Limits, TableServer
from companion_app.phones.view import (
    SeatPage,
    build_request_refusal,
    hint_refusal,
    phone_decider,
    phone_refusal,
    seat_page,
)
from companion_app.presenters.bot_turn import Decide
from companion_app.presenters.bot_turn import hint as expert_hint
from companion_app.rules.actions import Action
from companion_app.rules.errors import IllegalActionError
from companion_app.rules.game import Game
from companion_app.rules.messages import Msg, msg
from companion_app.rules.pieces import NOBODY


class PageSink(Protocol):
    """Takes state messages per seat and knows which seats have a phone connected."""

    def publish(self, pages: Mapping[int, SeatPage]) -> None: ...

    def connected(self) -> dict[int, int]: ...


class PhoneTable:
    """Phones for the game ``game()`` returns; ``apply`` is the tablet's own door for actions
    (it raises ``IllegalActionError`` naming the rule, or a ``JournalError``, if it refuses).
    ``log`` gives the owner's game log, caught up with the game (without it, the table keeps
    one itself: the headless server's)."""

    def __init__(
        self,
        game: Callable[[], Game],
        apply: Callable[[Action], object],
        *,
        log: Callable[[], GameLog] | None = None,
        on_answer: Callable[[int, Action], None] | None = None,
        on_request: Callable[[int], None] | None = None,
        expert: Decide | None = None,
    ) -> None:
        self._game = game
        self._expert = expert
        """The bot asked for a phone's "What would the Expert do?" (``companion_app.bot``'s
        ``decide`` unless given)."""
        self._apply = apply
        self._owner_log = log
        self._log: GameLog | None = None
        """The log this table keeps when the owner has none, caught up at each publish."""
        self._on_answer = on_answer
        self._on_request = on_request
        self._asked: dict[int, tuple[int, int]] = {}
        """Seats that asked to special-build, with the phase they asked in (its turn and
        the seat whose turn ended): a request lasts for its phase only."""
        self.publishes = 0
        """Pages rebuilt for every seat (one per publish), for the benchmarks and tests."""
        self._sent: dict[int, str] = {}
        self.revision = 0
        """Counts the publishes that changed some page; each state message carries it."""
        self.sink: PageSink | None = None
        """Where pages go: the running :class:`TableServer` (or a test's in-loop server)."""
        self.server: TableServer | None = None

    # ---- lifetime ---------------------------------------------------------------------------

    def serve(
        self,
        schedule: Callable[[Callable[[], None]], None],
        *,
        host: str,
        port: int = 0,
        limits: Limits = DEFAULT_LIMITS,
    ) -> TableServer:
        """Listen, pair every seat and send the first pages. ``schedule`` runs a function on
        this (the owner's) thread. :raises OSError: the address is taken or not ours."""
        server = TableServer(
            self._game().config.names,
            self.decide,
            schedule,
            host=host,
            port=port,
            limits=limits,
            request=self.request_build,
            hint=self.hint,
        )
        server.start()
        for seat in range(self._game().player_count):
            server.tokens.pair(seat)
        self.server = self.sink = server
        self._sent.clear()
        self.publish()
        return server

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
        self.server = self.sink = None

    def pair(self, seat: int) -> str:
        """Pair ``seat`` again: a new token, the old page is closed. Returns the new URL."""
        assert self.server is not None, "serve() first"
        url = self.server.pair(seat)
        self._sent.pop(seat, None)
        self.publish()
        return url

    def url(self, seat: int, host: str | None = None) -> str:
        assert self.server is not None, "serve() first"
        return self.server.url(seat, host=host)

    # ---- on the owner's thread ---------------------------------------------------------------

    def publish(self) -> None:
        """Send each seat's page if it changed since the last one sent."""
        if self.sink is None:
            return
        game = self._game()
        self.publishes += 1
        log = self._game_log(game)
        changed: dict[int, dict[str, Any]] = {}
        asked = self.build_requests()
        for seat in range(game.player_count):
            page = seat_page(game, seat, log, asked)
            key = SeatPage.key(page)
            if self._sent.get(seat) != key:
                self._sent[seat] = key
                changed[seat] = page
        if not changed:
            return
        self.revision += 1
        head = f'{{"type":"state","rev":{self.revision},"page":'
        self.sink.publish({seat: SeatPage(head, page) for seat, page in changed.items()})

    def _game_log(self, game: Game) -> GameLog:
        if self._owner_log is not None:
            return self._owner_log()
        if self._log is None or self._log.config is not game.config:
            self._log = GameLog(game.config)
        self._log.sync(game.history)
        return self._log

    def decide(self, seat: int, action: Action) -> Msg | str | None:
        """A phone's answer: None once applied (and published), else why it was not."""
        reason = phone_refusal(self._game(), seat, action)
        if reason is not None:
            return reason
        published = self.publishes
        try:
            self._apply(action)
        except IllegalActionError as exc:
            return exc.message
        except (ValueError, JournalError) as exc:  # the journal's own
            return str(exc)
        if self._on_answer is not None:
            self._on_answer(seat, action)
        if self.publishes == published:  # the owner's apply did not publish it already
            self.publish()
        return None

    def request_build(self, seat: int) -> str | None:
        """A phone's "I'll build" (5-6 players, §12): shown on the tablet for this phase, not
        an action (the table starts the special build); None once taken, else why not."""
        game = self._game()
        reason = build_request_refusal(game, seat)
        if reason is not None:
            return reason
        self._asked[seat] = _phase_key(game)
        if self._on_request is not None:
            self._on_request(seat)
        self.publish()
        return None

    def hint(self, seat: int) -> HintWork | Msg:
        """A phone's "What would the Expert do?": the Expert's thinking about ``seat``'s own
        decision on a copy of the game (run by the server, off this thread), else why not."""
        game = self._game()
        reason = hint_refusal(game, seat)
        if reason is not None:
            return reason
        position = copy.deepcopy(game)
        expert = self._expert
        if expert is None:
            from companion_app.bot import decide

            expert = decide

        def think() -> Msg:
            words = expert_hint(position, seat, expert)
            if words is None:
                return msg("it is not your decision: {prompt}", prompt=position.describe_prompt())
            return words

        return HintWork(think)

    def build_requests(self) -> tuple[int, ...]:
        """The seats that asked to special-build in this phase and still may, in its order."""
        game = self._game()
        if game.special_build is None:
            return ()
        key = _phase_key(game)
        return tuple(
            seat
            for seat in game.special_builders_left()
            if self._asked.get(seat) == key and build_request_refusal(game, seat) is None
        )

    def waiting_for(self) -> str:
        """``"Waiting for Blue's phone"`` while a connected phone holds the decision, else ""."""
        game = self._game()
        seat = phone_decider(game)
        if seat == NOBODY or self.sink is None or not self.sink.connected().get(seat):
            return ""
        return _("Waiting for {player}'s phone").format(player=game.config.names[seat])


def _phase_key(game: Game) -> tuple[int, int]:
    """Which special build phase is on: the turn it follows and the seat whose turn ended."""
    phase = game.special_build
    return (game.turn, NOBODY if phase is None else phase.after)
