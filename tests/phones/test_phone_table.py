"""PhoneTable without a server: a phone's answer is published once (by the owner's refresh
inside ``apply`` when it has one), and the pages read the owner's one game log."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest
from phones_helpers import play_until, seven_discard

from companion_app.game_log import GameLog
from companion_app.phones.table import PhoneTable
from companion_app.phones.view import SeatPage
from companion_app.rules.actions import Action
from companion_app.rules.game import Game


class Sink:
    """Records every batch of pages the table hands on; every seat has a phone."""

    def __init__(self, seats: int) -> None:
        self.batches: list[dict[int, str]] = []
        self.seats = seats

    def publish(self, pages: Mapping[int, SeatPage]) -> None:
        self.batches.append({seat: page.text("en") for seat, page in pages.items()})

    def connected(self) -> dict[int, int]:
        return dict.fromkeys(range(self.seats), 1)


def at_a_discard() -> Game:
    config, actions = play_until(seven_discard)
    return Game.replay(config, actions)


def discard_of(game: Game) -> Action:
    """One card of the 7's discard (every legal answer to the prompt is one)."""
    return game.legal_actions()[0]


@pytest.mark.parametrize("owner_publishes", [True, False])
def test_an_answer_is_published_once(owner_publishes: bool) -> None:
    """The app's apply refreshes, and its refresh publishes; the headless server's apply only
    commits. Either way the phones get the answer's pages once."""
    game = at_a_discard()

    def apply(action: Action) -> None:
        game.apply(action)
        if owner_publishes:
            table.publish()  # the owner's refresh

    table = PhoneTable(lambda: game, apply)
    sink = table.sink = Sink(game.player_count)
    table.publish()
    before, batches = table.publishes, len(sink.batches)
    assert table.decide(game.prompt.player, discard_of(game)) is None
    assert table.publishes - before == 1 and len(sink.batches) - batches == 1


def test_the_pages_read_the_owners_log() -> None:
    game = at_a_discard()
    owners = GameLog.of(game)
    asked: list[int] = []

    def log() -> GameLog:
        asked.append(len(game.history))
        return owners

    table = PhoneTable(lambda: game, game.apply, log=log)
    sink = table.sink = Sink(game.player_count)
    table.publish()
    assert asked == [len(game.history)]
    page = json.loads(sink.batches[-1][0].split('"page":', 1)[1][:-1])
    shown = json.dumps(page)
    last = str(owners.entries[-1].words_for(0))
    assert json.dumps(last)[1:-1] in shown
