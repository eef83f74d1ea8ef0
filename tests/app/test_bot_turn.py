"""The seats the tablet plays, without a window: the bot level in the config (JSON only when
set), a bot's choices turned into the table's physical steps with the bot's reasons, cards
between a person and a bot moved through the bank, a game of two people and a bot reaching a
person's decision, one Undo taking back the bot's choices with the person's tap, and the
journal replaying them.

The bot here is a small deterministic stand-in (first road it can build, else End turn, else
the first legal action): what is tested is the table's side of any bot keeping the contract
(``decide(game, seat, level) -> Decision(action, reason)``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from companion_app.bot import LEVELS, decide, level_name
from companion_app.device.box_state import box_state
from companion_app.journal import Journal
from companion_app.presenters import bot_turn as BT
from companion_app.presenters import game_controller as GC
from companion_app.presenters.forms import NewGameForm
from companion_app.rules.actions import (
    Action,
    BuildRoad,
    EndTurn,
    EventDie,
    MoveRobber,
    Roll,
    StartSpecialBuild,
    StealFrom,
)
from companion_app.rules.board import STARTER_BOARD
from companion_app.rules.cards import hand_of
from companion_app.rules.config import BOT_LEVELS, GameConfig
from companion_app.rules.errors import ConfigError
from companion_app.rules.game import Game
from companion_app.rules.messages import Msg, msg
from tests.rules.builders import STARTER4, corner, make_game
from tests.said import said


@dataclass(frozen=True)
class Choice:
    action: Action
    reason: Msg


def stand_in(game: Game, seat: int, level: str) -> Choice:
    """A deterministic bot for the table's tests: a road if it can, else End turn, else the
    first legal action."""
    assert level in BOT_LEVELS and game.prompt.player == seat
    if game.awaiting_roll:
        return Choice(Roll(seat, 1, 1, EventDie.SHIP), msg("roll"))
    legal = game.legal_actions()
    for action in legal:
        if isinstance(action, BuildRoad) and not game.in_setup:
            return Choice(action, msg("a longer road"))
    end = next((a for a in legal if isinstance(a, EndTurn)), None)
    return Choice(end or legal[0], msg("nothing better"))


def with_bot(config: GameConfig, seat: int, level: str = "expert") -> GameConfig:
    players = list(config.players)
    players[seat] = replace(players[seat], bot=level)
    return replace(config, players=tuple(players))


# ---- the config -------------------------------------------------------------------------------


def test_a_config_without_bots_is_written_as_before() -> None:
    config = GameConfig.for_players(4, seed=7)
    players = config.to_json()["players"]
    assert players == [{"name": p.name, "colour": p.colour} for p in config.players]
    assert GameConfig.from_json(json.loads(json.dumps(config.to_json()))) == config


def test_a_bot_seat_is_written_with_its_level_and_read_back() -> None:
    config = with_bot(GameConfig.for_players(3), 1, "learner")
    data = json.loads(json.dumps(config.to_json()))
    assert data["players"][1] == {"name": "Blue", "colour": "blue", "bot": "learner"}
    assert "bot" not in data["players"][0]
    assert GameConfig.from_json(data) == config


@pytest.mark.parametrize("level", ["genius", None, 3, "x" * 10_000])
def test_an_unknown_level_is_refused_in_one_line(level: object) -> None:
    data = with_bot(GameConfig.for_players(3), 2).to_json()
    data["players"][2]["bot"] = level
    with pytest.raises(ConfigError) as refused:
        GameConfig.from_json(data)
    words = str(refused.value)
    assert "players[2].bot" in words and "\n" not in words and len(words) < 300


def test_the_configs_levels_are_the_bots() -> None:
    assert BOT_LEVELS == LEVELS
    assert [said(level_name(level)) for level in LEVELS] == ["Learner", "Player", "Expert"]


def test_a_config_made_with_an_unknown_level_is_refused() -> None:
    with pytest.raises(ConfigError, match="bot seat's level"):
        with_bot(GameConfig.for_players(3), 0, "grandmaster")


# ---- a bot's turn as the table's steps --------------------------------------------------------


def test_a_bot_builds_a_road_and_ends_its_turn_in_two_steps_with_reasons() -> None:
    # Blue (the tablet, seat 1) has a settlement on hex 4 and a brick and a lumber: the road
    # the stand-in builds is one step on the board (its edge highlighted), End turn the other.
    game = make_game(
        config=with_bot(STARTER4, 1),
        buildings={corner(4, 0): (1, "settlement")},
        hands={1: hand_of(brick=1, lumber=1)},
        active=1,
    )
    table = BT.BotTable()
    table.follow(game)
    assert BT.bot_to_decide(game) == 1
    reasons = BT.play_bots(game, game.apply, stand_in)
    assert BT.bot_to_decide(game) is None and game.prompt.player == 2
    for index, reason in reasons.items():
        table.note(index, reason)
    steps = table.steps(game, deciding=False).steps
    built, ended = steps
    assert isinstance(game.history[0], BuildRoad) and built.spot == ("edge", game.history[0].edge)
    assert said(built.reason) == "a longer road" and said(ended.reason) == "nothing better"
    assert said(built.words) == "Blue builds a road" and said(ended.words) == "Blue: End turn"
    assert ended.spot is None and built.seat == ended.seat == 1
    # One "Done": nothing left to show.
    table.confirm(game)
    assert table.steps(game, deciding=False).steps == []


def test_a_bot_steals_from_a_person_who_gives_the_card_to_the_bank() -> None:
    # Red (the tablet) moves the robber next to Blue's settlement; Blue's one ore goes to the
    # tablet's hand for Red, so Blue gives a card to the bank (which one: Blue's own cards).
    game = make_game(
        config=with_bot(STARTER4, 0),
        buildings={corner(4, 0): (1, "settlement")},
        hands={1: hand_of(ore=1)},
        prompt="move_robber",
        robber_unlocked=True,
    )
    before = Game.from_json(game.to_json())
    game.apply(MoveRobber(0, 4))
    if game.prompt.kind.value == "choose_victim":
        game.apply(StealFrom(0, 1))
    steps = BT.turn_steps(before, game.history, {}).steps
    moves = [s for s in steps if s.reason is None and s.seat == 1]
    assert said([m.words for m in moves]) == [
        "Blue: give 1 card to the bank, taken by Red (the tablet); your own cards say which"
    ]
    assert "ore" not in said(moves[0].words)  # the steal is private to Red and Blue
    assert steps[0].spot == ("hex", 4) and steps[0].seat == 0


def test_a_person_who_steals_from_a_bot_takes_the_card_from_the_bank() -> None:
    game = make_game(
        config=with_bot(STARTER4, 1),
        buildings={corner(4, 0): (1, "settlement")},
        hands={1: hand_of(wool=1)},
        prompt="move_robber",
        robber_unlocked=True,
    )
    before = Game.from_json(game.to_json())
    game.apply(MoveRobber(0, 4))
    if game.prompt.kind.value == "choose_victim":
        game.apply(StealFrom(0, 1))
    steps = BT.turn_steps(before, game.history, {}).steps
    assert said([s.words for s in steps]) == [
        "Red: take 1 card from the bank, from Blue (the tablet); your own cards say which"
    ]


# ---- a whole game at the table ----------------------------------------------------------------


def _person(game: Game) -> Action:
    """People at the table: first legal choice, End turn when they can, fixed dice."""
    if game.awaiting_roll:
        n = len(game.history)
        return Roll(game.prompt.player, 1 + n % 6, 1 + (n // 6) % 6, EventDie.SHIP)
    legal = game.legal_actions()
    end = next((a for a in legal if isinstance(a, EndTurn)), None)
    return end or legal[0]


def _play(session: object, steps: int, bot: BT.Decide = stand_in) -> list[int]:
    """Two people and a bot: the bot's run after each person's action (the app's path);
    returns the seats that decided after each run."""
    deciders = []
    for _step in range(steps):
        game = session.game  # type: ignore[attr-defined]
        BT.play_bots(game, session.apply, bot)  # type: ignore[attr-defined]
        if game.is_over:
            break
        assert BT.bot_to_decide(game) is None or game.awaiting_roll
        deciders.append(game.prompt.player)
        session.apply(_person(game))  # type: ignore[attr-defined]
    return deciders


@pytest.mark.parametrize("bot", [stand_in, decide], ids=["stand-in", "the bot"])
def test_two_people_and_a_bot_play_on_and_the_journal_replays_the_bots_choices(
    tmp_path: Path, bot: BT.Decide
) -> None:
    config = with_bot(GameConfig.for_players(3, seed=5), 2, "learner")
    journal = Journal(tmp_path / "games.sqlite")
    session = journal.new_game(config)
    deciders = _play(session, 120, bot)
    game = session.game
    # Only people were left to decide (or to press the box for the bot's roll).
    assert set(deciders) <= {0, 1, 2}
    assert any(a.player == 2 and not isinstance(a, Roll) for a in game.history)
    history = list(game.history)
    journal.close()
    again = Journal(tmp_path / "games.sqlite")
    resumed = again.open_game(session.game_id)
    assert list(resumed.game.history) == history
    assert resumed.game.config.players[2].bot == "learner"
    assert Game.replay(config, history).to_json() == resumed.game.to_json()
    again.close()


def test_undo_takes_back_the_bots_choices_with_the_persons_tap_and_the_bot_decides_again(
    tmp_path: Path,
) -> None:
    config = with_bot(GameConfig.for_players(3, seed=5), 1)
    journal = Journal(tmp_path / "games.sqlite")
    session = journal.new_game(config)
    game = session.game
    # Setup: Red (a person) places, then the bot answers with its own placements.
    session.apply(_person(game))
    BT.play_bots(game, session.apply, stand_in)
    while BT.bot_to_decide(game) is None and game.prompt.player == 0:
        session.apply(_person(game))
        BT.play_bots(game, session.apply, stand_in)
    assert game.prompt.player == 2  # White, a person
    length = len(game.history)
    span = GC.undo_span(game)
    # The bot's placements and Red's road that brought them: one Undo.
    assert [a.player for a in span[:-1]] == [1] * (len(span) - 1) and span[-1].player == 0
    bot_moves = [a for a in reversed(span[:-1])]
    for _undo in span:
        session.undo()
    assert game.prompt.player == 0 and len(game.history) == length - len(span)
    # Red taps the same again: the deterministic bot makes the same choices.
    session.apply(span[-1])
    BT.play_bots(game, session.apply, stand_in)
    assert list(game.history[-len(bot_moves) :]) == bot_moves
    journal.close()


# ---- New game and the hint ----------------------------------------------------------------------


def test_a_seat_goes_round_a_person_and_the_three_levels_on_new_game() -> None:
    form = NewGameForm()
    form.toggle_plays(3)  # three seats: Red, Blue, White
    assert [form.next_bot(1) for _tap in range(4)] == ["learner", "player", "expert", None]
    form.next_bot(1)
    config = form.config(STARTER_BOARD)
    assert [p.bot for p in config.players] == [None, "learner", None]
    assert "bot" not in json.dumps(NewGameForm().config(STARTER_BOARD).to_json())


def test_the_expert_hint_names_its_choice_and_reason_for_the_person_deciding_only() -> None:
    game = make_game(
        config=with_bot(STARTER4, 1),
        buildings={corner(4, 0): (0, "settlement")},
        hands={0: hand_of(brick=1, lumber=1)},
        active=0,
    )
    words = said(BT.hint(game, 0, stand_in))
    assert words.startswith("The Expert would: Build a road") and words.endswith("a longer road")
    assert BT.hint(game, 2, stand_in) is None  # White does not decide now
    assert said(BT.hint(game, 0, decide)).startswith("The Expert would: ")  # the bot itself
    bot_turn = make_game(config=with_bot(STARTER4, 1), active=1)
    assert BT.hint(bot_turn, 1, stand_in) is None  # the tablet's own seat


def test_the_dice_box_names_the_bot_seat_whose_roll_it_is() -> None:
    game = make_game(config=with_bot(STARTER4, 1), active=1, prompt="roll")
    state = box_state(game)
    assert state.turn == "Blue" and state.armed


@pytest.mark.parametrize(
    ("players", "bots", "variants"),
    [
        (3, {2: "learner"}, {"easy_start": True, "quick_knights": True}),
        (5, {1: "learner", 3: "player"}, {"evil_barbarians": True}),
        (6, {0: "learner", 2: "learner", 4: "player", 5: "learner"}, {}),
    ],
    ids=["3-variants", "5-special-build", "6-four-bots"],
)
def test_any_mix_of_people_and_bots_plays_on_to_a_persons_decision(
    players: int, bots: dict[int, str], variants: dict[str, bool]
) -> None:
    config = GameConfig.for_players(players, seed=11, **variants)
    for seat, level in bots.items():
        config = with_bot(config, seat, level)
    game = Game.new(config)
    for _step in range(100):
        BT.play_bots(game, game.apply, decide)
        if game.is_over:
            break
        seat = BT.bot_to_decide(game)
        assert seat is None or game.awaiting_roll  # a person, or the dice for the bot
        game.apply(_person(game))
    assert game.turn > 2 and any(a.player in bots for a in game.history)
    if players >= 5:  # a bot seat asked while the table says who special-builds (§12)
        assert any(isinstance(a, StartSpecialBuild) and a.builder in bots for a in game.history)
    assert Game.replay(config, game.history).to_json() == game.to_json()
