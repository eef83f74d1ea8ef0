"""A phone's "I'll build" in the special build phase (5-6 players, §12): a request the tablet
shows for that phase, never an action; refused outside the phase or from a seat whose special
build is not due."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from phones_helpers import harness, journal_game, play_until
from test_server import next_message

from companion_app.phones.messages import PhoneBuildRequest, PhoneMessageError, parse_frame
from companion_app.phones.table import PhoneTable
from companion_app.phones.view import seat_page
from companion_app.rules.actions import NobodyBuilds, StartSpecialBuild
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind


def who_builds(game: Game) -> bool:
    return game.prompt.kind is PromptKind.WHO_BUILDS


def table_at_who_builds(players: int = 5) -> tuple[Game, PhoneTable]:
    config, actions = play_until(who_builds, seed=3, players=players)
    game = Game.replay(config, actions)
    return game, PhoneTable(lambda: game, game.apply)


def test_the_build_frame_is_read_and_its_fields_bounded() -> None:
    assert parse_frame('{"type": "build", "id": 4}') == PhoneBuildRequest(4)
    with pytest.raises(PhoneMessageError, match="unexpected fields: action"):
        parse_frame('{"type": "build", "id": 4, "action": {}}')
    with pytest.raises(PhoneMessageError, match="'id' must be a whole number"):
        parse_frame('{"type": "build", "id": -1}')
    with pytest.raises(PhoneMessageError, match="known: 'answer', 'build', 'hint', 'ping'"):
        parse_frame('{"type": "builds", "id": 4}')


def test_a_seat_due_to_build_asks_and_the_table_sees_it_for_this_phase_only() -> None:
    game, table = table_at_who_builds()
    left = game.special_builders_left()
    assert len(left) == 4  # five players: everyone but the one whose turn ended
    moves = len(game.history)
    asker, other = left[2], left[0]
    assert table.request_build(asker) is None
    assert table.build_requests() == (asker,)
    assert len(game.history) == moves  # a request, not an action
    page = seat_page(game, asker, None, table.build_requests())
    assert page["special_build"]["asked"] is True
    other_page = seat_page(game, other, None, table.build_requests())
    assert other_page["special_build"] == {
        "builder": None,
        "next": game.config.names[game.active],
        "may_ask": True,
        "asked": False,
    }
    # The table starts someone earlier in the order: the asker may still build after them.
    game.apply(StartSpecialBuild(game.active, other))
    assert table.build_requests() == (asker,)
    # The phase ends: the request is gone with it.
    while game.special_build is not None:
        if game.special_build.building:
            game.apply(next(a for a in game.legal_actions() if a.type_name == "end_special_build"))
        else:
            game.apply(NobodyBuilds(game.active))
    assert table.build_requests() == ()
    assert seat_page(game, asker, None, ())["special_build"] is None


def test_a_request_out_of_turn_is_refused_in_words() -> None:
    game, table = table_at_who_builds()
    ended = game.special_build.after if game.special_build else -1
    assert table.request_build(ended) == "your special build is not due in this phase"
    builder = game.special_builders_left()[0]
    game.apply(StartSpecialBuild(game.active, builder))
    assert table.request_build(builder) == "you are building now: build on the tablet"
    four, four_table = table_at_roll()
    assert four_table.request_build(0) == "there is no special build phase now"
    assert seat_page(four, 0)["special_build"] is None


def table_at_roll() -> tuple[Game, PhoneTable]:
    config, actions = play_until(lambda g: g.awaiting_roll and not g.in_setup, seed=3)
    game = Game.replay(config, actions)
    return game, PhoneTable(lambda: game, game.apply)


def test_a_phone_asks_through_the_table_server(tmp_path: Path) -> None:
    session = journal_game(tmp_path / "j.sqlite3", who_builds, seed=3, players=5)
    asker = session.game.special_builders_left()[1]

    async def scenario() -> None:
        async with harness(session) as h:
            async with h.client.ws_connect(h.ws_path(asker)) as ws:
                page = (await next_message(ws, "state"))["page"]
                assert page["special_build"]["may_ask"] is True
                await ws.send_json({"type": "build", "id": 9})
                # The result and the new page, in whichever order they come.
                result, asked = None, False
                while result is None or not asked:
                    message = await asyncio.wait_for(ws.receive_json(), 10)
                    if message["type"] == "result":
                        result = message
                    elif message["type"] == "state":
                        asked = message["page"]["special_build"]["asked"]
                assert result == {"type": "result", "id": 9, "ok": True}
                assert h.server.counters["requests:taken"] == 1
            assert h.table.build_requests() == (asker,)

    asyncio.run(scenario())
