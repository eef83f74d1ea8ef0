"""A New Shores seat's page (§13): its ships, small islands and trade route, and a gold field's
choices (§13.5) answered on the phone through the table server, hostile answers refused.

Map ids (``tests/rules/sea``): White's city on intersection 67 touches gold 10 (hex 23); Red's
ships on the two sides of sea hex 22 join its settlement on the main island's coast (51) to
one on the north-east island (52)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any, cast

from hypothesis import given
from hypothesis import strategies as st
from phones_helpers import Harness, harness, others_changed, play_until, without_moves
from test_server import answer, next_message
from test_view import SHOWN_TO_THE_DECIDER

from companion_app.game_log import GameLog
from companion_app.journal import GameSession
from companion_app.phones.view import seat_page
from companion_app.rules.actions import Action, EventDie, MoveShip, Roll, TakeGold
from companion_app.rules.cards import RESOURCES, Card, bank_start
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.pieces import SHIPS_PER_PLAYER
from companion_app.rules.prompts import Prompt, PromptKind
from tests.rules.sea.ck_builders import ck_sea_game
from tests.rules.sea.sea_builders import ISLE, SEA, SHORE, side
from tests.said import said

WHITE = 2


def test_s13_a_seats_page_counts_its_ships_islands_and_trade_route() -> None:
    """§13.3, §13.6, §13.10: Red's 2 ships (13 of 15 left) reach the north-east island, where
    its settlement earns the island's 2 chits; its trade route is 2 long, short of the 5 the
    Longest Trade Route needs, so nobody holds it."""
    game = ck_sea_game(
        buildings={SHORE: (0, "settlement"), ISLE: (0, "settlement")},
        ships={side(SEA, 5): 0, side(SEA, 0): 0},
    )
    page = said(seat_page(game, 0))
    assert page["sea"] == {
        "ships": 2,
        "by_pirate": 0,
        "ships_left": SHIPS_PER_PLAYER - 2,
        "ships_total": 15,
        "islands": 1,
        "route": 2,
        "route_holder": None,
    }
    assert page["vp"] == {"total": 4, "parts": [["2 settlements", 2], ["2 island chits", 2]]}
    assert [q["ships"] for q in page["players"]] == [2, 0, 0, 0]
    # Blue's page: its own (empty) sea lines; the table's line still counts Red's ships.
    blue = said(seat_page(game, 1))
    assert (blue["sea"]["ships"], blue["sea"]["islands"], blue["sea"]["route"]) == (0, 0, 0)
    assert blue["players"][0]["ships"] == 2


def test_s13_4_the_page_counts_the_ships_the_pirate_holds() -> None:
    """§13.4: the pirate on sea hex 22 holds both of Red's ships on its sides."""
    game = ck_sea_game(
        buildings={SHORE: (0, "settlement"), ISLE: (0, "settlement")},
        ships={side(SEA, 5): 0, side(SEA, 0): 0},
        pirate=SEA,
    )
    assert said(seat_page(game, 0))["sea"]["by_pirate"] == 2
    assert said(game.illegal_reason(MoveShip(0, side(SEA, 0), side(SEA, 1)))) == (
        "a ship next to the pirate does not move (§13.4)"
    )


def test_an_island_games_page_has_no_sea_lines() -> None:
    game = Game.new(GameConfig.for_players(4, seed=1))
    page = said(seat_page(game, 0))
    assert page["sea"] is None
    assert all("ships" not in q for q in page["players"])


def test_s13_6_the_page_names_the_longest_trade_routes_holder() -> None:
    """A random New Shores game played until someone holds the Longest Trade Route: every
    seat's page names the holder and its own route's length."""
    config, actions = play_until(
        lambda g: g.longest_road_holder >= 0,
        config_for=lambda players, seed: GameConfig.for_players(
            players, scenario="new_shores", seed=seed
        ),
    )
    game = Game.replay(config, actions)
    holder = config.names[game.longest_road_holder]
    for seat in range(game.player_count):
        sea = said(seat_page(game, seat))["sea"]
        assert sea["route_holder"] == holder and sea["route"] == game.road_length[seat]
        assert sea["ships"] + sea["ships_left"] == SHIPS_PER_PLAYER
    assert game.road_length[game.longest_road_holder] >= 5


@given(seed=st.integers(0, 2**32), steps=st.integers(0, 500), players=st.sampled_from([3, 4]))
def test_a_new_shores_page_does_not_change_when_other_seats_hidden_cards_do(
    seed: int, steps: int, players: int
) -> None:
    """Ships, islands, the route and a gold choice are public: a page on a random New Shores
    game still shows nothing of another seat's cards."""
    config, actions = play_until(
        lambda g: len(g.history) >= steps or g.is_over,
        seed=seed,
        players=players,
        config_for=lambda n, s: GameConfig.for_players(n, scenario="new_shores", seed=s),
    )
    game = Game.replay(config, actions)
    for seat in range(game.player_count):
        if game.prompt.player == seat and game.prompt.kind in SHOWN_TO_THE_DECIDER:
            continue
        page = said(seat_page(game, seat))
        assert page["sea"]["ships"] == len(game.ships_of[seat])
        changed, _ = others_changed(game, seat)
        other = said(seat_page(changed, seat))
        if game.prompt.kind is PromptKind.GOLD and game.prompt.player == seat:
            # The choices are the resources the bank holds (in sight at the table), and the
            # changed hands came from the bank.
            assert [c["action"]["card"] for c in other.pop("decision")["choices"]] == [
                c.label for c in RESOURCES if changed.bank[c]
            ]
            page.pop("decision")
        assert without_moves(page) == without_moves(other)


class Table:
    """The tablet's side for a game built for the example (a journal holds only games made
    by actions from the start): the harness reads ``game`` and ``apply``, and the log."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._log = GameLog.from_position(game)

    def apply(self, action: Action) -> None:
        self.game.apply(action)

    def log(self) -> GameLog:
        self._log.sync(self.game.history)
        return self._log

    @contextlib.asynccontextmanager
    async def harness(self) -> AsyncIterator[Harness]:
        async with harness(cast(GameSession, self), log=self.log) as h:
            yield h


def white_chooses_two() -> Table:
    """R2, R3: Red rolls 10; White's city on gold 10 chooses 2 resources; the bank has no ore."""
    bank = list(bank_start(4))
    bank[Card.ORE] = 0
    table = Table(ck_sea_game(prompt="roll", buildings={67: (WHITE, "city")}, bank=tuple(bank)))
    table.apply(Roll(0, 4, 6, EventDie.POLITICS))
    assert table.game.prompt == Prompt(PromptKind.GOLD, WHITE, 2)
    return table


def test_s13_5_a_gold_choice_is_answered_on_the_phone_one_tap_a_choice() -> None:
    table = white_chooses_two()
    game = table.game
    before = list(game.hands[WHITE])

    async def scenario() -> None:
        async with table.harness() as h:
            ws = await h.client.ws_connect(h.ws_path(WHITE))
            page = (await next_message(ws, "state"))["page"]
            asked = page["decision"]
            assert (asked["kind"], asked["count"]) == ("gold", 2)
            assert asked["words"] == "White: gold field: take 2 cards of your choice"
            # The resources the bank holds, ore not among them; never a commodity.
            held = [c for c in RESOURCES if c is not Card.ORE]
            assert [c["action"] for c in asked["choices"]] == [
                TakeGold(WHITE, c).to_json() for c in held
            ]
            assert [c["label"] for c in asked["choices"]] == [
                "Take 1 brick",
                "Take 1 lumber",
                "Take 1 wool",
                "Take 1 grain",
            ]
            result, page = await answer(ws, 1, TakeGold(WHITE, Card.GRAIN).to_json())
            assert result == {"type": "result", "id": 1, "ok": True}
            assert (page["decision"]["count"], len(page["decision"]["choices"])) == (1, 4)
            result, page = await answer(ws, 2, TakeGold(WHITE, Card.GRAIN).to_json())
            assert result["ok"] is True and page["decision"] is None
            await ws.close()

    asyncio.run(scenario())
    assert game.hands[WHITE][Card.GRAIN] == before[Card.GRAIN] + 2
    assert game.prompt.kind is PromptKind.TURN and game.prompt.player == 0


def test_s13_5_hostile_gold_answers_are_refused_with_one_line_and_change_nothing() -> None:
    """A commodity (R2), a resource the bank lacks (R3), another seat's choice sent from a
    phone, a choice from a seat not asked, and a third choice after the two owed."""
    table = white_chooses_two()
    game = table.game
    frozen = json.dumps(game.to_json(), sort_keys=True)

    async def refused(ws: Any, answer_id: int, action: Action) -> str:
        await ws.send_json({"type": "answer", "id": answer_id, "action": action.to_json()})
        while True:
            reply = json.loads((await asyncio.wait_for(ws.receive(), 10)).data)
            if reply["type"] in ("result", "refused"):
                break
        assert reply["id"] == answer_id and reply.get("ok") is not True, reply
        error = str(reply["error"])
        assert "\n" not in error and len(error) <= 160
        assert json.dumps(game.to_json(), sort_keys=True) == frozen
        return error

    async def scenario() -> None:
        async with table.harness() as h:
            white = await h.client.ws_connect(h.ws_path(WHITE))
            blue = await h.client.ws_connect(h.ws_path(1))
            await next_message(white, "state")
            await next_message(blue, "state")
            assert await refused(white, 1, TakeGold(WHITE, Card.CLOTH)) == (
                "a gold field gives a resource, never a commodity (§13.5)"
            )
            assert await refused(white, 2, TakeGold(WHITE, Card.ORE)) == (
                "the bank has no ore left"
            )
            assert await refused(blue, 3, TakeGold(WHITE, Card.GRAIN)) == (
                "a phone answers only for its own seat"
            )
            assert await refused(blue, 4, TakeGold(1, Card.GRAIN)) == (
                "it is not your decision: White: gold field: take 2 cards of your choice"
            )
            for i, card in enumerate((Card.WOOL, Card.BRICK)):
                result, _ = await answer(white, 10 + i, TakeGold(WHITE, card).to_json())
                assert result["ok"] is True
            nonlocal frozen
            frozen = json.dumps(game.to_json(), sort_keys=True)
            assert (await refused(white, 5, TakeGold(WHITE, Card.GRAIN))).startswith(
                "this is decided on the tablet: "
            )
            await white.close()
            await blue.close()

    asyncio.run(scenario())
