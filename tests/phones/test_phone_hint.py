""" "What would the Expert do?" on a seat's phone (games with a seat the tablet plays): the seat
deciding asks and gets the Expert's choice and reason in its phone's language, to that phone
only; another seat's token cannot ask for it (the Expert reads the seat's hand); the thinking
runs off the server's event loop, one question per seat at a time.

The Expert here is a stand-in (the first legal choice, with the thread it ran on); one test
asks the bot's own Expert."""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType
from phones_helpers import harness

from companion_app.journal import GameSession, Journal
from companion_app.phones.messages import PhoneHintRequest, parse_frame
from companion_app.rules.actions import Action
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.messages import Msg, msg


@dataclass(frozen=True)
class Choice:
    action: Action
    reason: Msg


class StandIn:
    """The first legal choice "because it is first"; records the thread it thought on, and
    waits for ``release`` when one is given."""

    def __init__(self, release: threading.Event | None = None) -> None:
        self.release = release
        self.threads: list[int] = []
        self.seats: list[int] = []

    def __call__(self, game: Game, seat: int, level: str) -> Choice:
        self.threads.append(threading.get_ident())
        self.seats.append(seat)
        if self.release is not None:
            assert self.release.wait(10)
        return Choice(game.legal_actions()[0], msg("it is first"))


def session_with_bot(path: Path, bot: bool = True) -> GameSession:
    """Four seats, the last the tablet's (at the Expert level): Red places first."""
    config = GameConfig.for_players(4, seed=7)
    if bot:
        players = list(config.players)
        players[3] = replace(players[3], bot="expert")
        config = replace(config, players=tuple(players))
    return Journal(path).new_game(config)


async def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        received = await asyncio.wait_for(ws.receive(), 10)
        assert received.type is WSMsgType.TEXT, received
        data = json.loads(received.data)
        if data["type"] == kind:
            return data


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_the_hint_frame_is_read() -> None:
    assert parse_frame('{"type": "hint", "id": 5}') == PhoneHintRequest(5)


def test_the_seat_deciding_asks_and_gets_the_experts_choice_in_its_language(
    tmp_path: Path,
) -> None:
    session = session_with_bot(tmp_path / "j.db")
    game = session.game
    assert game.prompt.player == 0  # Red places its first settlement
    expert = StandIn()
    first = game.legal_actions()[0]

    async def scenario() -> None:
        loop_thread = threading.get_ident()
        async with harness(session, expert=expert) as h:
            ws = await h.client.ws_connect(h.ws_path(0))
            page = (await next_of(ws, "state"))["page"]
            assert page["hint"] is True
            await ws.send_json({"type": "hint", "id": 3})
            answer = await next_of(ws, "hint")
            assert answer["id"] == 3 and answer["ok"] is True
            assert answer["text"].startswith("The Expert would: ")
            assert answer["text"].endswith(". it is first")
            assert expert.seats == [0] and expert.threads[0] != loop_thread  # off the loop
            # The same in Czech on a Czech phone.
            cz = await h.client.ws_connect(h.ws_path(0) + "?lang=cs")
            await next_of(cz, "state")
            await cz.send_json({"type": "hint", "id": 4})
            answer = await next_of(cz, "hint")
            assert answer["ok"] is True and answer["text"].startswith("Expert by zvolil: ")
            assert h.server.counters["hints:given"] == 2
            await ws.close()
            await cz.close()

    run(scenario())
    assert game.legal_actions()[0] == first and len(game.history) == 0  # nothing applied


def test_another_seats_token_cannot_ask_and_hears_nothing_of_it(tmp_path: Path) -> None:
    session = session_with_bot(tmp_path / "j.db")
    expert = StandIn()

    async def scenario() -> None:
        async with harness(session, expert=expert) as h:
            red = await h.client.ws_connect(h.ws_path(0))
            blue = await h.client.ws_connect(h.ws_path(1))
            assert (await next_of(blue, "state"))["page"]["hint"] is False
            await next_of(red, "state")
            # Blue's token asks while Red decides: refused, the Expert never asked.
            await blue.send_json({"type": "hint", "id": 1})
            refused = await next_of(blue, "hint")
            assert refused["ok"] is False and "not your decision" in refused["error"]
            assert "text" not in refused
            assert expert.seats == []
            # Red asks: only Red's page hears the answer.
            await red.send_json({"type": "hint", "id": 2})
            assert (await next_of(red, "hint"))["ok"] is True
            await blue.send_json({"type": "ping"})
            assert (await next_of(blue, "pong")) == {"type": "pong"}
            assert expert.seats == [0]
            # The tablet's own seat has no hint on its page.
            white = await h.client.ws_connect(h.ws_path(3))
            assert (await next_of(white, "state"))["page"]["hint"] is False
            for ws in (red, blue, white):
                await ws.close()

    run(scenario())


def test_one_question_per_seat_at_a_time(tmp_path: Path) -> None:
    session = session_with_bot(tmp_path / "j.db")
    release = threading.Event()
    expert = StandIn(release)

    async def scenario() -> None:
        async with harness(session, expert=expert) as h:
            ws = await h.client.ws_connect(h.ws_path(0))
            other = await h.client.ws_connect(h.ws_path(0))  # the same seat's second phone
            await next_of(ws, "state")
            await next_of(other, "state")
            await ws.send_json({"type": "hint", "id": 1})
            while not expert.seats:  # the Expert thinks (held) ...
                await asyncio.sleep(0.01)
            # ... and the loop still serves: a ping, and the second question refused at once.
            await ws.send_json({"type": "ping"})
            assert await next_of(ws, "pong") == {"type": "pong"}
            await other.send_json({"type": "hint", "id": 2})
            busy = await next_of(other, "hint")
            assert busy["ok"] is False and "still thinking" in busy["error"]
            assert h.server.counters["refused:hint_busy"] == 1
            release.set()
            answer = await next_of(ws, "hint")
            assert answer["id"] == 1 and answer["ok"] is True
            # Answered: the seat may ask again.
            await other.send_json({"type": "hint", "id": 3})
            assert (await next_of(other, "hint"))["ok"] is True
            assert expert.seats == [0, 0]
            await ws.close()
            await other.close()

    run(scenario())


def test_no_hint_in_a_game_without_a_seat_the_tablet_plays(tmp_path: Path) -> None:
    session = session_with_bot(tmp_path / "j.db", bot=False)
    expert = StandIn()

    async def scenario() -> None:
        async with harness(session, expert=expert) as h:
            ws = await h.client.ws_connect(h.ws_path(0))
            assert (await next_of(ws, "state"))["page"]["hint"] is False
            await ws.send_json({"type": "hint", "id": 1})
            refused = await next_of(ws, "hint")
            assert refused["ok"] is False and "a seat the tablet plays" in refused["error"]
            assert expert.seats == []
            await ws.close()

    run(scenario())


def test_the_bots_own_expert_answers_a_phone(tmp_path: Path) -> None:
    session = session_with_bot(tmp_path / "j.db")

    async def scenario() -> None:
        async with harness(session) as h:
            ws = await h.client.ws_connect(h.ws_path(0) + "?lang=de")
            await next_of(ws, "state")
            await ws.send_json({"type": "hint", "id": 1})
            answer = await next_of(ws, "hint")
            assert answer["ok"] is True and answer["text"].startswith("Der Experte würde: ")
            await ws.close()

    run(scenario())


def test_the_table_server_on_a_socket_gives_the_hint_through_the_tablets_thread(
    tmp_path: Path,
) -> None:
    """The app's wiring: ``PhoneTable.serve`` hands the server the table's hint; the check and
    the copy run where ``schedule`` runs them (here a queue drained by the test's own thread,
    the tablet's), the thinking in the server's executor."""
    import queue

    import aiohttp

    from companion_app.phones.pairing import PAGE_PATH
    from companion_app.phones.table import PhoneTable

    session = session_with_bot(tmp_path / "j.db")
    expert = StandIn()
    tasks: queue.Queue[Any] = queue.Queue()
    table = PhoneTable(lambda: session.game, session.apply, expert=expert)
    server = table.serve(tasks.put, host="127.0.0.1")
    tablet = threading.get_ident()
    on_table: list[int] = []

    async def scenario() -> dict[str, Any]:
        url = server.url(0).replace("http://", "ws://").replace(PAGE_PATH, "/ws/")
        async with aiohttp.ClientSession() as client, client.ws_connect(url) as ws:
            await next_of(ws, "state")
            await ws.send_json({"type": "hint", "id": 9})
            return await next_of(ws, "hint")

    try:
        hint = asyncio.run_coroutine_threadsafe(scenario(), loop := asyncio.new_event_loop())
        thread = threading.Thread(target=loop.run_forever, daemon=True)
        thread.start()
        while not hint.done():  # the tablet's thread: run what the server hands it
            try:
                task = tasks.get(timeout=0.05)
            except queue.Empty:
                continue
            on_table.append(threading.get_ident())
            task()
        answer = hint.result(timeout=10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.close()
    finally:
        table.stop()
    assert answer["ok"] is True and answer["text"].endswith(". it is first")
    assert on_table and set(on_table) == {tablet}
    assert expert.threads and expert.threads[0] != tablet  # thought elsewhere: the executor
