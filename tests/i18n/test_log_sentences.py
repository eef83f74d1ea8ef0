"""A log line or a button that names counted cards says them where the nominative is right:
Polish and Czech put them after a colon ("Blue odrzuca: 4 drewna, 1 papier"), as the banner
does, since after the verb the sentence would ask for another case ("oferuje 1 wełnę", "bere si
1 vlnu") and a list of counted names has no one case of its own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion_app.game_log import GameLog
from companion_app.i18n import catalogue, current
from companion_app.presenters import choices as C
from companion_app.rules.actions import BankTrade
from companion_app.rules.cards import Card
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.messages import Msg, msg
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    current.use("en")


def _played(steps: int) -> Game:
    game = Game.new(GameConfig.for_players(3, seed=1))
    rng = SplitMix64(1)
    for _step in range(steps):
        game.apply(choose_random_action(game, rng))
    return game


def _first_line(lines: list[Msg], message_id: str) -> Msg:
    return next(line for line in lines if line.text == message_id)


def test_a_played_games_log_lines_name_their_cards_after_a_colon() -> None:
    lines = GameLog.of(_played(200)).words_for(None)
    polish, czech = catalogue("pl"), catalogue("cs")

    offer = _first_line(lines, "{player} offers {to} {gives} for {takes}")
    assert str(offer) == "Red offers White 1 paper for 1 grain"
    assert polish.render(offer) == "Red oferuje graczowi White: 1 papier; w zamian chce: 1 zboże"
    assert czech.render(offer) == "Red nabízí hráči White: 1 papír; chce za to: 1 obilí"

    trade = _first_line(lines, "{player} trades {give} for {take} with the bank")
    assert str(trade) == "Red trades 4 lumber for 1 paper with the bank"
    assert polish.render(trade) == "Red wymienia z bankiem 4 drewna i bierze: 1 papier"
    assert czech.render(trade) == "Red mění s bankou 4 dřeva a bere si: 1 papír"

    discard = _first_line(lines, "{player} discarded {cards}")
    assert str(discard) == "Blue discarded 4 lumber, 1 paper"
    assert polish.render(discard) == "Blue odrzuca: 4 drewna, 1 papier"
    assert czech.render(discard) == "Blue odhodil(a): 4 dřeva, 1 papír"

    city = _first_line(lines, "{who} places a city {place}: gets {got}")
    assert str(city) == "White places a city by 3, 8, 5: gets 1 lumber, 1 wool, 1 ore"
    assert polish.render(city) == (
        "White stawia miasto przy 3, 8, 5 i dostaje: 1 drewno, 1 wełna, 1 kamień"
    )
    assert czech.render(city) == "White staví město u 3, 8, 5 a dostává: 1 dřevo, 1 vlna, 1 ruda"


def test_one_feminine_card_reads_in_the_nominative_after_a_colon() -> None:
    """1 wool is "1 wełna" / "1 vlna" by itself; "Weź 1 wełna" would need "1 wełnę"."""
    wool = Card.WOOL.counted(1)
    polish, czech = catalogue("pl"), catalogue("cs")
    assert polish.render(msg("Take {card}", card=wool)) == "Weź: 1 wełna"
    assert czech.render(msg("Take {card}", card=wool)) == "Vzít: 1 vlna"
    gold = msg("{player} takes {card} (gold field)", player="Blue", card=wool)
    assert polish.render(gold) == "Blue bierze: 1 wełna (pole złota)"
    assert czech.render(gold) == "Blue si bere: 1 vlna (zlatonosná řeka)"


def test_the_bank_trade_button_counts_the_card_given_in_its_plural_form() -> None:
    """Blue at a 2:1 grain harbour: "2 zboża" / "2 obilí", never the bare name after the number
    ("Daj 2 zboże")."""
    game = _played(24)
    assert game.prompt.kind is PromptKind.TURN
    assert any(isinstance(a, BankTrade) for a in game.legal_actions())
    said = {}
    for code in ("en", "pl", "cs"):
        current.use(code)
        step = C.bar_step(game, "bank_trade")
        first = step.choices[0]
        assert first.then is not None
        said[code] = (first.label, first.then.title)
    assert said == {
        "en": ("Give 2 grain", "Give 2 grain for…"),
        "pl": ("Daj: 2 zboża", "Daj: 2 zboża; w zamian…"),
        "cs": ("Dát: 2 obilí", "Dát: 2 obilí; výměnou za…"),
    }
