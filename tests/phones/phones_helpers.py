"""Games at a phone's decision, and the table server in the test's own event loop."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from companion_app.journal import GameSession, Journal
from companion_app.phones.pairing import SeatTokens
from companion_app.phones.server import DEFAULT_LIMITS, Limits, PhoneServer
from companion_app.phones.table import PhoneTable
from companion_app.rules.actions import Action
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64


def play_until(
    stop: Callable[[Game], bool], *, seed: int = 1, limit: int = 20_000
) -> tuple[GameConfig, list[Action]]:
    """The actions of a seeded random game up to the first state where ``stop`` holds."""
    config = GameConfig.for_players(4, seed=seed)
    game = Game.new(config)
    rng = SplitMix64(seed ^ 0x5EED)
    actions: list[Action] = []
    while not stop(game):
        assert len(actions) < limit and not game.is_over, "the state never came"
        action = choose_random_action(game, rng)
        game.apply(action)
        actions.append(action)
    return config, actions


def seven_discard(game: Game) -> bool:
    """A 7's discard for someone who is not the player on turn (a phone's decision)."""
    p = game.prompt
    return p.kind is PromptKind.DISCARD and p.player != game.active and p.count >= 2


def journal_game(path: Path, stop: Callable[[Game], bool], seed: int = 1) -> GameSession:
    """A journal at ``path`` holding one game played up to ``stop``."""
    config, actions = play_until(stop, seed=seed)
    journal = Journal(path)
    session = journal.new_game(config)
    for action in actions:
        session.apply(action)
    return session


@dataclass
class Harness:
    session: GameSession
    table: PhoneTable
    server: PhoneServer
    client: TestClient
    tokens: list[str]

    def ws_path(self, seat: int) -> str:
        return f"/ws/{self.tokens[seat]}"


@contextlib.asynccontextmanager
async def harness(session: GameSession, limits: Limits = DEFAULT_LIMITS) -> AsyncIterator[Harness]:
    """The phones' server for ``session`` on the running loop, with every seat paired.

    The tablet's thread is the test's own here: an answer is decided at once."""
    table = PhoneTable(lambda: session.game, session.apply)
    names = session.game.config.names

    async def decide(seat: int, action: Action) -> str | None:
        return table.decide(seat, action)

    tokens = SeatTokens(len(names))
    server = PhoneServer(tokens, names, decide, limits)
    table.sink = server
    paired = [tokens.pair(seat) for seat in range(len(names))]
    table.publish()
    client = TestClient(TestServer(server.app(), host="127.0.0.1"))
    await client.start_server()
    try:
        yield Harness(session, table, server, client, paired)
    finally:
        await client.close()
