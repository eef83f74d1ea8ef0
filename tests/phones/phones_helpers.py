"""Games at a phone's decision, and the table server in the test's own event loop."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import queue
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from companion_app.journal import GameSession, Journal
from companion_app.phones.pairing import SeatTokens
from companion_app.phones.server import DEFAULT_LIMITS, HintWork, Limits, PhoneServer
from companion_app.phones.table import PhoneTable
from companion_app.presenters.bot_turn import Decide
from companion_app.rules.actions import Action, Roll
from companion_app.rules.cards import ProgressCard
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.messages import Msg
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64


def play_until(
    stop: Callable[[Game], bool],
    *,
    seed: int = 1,
    limit: int = 20_000,
    players: int = 4,
    config_for: Callable[[int, int], GameConfig] | None = None,
) -> tuple[GameConfig, list[Action]]:
    """The actions of a seeded random game up to the first state where ``stop`` holds (the
    first seed from ``seed`` whose game comes there); ``config_for(players, seed)`` makes the
    config if given."""
    for s in range(seed, seed + 100):
        if config_for is None:
            config = GameConfig.for_players(players, seed=s)
        else:
            config = config_for(players, s)
        game = Game.new(config)
        rng = SplitMix64(s ^ 0x5EED)
        actions: list[Action] = []
        while not stop(game) and len(actions) < limit and not game.is_over:
            action = choose_random_action(game, rng)
            game.apply(action)
            actions.append(action)
        if stop(game):
            return config, actions
    raise AssertionError(f"no random game from seed {seed} came to the state")


def game_after(seed: int, steps: int) -> Game:
    config, actions = play_until(lambda g: len(g.history) >= steps or g.is_over, seed=seed)
    return Game.replay(config, actions)


def without_moves(page: dict[str, Any]) -> dict[str, Any]:
    """The page less its move number (a state loaded from JSON has no history)."""
    return {**page, "turn": {k: v for k, v in page["turn"].items() if k != "moves"}}


def others_changed(game: Game, seat: int) -> tuple[Game, set[int]]:
    """The same game with every other seat's cards swapped for others of the same counts
    (the bank gives and takes the difference, so every card is still somewhere), and the seats
    whose progress cards changed."""
    swapped: set[int] = set()
    data: dict[str, Any] = copy.deepcopy(game.to_json())
    bank = data["bank"]
    for q, hand in enumerate(data["hands"]):
        if q == seat:
            continue
        left = sum(hand.values())
        new = dict.fromkeys(hand, 0)
        for kind in reversed(list(hand)):  # commodities first: the most unlike a usual hand
            new[kind] = min(left, bank[kind] + hand[kind])
            left -= new[kind]
        assert left == 0
        for kind in hand:
            bank[kind] += hand[kind] - new[kind]
        data["hands"][q] = new
    for q, cards in enumerate(data["progress_hands"]):
        if q == seat:
            continue
        for i, card in enumerate(cards):  # a card changes place with one of a kind not held
            deck = data["decks"][ProgressCard(card).track.value]
            j = next(
                (j for j, d in enumerate(deck) if d not in cards and not ProgressCard(d).is_vp),
                None,
            )
            if j is not None:
                cards[i], deck[j] = deck[j], card
                swapped.add(q)
        cards.sort(key=lambda c: ProgressCard(c).order)
    return Game.from_json(data), swapped


def seven_discard(game: Game) -> bool:
    """A 7's discard (not a Saboteur's) for someone who is not the player on turn."""
    p = game.prompt
    return (
        p.kind is PromptKind.DISCARD
        and isinstance(game.history[-1], Roll)
        and game.history[-1].total == 7
        and p.player != game.active
        and p.count >= 2
    )


def journal_game(
    path: Path,
    stop: Callable[[Game], bool],
    seed: int = 1,
    players: int = 4,
    config_for: Callable[[int, int], GameConfig] | None = None,
) -> GameSession:
    """A journal at ``path`` holding one game played up to ``stop``; its open session."""
    config, actions = play_until(stop, seed=seed, players=players, config_for=config_for)
    journal = Journal(path)
    session = journal.new_game(config)
    for action in actions:
        session.apply(action)
    return session


def write_journal_game(path: Path, stop: Callable[[Game], bool], seed: int = 1) -> Game:
    """Like :func:`journal_game`, the journal closed again; the game as it stands."""
    config, actions = play_until(stop, seed=seed)
    with Journal(path) as journal:
        session = journal.new_game(config)
        for action in actions:
            session.apply(action)
        return session.game


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
async def harness(
    session: GameSession, limits: Limits = DEFAULT_LIMITS, expert: Decide | None = None
) -> AsyncIterator[Harness]:
    """The phones' server for ``session`` on the running loop, with every seat paired;
    ``expert`` answers "What would the Expert do?" (the bot's own unless given).

    The tablet's thread is the test's own here: an answer is decided at once."""
    table = PhoneTable(lambda: session.game, session.apply, expert=expert)
    names = session.game.config.names

    async def decide(seat: int, action: Action) -> str | None:
        return table.decide(seat, action)

    async def request(seat: int) -> str | None:
        return table.request_build(seat)

    async def hint(seat: int) -> HintWork | Msg | str:
        return table.hint(seat)

    tokens = SeatTokens(len(names))
    server = PhoneServer(tokens, names, decide, limits, request, hint)
    table.sink = server
    paired = [tokens.pair(seat) for seat in range(len(names))]
    table.publish()
    client = TestClient(TestServer(server.app(), host="127.0.0.1"))
    await client.start_server()
    try:
        yield Harness(session, table, server, client, paired)
    finally:
        await client.close()


class ServeProcess:
    """``python -m companion_app.phones serve`` in a child process; stdin is the tablet."""

    def __init__(self, journal: Path, game_id: int, *, host: str = "127.0.0.1") -> None:
        command = [sys.executable, "-m", "companion_app.phones", "serve", "--journal"]
        command += [str(journal), "--game", str(game_id), "--host", host, "--port", "0"]
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.seats: dict[int, tuple[str, str]] = {}
        """Seat → (name, page URL), from the SEAT lines."""
        while (line := self.expect("")) != "READY":
            word, seat, name, url = line.split(" ")
            assert word == "SEAT", line
            self.seats[int(seat)] = (name, url)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def expect(self, prefix: str, timeout: float = 60) -> str:
        """The next output line starting with ``prefix`` (others are skipped)."""
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no line starting {prefix!r} from the server") from None
            if line is None:
                err = self.proc.stderr.read() if self.proc.stderr else ""
                raise AssertionError(f"the server ended: {err[-2000:]}")
            if line.startswith(prefix):
                return line

    def status(self) -> dict[str, Any]:
        self.send("STATUS")
        return dict(json.loads(self.expect("STATUS ").split(" ", 1)[1]))

    def close(self) -> int:
        if self.proc.poll() is None:
            with contextlib.suppress(BrokenPipeError, OSError):
                self.send("QUIT")
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        return self.proc.returncode

    def __enter__(self) -> ServeProcess:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


class TcpRelay:
    """A TCP relay between a browser and the server, to cut the network under a live page.

    ``cut()`` closes every relayed connection and refuses new ones (a phone's Wi-Fi gone);
    ``mend()`` lets connections through again; ``freeze()`` leaves the open ones silently
    dead (a phone back from sleep)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.loop = asyncio.new_event_loop()
        self.open = True
        self.generation = 0
        self.writers: set[asyncio.StreamWriter] = set()
        ready = threading.Event()

        async def start() -> None:
            self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
            self.port = self.server.sockets[0].getsockname()[1]

        def run() -> None:
            self.loop.run_until_complete(start())
            ready.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        ready.wait()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.open:
            writer.close()
            return
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self.writers |= {writer, up_writer}
        born = self.generation

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError, OSError):
                while data := await src.read(65536):
                    if born == self.generation:  # a frozen connection swallows everything
                        dst.write(data)
                        await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def url(self, server_url: str) -> str:
        """``server_url`` through the relay."""
        scheme, rest = server_url.split("://", 1)
        path = rest.split("/", 1)[1]
        return f"{scheme}://127.0.0.1:{self.port}/{path}"

    def cut(self) -> None:
        def cut_all() -> None:
            self.open = False
            for w in self.writers:
                w.transport.abort()
            self.writers.clear()

        self.loop.call_soon_threadsafe(cut_all)

    def freeze(self) -> None:
        """Every relayed connection stays open but carries nothing more, as after a phone's
        sleep; new connections work."""

        async def bump() -> None:
            self.generation += 1

        asyncio.run_coroutine_threadsafe(bump(), self.loop).result(timeout=10)

    def mend(self) -> None:
        self.loop.call_soon_threadsafe(setattr, self, "open", True)

    def close(self) -> None:
        self.cut()

        async def shut() -> None:
            self.server.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(shut(), self.loop).result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()
