"""The bot's reasons read as sentences in every language: each begins with a capital letter,
also after the full stop of the hint ("The Expert would: {action}. {reason}")."""

from __future__ import annotations

import pytest

from companion_app.bot import reasons
from companion_app.bot.decision import Decision
from companion_app.bot.players import ExpertPlayer, GreedyPlayer, WeightedRandomPlayer
from companion_app.bot.sim import play_game
from companion_app.i18n import render
from companion_app.presenters import bot_turn as BT
from companion_app.rules.actions import BankTrade
from companion_app.rules.cards import Card
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.messages import Msg
from tests.rules.builders import make_game

LANGUAGES = ("en", "cs", "ca", "pl", "de", "vi")


class Recording:
    """A player that keeps every reason it gives."""

    def __init__(self, player: GreedyPlayer | WeightedRandomPlayer) -> None:
        self.player = player
        self.reasons: list[Msg] = []

    def decide(self, game: Game, seat: int) -> Decision:
        decision = self.player.decide(game, seat)
        self.reasons.append(decision.reason)
        return decision


def bank_trade_reason() -> Msg:
    game = make_game(config=GameConfig.for_players(3, seed=4), active=0, prompt="turn")
    trade = BankTrade(0, Card(3), Card(4))
    return reasons.explain(game, 0, trade)


def test_a_bank_trades_reason_begins_with_a_capital_in_the_hint() -> None:
    reason = bank_trade_reason()
    for code in LANGUAGES:
        text = render(reason, code)
        assert text[:1].isupper(), (code, text)
    hint = Msg("The Expert would: {action}. {reason}", (("action", "x"), ("reason", reason)))
    english = render(hint, "en")
    assert english.startswith(
        "The Expert would: x. A trade with the bank, grain for ore: for the next build"
    )


@pytest.fixture(scope="module")
def said() -> set[Msg]:
    """Every reason given in a short 3-player game of an expert, a player and a learner."""
    seats = [
        Recording(ExpertPlayer()),
        Recording(GreedyPlayer()),
        Recording(WeightedRandomPlayer()),
    ]
    play_game(GameConfig.for_players(3, seed=11), seats, dice_seed=11, max_turns=30)
    return {r for seat in seats for r in seat.reasons} | {reasons.BEST, reasons.RANDOM}


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_reason_of_a_game_begins_with_a_capital(said: set[Msg], code: str) -> None:
    assert len(said) > 10
    for reason in said:
        text = render(reason, code)
        assert text[:1].isupper(), (code, text)


def test_the_hint_reads_as_sentences() -> None:
    game = make_game(config=GameConfig.for_players(3, seed=4), active=0, prompt="turn")
    choice = Decision(BankTrade(0, Card(3), Card(4)), bank_trade_reason())
    hint = BT.hint(game, 0, lambda _game, _seat, _level: choice)
    assert hint is not None
    for code in LANGUAGES:
        text = render(hint, code)
        after_stop = text.split(". ", 1)[1]
        assert after_stop[:1].isupper(), (code, text)
