"""The table server through aiohttp's test client: tokens, pages, answers, hostile frames.

Every test runs the server in its own event loop with the test as the tablet, so a phone's
answer is decided (checked by the rules core, committed to the journal) before it returns.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from aiohttp import WSMsgType
from aiohttp.test_utils import TestClient
from phones_helpers import Harness, harness, journal_game, seven_discard

from companion_app.journal import Journal
from companion_app.phones.messages import MAX_FRAME_BYTES
from companion_app.phones.server import (
    CLOSE_REPAIRED,
    CLOSE_REPLACED,
    MAX_WS_BYTES,
    Limits,
)
from companion_app.rules.actions import DiscardCard, EndTurn
from companion_app.rules.cards import Card
from companion_app.rules.prompts import PromptKind
from companion_app.rules.registry import PHONE_PROMPTS
from tests.rules.sea.ck_builders import gold_on_the_main_island

FAST = Limits(messages_per_second=1e9, burst=1_000_000)
"""No rate limit: every frame reaches the parser."""


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def next_message(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of ``kind`` (state messages may come in between)."""
    while True:
        msg = await asyncio.wait_for(ws.receive(), 10)
        assert msg.type is WSMsgType.TEXT, msg
        data = json.loads(msg.data)
        if data["type"] == kind:
            return data


async def answer(ws: Any, answer_id: int, action: dict[str, Any]) -> tuple[dict, dict]:
    """Send an answer; its result and the next page, in whichever order they come."""
    await ws.send_json({"type": "answer", "id": answer_id, "action": action})
    result: dict[str, Any] | None = None
    page: dict[str, Any] | None = None
    while result is None or page is None:
        msg = await asyncio.wait_for(ws.receive(), 10)
        data = json.loads(msg.data)
        if data["type"] == "result":
            result = data
        elif data["type"] == "state":
            page = data["page"]
    return result, page


def hidden_hands(h: Harness, seat: int) -> list[str]:
    """JSON of every other seat's full hand: none may appear in ``seat``'s messages."""
    game = h.session.game
    return [
        json.dumps(game.view_for(q)["hands"][q], separators=(",", ":"))
        for q in range(game.player_count)
        if q != seat and game.card_count(q)
    ]


async def get_text(client: TestClient, path: str) -> tuple[int, str]:
    resp = await client.get(path)
    return resp.status, await resp.text()


def test_no_token_wrong_token_and_unknown_paths_get_only_the_pairing_error(
    tmp_path: Path,
) -> None:
    session = journal_game(tmp_path / "j.db", seven_discard)

    async def scenario() -> None:
        async with harness(session) as h:
            good_page = (await get_text(h.client, f"/s/{h.tokens[1]}"))[1]
            assert "phone.js" not in good_page and "WebSocket" in good_page
            wrong = "A" * len(h.tokens[1])
            for path in (
                "/",
                "/s/",
                f"/s/{wrong}",
                "/ws/",
                f"/ws/{wrong}",
                "/static/phone.js",
                f"/s/{h.tokens[1]}x",
                "/s/../ws",
                "/favicon.ico",
            ):
                status, text = await get_text(h.client, path)
                assert status == 403, path
                assert "not paired with a seat" in text, path
                assert "WebSocket" not in text and h.tokens[0] not in text
            resp = await h.client.post(f"/s/{wrong}", data=b"x" * 100)
            assert resp.status == 403
            assert h.server.counters["refused:token"] >= 10

    run(scenario())


def test_a_page_carries_only_its_own_seats_cards(tmp_path: Path) -> None:
    session = journal_game(tmp_path / "j.db", seven_discard)
    game = session.game
    decider = game.prompt.player

    async def scenario() -> None:
        async with harness(session) as h:
            for seat in range(game.player_count):
                ws = await h.client.ws_connect(h.ws_path(seat))
                state = await next_message(ws, "state")
                page = state["page"]
                assert page["seat"] == seat
                own = {k: n for k, n in page["hand"]["resources"] + page["hand"]["commodities"]}
                assert own == {c.label: game.hands[seat][c] for c in Card}
                raw = json.dumps(state, separators=(",", ":"))
                for other in hidden_hands(h, seat):
                    assert other not in raw
                assert (page["decision"] is not None) == (seat == decider)
                await ws.close()

    run(scenario())


def test_a_phone_answers_its_seven_discard_and_the_journal_has_it(tmp_path: Path) -> None:
    session = journal_game(tmp_path / "j.db", seven_discard)
    game = session.game
    seat = game.prompt.player
    before = len(game.history)
    need = game.prompt.count

    async def scenario() -> None:
        async with harness(session) as h:
            ws = await h.client.ws_connect(h.ws_path(seat))
            page = (await next_message(ws, "state"))["page"]
            for i in range(need):
                choice = page["decision"]["choices"][0]
                assert choice["action"]["type"] == "discard"
                result, page = await answer(ws, i, choice["action"])
                assert result == {"type": "result", "id": i, "ok": True}
                assert page["hand"]["total"] == game.card_count(seat)
            assert page["decision"] is None
            await ws.close()

    run(scenario())
    assert len(game.history) == before + need
    assert all(isinstance(a, DiscardCard) and a.player == seat for a in game.history[before:])
    # Journaled: a fresh look at the journal resumes to the same state; the tablet can undo.
    with Journal(tmp_path / "j.db", create=False) as journal:
        assert journal.open_game(session.game_id).game.to_json() == game.to_json()
    last = game.history[-1]
    assert session.undo().action == last
    assert len(game.history) == before + need - 1


def test_another_seats_token_cannot_answer_and_an_action_for_another_seat_is_refused(
    tmp_path: Path,
) -> None:
    session = journal_game(tmp_path / "j.db", seven_discard)
    game = session.game
    decider = game.prompt.player
    other = (decider + 1) % game.player_count
    state = json.dumps(game.to_json(), sort_keys=True)
    legal = next(a for a in game.legal_actions() if a.player == decider)

    async def scenario() -> None:
        async with harness(session) as h:
            ws = await h.client.ws_connect(h.ws_path(other))
            # The decider's own legal answer, sent from another seat's page.
            await ws.send_json({"type": "answer", "id": 1, "action": legal.to_json()})
            refused = await next_message(ws, "refused")
            assert refused["id"] == 1 and "own seat" in refused["error"]
            # Its own seat, but not its decision.
            mine = DiscardCard(other, Card.BRICK).to_json()
            await ws.send_json({"type": "answer", "id": 2, "action": mine})
            result = await next_message(ws, "result")
            assert result["ok"] is False and "not your decision" in result["error"]
            # A tablet-only action of the player on turn.
            end = EndTurn(game.active).to_json()
            ws2 = await h.client.ws_connect(h.ws_path(game.active))
            await ws2.send_json({"type": "answer", "id": 3, "action": end})
            result = await next_message(ws2, "result")
            assert result["ok"] is False
            assert h.server.counters["refused:not_yours"] == 1
            assert h.server.counters["refused:by_table"] == 2
            await ws.close()
            await ws2.close()

    run(scenario())
    assert json.dumps(game.to_json(), sort_keys=True) == state


def test_re_pairing_closes_the_old_page_and_voids_its_token(tmp_path: Path) -> None:
    session = journal_game(tmp_path / "j.db", seven_discard)
    seat = session.game.prompt.player

    async def scenario() -> None:
        async with harness(session) as h:
            old = h.tokens[seat]
            ws = await h.client.ws_connect(f"/ws/{old}")
            await next_message(ws, "state")
            new = h.server.tokens.pair(seat)
            h.server.drop_seat(seat, CLOSE_REPAIRED, b"this seat was paired again")
            msg = await asyncio.wait_for(ws.receive(), 10)
            assert (msg.type, msg.data) == (WSMsgType.CLOSE, CLOSE_REPAIRED)
            # The old token, replayed: nothing but the pairing error.
            assert (await get_text(h.client, f"/s/{old}"))[0] == 403
            resp = await h.client.get(f"/ws/{old}")
            assert resp.status == 403
            assert (await get_text(h.client, f"/s/{new}"))[0] == 200
            ws = await h.client.ws_connect(f"/ws/{new}")
            assert (await next_message(ws, "state"))["page"]["seat"] == seat
            await ws.close()

    run(scenario())


def test_connections_per_seat_are_bounded_the_oldest_gives_way(tmp_path: Path) -> None:
    session = journal_game(tmp_path / "j.db", seven_discard)

    async def scenario() -> None:
        async with harness(session, Limits(connections_per_seat=2)) as h:
            first = await h.client.ws_connect(h.ws_path(0))
            await next_message(first, "state")
            second = await h.client.ws_connect(h.ws_path(0))
            third = await h.client.ws_connect(h.ws_path(0))
            await next_message(third, "state")
            msg = await asyncio.wait_for(first.receive(), 10)
            assert (msg.type, msg.data) == (WSMsgType.CLOSE, CLOSE_REPLACED)
            assert h.server.connected() == {0: 2}
            await second.close()
            await third.close()

    run(scenario())


def test_the_rate_limit_refuses_a_flood_and_counts_it(tmp_path: Path) -> None:
    session = journal_game(tmp_path / "j.db", seven_discard)

    async def scenario() -> None:
        async with harness(session, Limits(messages_per_second=0.001, burst=5)) as h:
            ws = await h.client.ws_connect(h.ws_path(0))
            await next_message(ws, "state")
            replies = []
            for _ in range(50):
                await ws.send_str('{"type":"ping"}')
                replies.append(json.loads((await asyncio.wait_for(ws.receive(), 10)).data))
            pongs = sum(r == {"type": "pong"} for r in replies)
            refused = sum(
                r == {"type": "refused", "error": "too many messages: slow down"} for r in replies
            )
            assert (pongs, refused) == (5, 45)
            assert h.server.counters["refused:rate"] == 45
            await ws.close()

    run(scenario())


def _garbage(rng: random.Random, legal: dict[str, Any]) -> str | bytes:
    """One hostile frame: broken JSON, wrong shapes, huge numbers, deep nesting, long text."""
    kind = rng.randrange(12)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
    if kind == 1:
        return "".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(rng.randrange(1, 200)))
    if kind == 2:
        return "[" * rng.randrange(5, 5000) + "]" * rng.randrange(0, 10)
    if kind == 3:
        return json.dumps({"type": "answer", "id": 1, "action": legal, "x": 1})
    if kind == 4:
        return json.dumps({"type": "answer", "id": 10 ** rng.randrange(11, 400), "action": legal})
    if kind == 5:
        return "x" * rng.randrange(MAX_FRAME_BYTES + 1, MAX_WS_BYTES)
    if kind == 6:
        bad = dict(legal)
        key = rng.choice(sorted(bad))
        bad[key] = rng.choice([None, -1, 2**70, "", [], {}, "brick" * 50, 1.5, True])
        return json.dumps({"type": "answer", "id": 2, "action": bad})
    if kind == 7:
        return json.dumps({"type": rng.choice(["ANSWER", "state", "", 1, None]), "id": 1})
    if kind == 8:
        return '{"type":"answer","id":1,"id":2,"action":' + json.dumps(legal) + "}"
    if kind == 9:
        return '{"type":"answer","id":NaN,"action":{}}'
    if kind == 10:
        text = json.dumps({"type": "answer", "id": 3, "action": legal})
        return text[: rng.randrange(len(text))]
    return json.dumps({"type": "answer", "id": 4, "action": {"type": "roll", "player": 0}})


def test_ten_thousand_malformed_and_oversized_frames_leak_nothing_crash_nothing(
    tmp_path: Path,
) -> None:
    session = journal_game(tmp_path / "j.db", seven_discard)
    game = session.game
    decider = game.prompt.player
    spy = (decider + 1) % game.player_count
    state = json.dumps(game.to_json(), sort_keys=True)
    legal = next(a for a in game.legal_actions() if a.player == decider).to_json()
    rng = random.Random(20)
    frames = [_garbage(rng, legal) for _ in range(10_000)]

    async def scenario() -> None:
        async with harness(session, FAST) as h:
            secrets_of_others = hidden_hands(h, spy)
            ws = await h.client.ws_connect(h.ws_path(spy), max_msg_size=0)
            await next_message(ws, "state")
            replies = 0
            for frame in frames:
                if isinstance(frame, bytes):
                    await ws.send_bytes(frame)
                else:
                    await ws.send_str(frame)
                msg = await asyncio.wait_for(ws.receive(), 10)
                assert msg.type is WSMsgType.TEXT, msg
                reply = json.loads(msg.data)
                assert reply["type"] in ("refused", "result"), reply
                assert reply.get("ok") is not True
                assert "\n" not in reply["error"] and len(reply["error"]) <= 160
                assert not any(s in msg.data for s in secrets_of_others)
                assert "Traceback" not in msg.data
                replies += 1
            assert replies == len(frames)
            # A frame over the WebSocket limit closes that connection with 1009 (too big) ...
            await ws.send_str("y" * (MAX_WS_BYTES + 1))
            msg = await asyncio.wait_for(ws.receive(), 10)
            assert (msg.type, msg.data) == (WSMsgType.CLOSE, 1009)
            assert h.server.counters["refused:protocol"] == 1
            # ... and the server goes on: a fresh connection still gets its page.
            ws = await h.client.ws_connect(h.ws_path(spy))
            assert (await next_message(ws, "state"))["page"]["seat"] == spy
            await ws.close()
            counted = sum(n for k, n in h.server.counters.items() if k.startswith("refused:"))
            assert counted - h.server.counters["refused:token"] == len(frames) + 1

    run(scenario())
    assert json.dumps(game.to_json(), sort_keys=True) == state


@pytest.mark.parametrize("kind", sorted(PHONE_PROMPTS, key=lambda k: k.value), ids=str)
def test_every_private_decision_is_answered_on_its_phone(tmp_path: Path, kind: PromptKind) -> None:
    # Gold choices (§13.5) come in New Shores games with gold on the main island (no ships).
    config_for = gold_on_the_main_island if kind is PromptKind.GOLD else None
    session = journal_game(
        tmp_path / "j.db", lambda g: g.prompt.kind is kind, config_for=config_for
    )
    game = session.game
    seat = game.prompt.player
    before = len(game.history)

    async def scenario() -> None:
        async with harness(session) as h:
            ws = await h.client.ws_connect(h.ws_path(seat))
            page = (await next_message(ws, "state"))["page"]
            assert page["decision"]["kind"] == kind.value
            choice = page["decision"]["choices"][-1]
            result, _ = await answer(ws, 1, choice["action"])
            assert result["ok"] is True, result
            assert game.history[-1].to_json() == choice["action"]
            await ws.close()

    run(scenario())
    assert len(game.history) == before + 1
    with Journal(tmp_path / "j.db", create=False) as journal:
        assert journal.open_game(session.game_id).game.history == game.history
