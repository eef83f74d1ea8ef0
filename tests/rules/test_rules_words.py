"""An action is put into words in one place: its declaration in its mechanic module.

Every action kind declares what its button says and what the log says of it (public text, and a
private detail for its audience); the app's buttons and the game log read those declarations,
and no other module words an action kind by kind."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import companion_app
from companion_app.game_log import GameLog
from companion_app.presenters.wording import describe_action
from companion_app.rules import registry
from companion_app.rules.actions import (
    ACTION_TYPES,
    Action,
    BuildCity,
    BuildSettlement,
    EndTurn,
    GiveCard,
    HarborExchange,
    PlayBishop,
    PlayProgress,
    PlayResourceMonopoly,
    Roll,
    StealFrom,
)
from companion_app.rules.cards import Card, ProgressCard, hand_of
from companion_app.rules.config import GameConfig
from companion_app.rules.events import CardsMoved, Steal
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64
from companion_app.rules.words import Line, LineKind, Prior, Telling
from tests.rules.builders import corner, make_game
from tests.said import said

ROOT = Path(companion_app.__file__).parent


def test_every_declared_action_has_a_button_and_log_words() -> None:
    assert set(registry.RULES) == set(ACTION_TYPES.values())
    for rule in registry.RULES.values():
        assert callable(rule.button) and callable(rule.told), rule.action.__name__


def test_the_words_of_random_games_are_well_formed() -> None:
    """Buttons start with a capital; every log line has text, a private one a detail only its
    audience reads; the log of a game has a line for every action but End turn."""
    seen: set[type[Action]] = set()
    for seed in range(8):
        game = Game.new(GameConfig.for_players(3 + seed % 2, seed=seed))
        rng = SplitMix64(seed)
        while game.turn < 150 and not game.is_over:
            action = choose_random_action(game, rng)
            button = describe_action(game, action)
            assert button and button[0].isupper(), (action, button)
            prior = Prior.of(game)
            game.apply(action)
            lines = said(
                registry.told_lines(Telling(game, game.config.names, prior, game.events), action)
            )
            seen.add(type(action))
            assert lines or isinstance(action, EndTurn | StealFrom | PlayBishop), action
            for line in lines:
                assert isinstance(line, Line) and said(line.text)
                assert bool(line.audience) == bool(said(line.detail))
                if said(line.detail):
                    assert said(line.detail) != said(line.text) and line.audience
    # Random play reaches most kinds; the rest have worked examples of their own.
    assert len(seen) >= 40, sorted(t.__name__ for t in set(ACTION_TYPES.values()) - seen)


def test_button_words_are_the_declarations() -> None:
    game = make_game(hands={0: hand_of(brick=4)})
    from companion_app.rules.actions import BankTrade

    trade = BankTrade(0, Card.BRICK, Card.ORE)
    assert describe_action(game, trade) == "Trade 4 brick for 1 ore"
    assert describe_action(game, EndTurn(0)) == "End turn"
    assert describe_action(game, PlayProgress(0, ProgressCard.IRRIGATION)) == "Play Irrigation"
    assert (
        said(registry.button_words(game, trade, ("A", "B", "C", "D"))) == "Trade 4 brick for 1 ore"
    )
    steal = StealFrom(0, 2)
    assert said(registry.button_words(game, steal, ("Ann", "Ben", "Cy", "Di"))) == "Steal from Cy"


def test_a_starting_city_says_what_it_brought() -> None:
    """The rules core records the cards the starting city took (§2); the log reads them."""
    game = Game.new(GameConfig.for_players(4, seed=3))
    rng = SplitMix64(3)
    while game.prompt.kind is not PromptKind.SETUP_CITY:
        game.apply(choose_random_action(game, rng))
    city = next(a for a in game.legal_actions() if isinstance(a, BuildCity))
    before = game.hand(city.player)
    log = GameLog.from_position(game)
    game.apply(city)
    log.sync([city])
    got = tuple(a - b for a, b in zip(game.hand(city.player), before, strict=True))
    assert game.events == [CardsMoved(-1, city.player, got)]
    assert sum(got) >= 1
    assert said(log.entries[0].text).endswith(": gets " + _hand(got))


def _hand(hand: tuple[int, ...]) -> str:
    return ", ".join(f"{n} {Card(c).label}" for c, n in enumerate(hand) if n)


def test_a_monopoly_says_who_gave_what_seat_by_seat() -> None:
    game = make_game(
        hands={1: hand_of(ore=3), 2: hand_of(ore=1), 3: hand_of(brick=2)},
        progress={0: (ProgressCard.RESOURCE_MONOPOLY,)},
    )
    log = GameLog.from_position(game)
    log.sync([PlayResourceMonopoly(0, Card.ORE)])
    assert [said(e.text) for e in log.entries] == [
        "Red plays Resource Monopoly on ore",
        "Red gets 3 ore",
        "Blue gives 2 ore",
        "White gives 1 ore",
    ]
    assert log._replay is not None
    assert log._replay.events == [
        CardsMoved(1, 0, hand_of(ore=2)),
        CardsMoved(2, 0, hand_of(ore=1)),
    ]


def test_the_bishop_steals_one_card_from_each_player_there_privately() -> None:
    game = make_game(
        buildings={corner(4, 0): (1, "settlement"), corner(4, 3): (2, "settlement")},
        hands={1: hand_of(ore=1), 2: hand_of(wool=1)},
        progress={0: (ProgressCard.BISHOP,)},
        robber_unlocked=True,
    )
    log = GameLog.from_position(game)
    log.sync([PlayBishop(0, 4)])
    assert log._replay is not None
    assert sorted(log._replay.events, key=lambda e: e.victim if isinstance(e, Steal) else 0) == [
        Steal(0, 1, Card.ORE),
        Steal(0, 2, Card.WOOL),
    ]
    steals = [e for e in log.entries if e.kind is LineKind.STEAL]
    assert [said(e.text) for e in steals] == [
        "Red steals a card from Blue",
        "Red steals a card from White",
    ]
    assert [said(e.words_for(1)) for e in steals] == [
        "Red steals 1 ore from Blue",
        said(steals[1].text),
    ]
    assert [said(e.words_for(2)) for e in steals] == [
        said(steals[0].text),
        "Red steals 1 wool from White",
    ]
    assert [said(e.words_for(3)) for e in steals] == [said(e.text) for e in steals]


@pytest.mark.parametrize("commodity", [True, False])
def test_a_commercial_harbor_offer_names_the_resource_only_to_both(commodity: bool) -> None:
    """With a commodity to answer with, the offer is made (the resource private to the two);
    without one nothing moves (§10)."""
    hands = {0: hand_of(ore=1), 1: hand_of(cloth=1, coin=1) if commodity else hand_of(brick=1)}
    game = make_game(hands=hands, progress={0: (ProgressCard.COMMERCIAL_HARBOR,)})
    log = GameLog.from_position(game)
    log.sync([PlayProgress(0, ProgressCard.COMMERCIAL_HARBOR), HarborExchange(0, 1, Card.ORE)])
    offer = log.entries[-1]
    if commodity:
        assert said(offer.text) == "Red offers Blue a resource"
        assert offer.audience == frozenset({0, 1})
        assert said(offer.words_for(1)) == "Red offers Blue 1 ore"
        log.sync([*log._applied, GiveCard(1, Card.CLOTH)])
        assert said(log.entries[-1].text) == "Blue gives Red a card"
        assert said(log.entries[-1].words_for(0)) == "Blue gives Red 1 cloth"
    else:
        assert said(offer.text) == "Blue holds no commodity: nothing moves"
        assert offer.is_public


def test_the_next_turn_is_announced_after_an_end_of_turn_discard() -> None:
    """A fifth progress card held at End turn is discarded first (§9); the next turn's line
    comes once the turn really passes, not at End turn."""
    cards = (
        ProgressCard.IRRIGATION,
        ProgressCard.MINING,
        ProgressCard.SMITH,
        ProgressCard.WARLORD,
        ProgressCard.WEDDING,
    )
    game = make_game(progress={0: cards})
    log = GameLog.from_position(game)
    log.sync([EndTurn(0)])
    assert [said(e.text) for e in log.entries] == []
    from companion_app.rules.actions import DiscardProgressCard

    log.sync([EndTurn(0), DiscardProgressCard(0, ProgressCard.WEDDING)])
    assert [said(e.text) for e in log.entries] == [
        "Red puts a progress card back",
        f"Turn {game.turn + 2} · Blue",
    ]


# ---- no other module words an action ----------------------------------------------------------

ACTION_NAMES = {cls.__name__ for cls in ACTION_TYPES.values()}


def _names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
    }


def _branches_on_action_types(func: ast.FunctionDef) -> set[str]:
    """Action classes a function tests a value against (isinstance, match-case)."""
    found: set[str] = set()
    for node in ast.walk(func):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "isinstance"
            and len(node.args) == 2
        ):
            found |= _names_in(node.args[1]) & ACTION_NAMES
        elif isinstance(node, ast.MatchClass):
            found |= _names_in(node.cls) & ACTION_NAMES
    return found


def wording_by_type(path: Path) -> list[str]:
    """Functions returning words (``-> str``) that branch on the action's type."""
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.FunctionDef)
            and node.returns is not None
            and ast.unparse(node.returns) == "str"
            and _branches_on_action_types(node)
        ):
            found.append(f"{path.relative_to(ROOT.parent)}:{node.lineno} {node.name}")
    return found


def test_no_module_outside_the_declarations_words_an_action_by_its_type() -> None:
    paths = [
        ROOT / "game_log.py",
        ROOT / "game_stats.py",
        *sorted((ROOT / "app").rglob("*.py")),
        *sorted((ROOT / "phones").rglob("*.py")),
    ]
    found = [f for path in paths for f in wording_by_type(path)]
    assert found == []
    log_tree = ast.parse((ROOT / "game_log.py").read_text())
    branches = {
        name
        for node in ast.walk(log_tree)
        if isinstance(node, ast.FunctionDef)
        for name in _branches_on_action_types(node)
    }
    assert branches == set(), "the game log reads the declarations, not the action's type"


def test_the_check_finds_wording_by_type(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "def words(a) -> str:\n"
        "    if isinstance(a, BuildRoad | EndTurn):\n        return 'x'\n"
        "    match a:\n        case Roll(): return 'y'\n"
        "    return ''\n"
        "def spot(a) -> int:\n    return 1 if isinstance(a, BuildRoad) else 0\n"
    )
    tree = ast.parse(source.read_text())
    func = tree.body[0]
    assert isinstance(func, ast.FunctionDef)
    assert _branches_on_action_types(func) == {"BuildRoad", "EndTurn", "Roll"}
    assert Roll.__name__ in ACTION_NAMES and BuildSettlement.__name__ in ACTION_NAMES
