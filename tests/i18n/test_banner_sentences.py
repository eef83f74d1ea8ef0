"""The top banner says a counted decision as one sentence of the reader's language: the count
takes the case the sentence gives it (Polish "odrzuć 1 kartę", never the phrase's own "1 karta"
glued in), in each of the language's plural forms."""

from __future__ import annotations

from companion_app.i18n import catalogue
from companion_app.presenters.wording import prompt_view
from companion_app.rules import registry
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.prompts import Prompt, PromptKind
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64

NAMES = ("Anna", "Blue", "Cleo")


def _banner(code: str, kind: PromptKind, count: int, *, sea: bool = False) -> str:
    prompt = Prompt(kind, 1, count)
    return catalogue(code).render(registry.describe_prompt(prompt, NAMES, sea=sea))


def test_a_discard_reads_as_one_sentence_in_polish_and_german() -> None:
    assert [_banner("pl", PromptKind.DISCARD, n) for n in (1, 2, 5, 22)] == [
        "Blue: odrzuć 1 kartę",
        "Blue: odrzuć 2 karty",
        "Blue: odrzuć 5 kart",
        "Blue: odrzuć 22 karty",
    ]
    assert [_banner("de", PromptKind.DISCARD, n) for n in (1, 4)] == [
        "Blue: wirf 1 Karte ab",
        "Blue: wirf 4 Karten ab",
    ]
    assert _banner("cs", PromptKind.DISCARD, 1) == "Blue: odhoď 1 kartu"


def test_other_counted_decisions_read_as_one_sentence() -> None:
    assert (
        _banner("pl", PromptKind.SMITH, 1)
        == "Blue: Kowal: awansuj za darmo do 1 rycerza albo zakończ"
    )
    assert _banner("de", PromptKind.SMITH, 2) == (
        "Blue: Schmied: befördere bis zu 2 Ritter kostenlos oder hör auf"
    )
    assert _banner("pl", PromptKind.FREE_ROAD, 1) == "Blue: zbuduj za darmo 1 drogę albo zakończ"
    assert _banner("pl", PromptKind.FREE_ROAD, 2, sea=True) == (
        "Blue: zbuduj za darmo 2 drogi lub statki albo zakończ"
    )
    assert _banner("de", PromptKind.GOLD, 1) == "Blue: Goldfluss: nimm 1 Karte nach Wahl"
    assert _banner("pl", PromptKind.MASTER_MERCHANT, 2) == "Blue: Mistrz Handlowy: weź 2 karty"


def _at_a_discard(seed: int = 3) -> Game:
    game = Game.new(GameConfig.for_players(3, seed=seed))
    rng = SplitMix64(seed)
    while game.prompt.kind is not PromptKind.DISCARD:
        game.apply(choose_random_action(game, rng))
    return game


def _polish_form(n: int) -> int:
    """Polish plural forms: 1 kartę, 2-4 (not 12-14) karty, else kart."""
    return 0 if n == 1 else 1 if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else 2


def test_a_played_discard_shows_the_sentence_on_the_banner_and_the_phone() -> None:
    """The banner's words (``prompt_view``) and the phone's line of the decider's cards, both
    counted, in Polish."""
    game = _at_a_discard()
    n, held = game.prompt.count, game.card_count(game.prompt.player)
    polish = catalogue("pl")
    name = game.config.names[game.prompt.player]
    forms = ("kartę", "karty", "kart")
    assert polish.render(game.describe_prompt()) == f"{name}: odrzuć {n} {forms[_polish_form(n)]}"
    on_phone = registry.prompt_details(game, phone=True)
    assert on_phone is not None
    assert polish.render(on_phone) == f"Masz {held} {forms[_polish_form(held)]}."
    assert prompt_view(game).words == f"{name}: discard {n} card{'s' if n > 1 else ''}"


def test_an_offer_names_its_cards_after_a_colon_in_polish_and_czech() -> None:
    """An offer's cards are a list of counted names ("1 cegła, 2 wełny"), no one sentence's
    plural: Polish and Czech name them after a colon, where the nominative is right (after the
    verb "oferuje 1 cegła" would need "1 cegłę")."""
    game = Game.new(GameConfig.for_players(3, seed=1))
    rng = SplitMix64(1)
    while game.prompt.kind is not PromptKind.TRADE_RESPONSE:
        game.apply(choose_random_action(game, rng))
    details = registry.prompt_details(game)
    on_phone = registry.prompt_details(game, phone=True)
    assert details is not None and on_phone is not None
    assert str(details) == "Red offers 1 paper for 1 grain"
    assert catalogue("pl").render(details) == "Red oferuje: 1 papier; w zamian chce: 1 zboże"
    assert catalogue("pl").render(on_phone) == "Red daje: 1 papier; w zamian chce: 1 zboże"
    assert catalogue("cs").render(details) == "Red nabízí: 1 papír; chce za to: 1 obilí"
