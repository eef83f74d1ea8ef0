"""The tablet's seats in the running app's controller (``app/bot_seats.py``), without a window:
several bot seats asked in the special build phase (5-6 players, §12), and a bot's steps
finished while another screen is shown are there on the way back to the game screen.

The app is a small stand-in (its session, ``apply`` as a tap, ``refresh``, the screen manager's
``current``); the bot a deterministic stand-in that says who it is asked for."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.properties import StringProperty

from companion_app.app.bot_seats import TableBots
from companion_app.presenters import bot_turn as BT
from companion_app.rules.actions import (
    Action,
    BuildRoad,
    EndSpecialBuild,
    EndTurn,
    EventDie,
    Roll,
    StartSpecialBuild,
)
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.messages import Msg, msg
from companion_app.rules.prompts import PromptKind
from tests.rules.builders import make_game


@dataclass(frozen=True)
class Choice:
    action: Action
    reason: Msg


class Builders:
    """A bot that builds in the special build phase only for the seats in ``build`` (and is
    done at once), says "I do not build" for the others, and records whom it was asked for."""

    def __init__(self, build: set[int]) -> None:
        self.build = build
        self.asked: list[tuple[PromptKind, int]] = []

    def __call__(self, game: Game, seat: int, level: str) -> Choice:
        self.asked.append((game.prompt.kind, seat))
        if game.prompt.kind is PromptKind.WHO_BUILDS:
            if seat in self.build:
                return Choice(StartSpecialBuild(game.prompt.player, seat), msg("I build"))
            return Choice(Roll(seat, 1, 1, EventDie.SHIP), msg("roll"))
        if game.prompt.kind is PromptKind.SPECIAL_BUILD:
            return Choice(EndSpecialBuild(seat), msg("done"))
        legal = game.legal_actions()
        road = next((a for a in legal if isinstance(a, BuildRoad)), None)
        end = next((a for a in legal if isinstance(a, EndTurn)), None)
        return Choice(road or end or legal[0], msg("a road"))


def with_bots(config: GameConfig, bots: dict[int, str]) -> GameConfig:
    players = list(config.players)
    for seat, level in bots.items():
        players[seat] = replace(players[seat], bot=level)
    return replace(config, players=tuple(players))


def special_build_phase(players: int, bots: dict[int, str]) -> Game:
    """Seat 0 (a person) ends its turn: the table says who special-builds (§12), in seat order
    from seat 1."""
    config = with_bots(GameConfig.for_players(players, seed=42), bots)
    game = make_game(config=config, active=0, prompt="turn")
    game.apply(EndTurn(0))
    assert game.prompt.kind is PromptKind.WHO_BUILDS
    assert game.special_builders_left() == tuple(range(1, players))
    return game


# ---- several bot seats in the special build phase (§12) -----------------------------------------


def test_every_bot_seat_that_may_special_build_is_asked_in_seat_order() -> None:
    # 6 players, bots at 1, 2, 3 and 5: 1 to 3 do not build; 4, a person, comes before 5.
    game = special_build_phase(6, {1: "player", 2: "learner", 3: "player", 5: "expert"})
    bot = Builders(build={5})
    BT.play_bots(game, game.apply, bot)
    who = PromptKind.WHO_BUILDS
    assert bot.asked == [(who, 1), (who, 2), (who, 3)]
    assert len(game.history) == 1 and game.special_builders_left() == (1, 2, 3, 4, 5)
    assert BT.bot_to_decide(game, passed={1, 2, 3}) is None
    # The table names seat 5 (seat 4, the person, does not build): the bot builds, is done.
    game.apply(StartSpecialBuild(1, 5))
    BT.play_bots(game, game.apply, bot)
    # Nobody is left after seat 5: the phase is over, seat 1's bot answers "roll".
    assert bot.asked[3:] == [(PromptKind.SPECIAL_BUILD, 5), (PromptKind.ROLL, 1)]
    assert game.history[-2:] == [StartSpecialBuild(1, 5), EndSpecialBuild(5)]
    assert game.special_build is None and game.awaiting_roll and game.prompt.player == 1


def test_a_bot_seat_waits_for_a_person_before_it_in_seat_order() -> None:
    # 5 players, bots at 1 and 3, both build: 1 first; 2, a person, may build before 3 (§12).
    game = special_build_phase(5, {1: "player", 3: "player"})
    bot = Builders(build={1, 3})
    BT.play_bots(game, game.apply, bot)
    starts = [a for a in game.history if isinstance(a, StartSpecialBuild)]
    assert [a.builder for a in starts] == [1]
    assert game.prompt.kind is PromptKind.WHO_BUILDS
    assert game.special_builders_left() == (2, 3, 4)
    assert BT.bot_to_decide(game) is None
    # Seat 2 builds and is done: then seat 3, the bot, is asked and builds.
    game.apply(StartSpecialBuild(1, 2))
    game.apply(EndSpecialBuild(2))
    BT.play_bots(game, game.apply, bot)
    starts = [a for a in game.history if isinstance(a, StartSpecialBuild)]
    assert [a.builder for a in starts] == [1, 2, 3]
    # Seat 4, a person, may still build: the table says whether.
    assert game.prompt.kind is PromptKind.WHO_BUILDS and game.special_builders_left() == (4,)
    assert BT.bot_to_decide(game) is None


def test_no_bot_seat_is_asked_before_the_person_who_comes_first() -> None:
    game = special_build_phase(5, {2: "learner", 4: "learner"})
    bot = Builders(build={2, 4})
    BT.play_bots(game, game.apply, bot)
    assert bot.asked == [] and len(game.history) == 1
    assert BT.bot_to_decide(game) is None


def test_when_no_bot_seat_builds_the_table_says_the_rest() -> None:
    game = special_build_phase(5, {1: "learner", 2: "learner", 4: "learner"})
    bot = Builders(build=set())
    BT.play_bots(game, game.apply, bot)
    assert [seat for _kind, seat in bot.asked] == [1, 2]
    assert game.prompt.kind is PromptKind.WHO_BUILDS and len(game.history) == 1
    assert BT.bot_to_decide(game, passed={1, 2}) is None
    assert BT.bot_to_decide(game) == 1


def test_a_persons_special_build_is_not_shown_as_a_bot_step() -> None:
    game = special_build_phase(5, {2: "learner", 4: "learner"})
    before = Game.from_json(game.to_json())
    game.apply(StartSpecialBuild(1, 3))  # the table says: seat 3, a person, builds
    assert BT.turn_steps(before, game.history[-1:], {}).steps == []


# ---- the app's controller -----------------------------------------------------------------------


class Manager(EventDispatcher):  # type: ignore[misc]
    """The screen manager as the controller reads it: which screen is shown."""

    current = StringProperty("game")

    def __init__(self) -> None:
        super().__init__()
        self.game_screen = object()

    def has_screen(self, name: str) -> bool:
        return name == "game"

    def get_screen(self, name: str) -> Any:
        return self.game_screen


class Session:
    def __init__(self, game: Game) -> None:
        self.game = game

    def apply(self, action: Action) -> None:
        self.game.apply(action)


class App(EventDispatcher):  # type: ignore[misc]
    language = StringProperty("en")

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.session = Session(game)
        self.root = Manager()
        self.message = ""
        self.bots: ShownBots | None = None

    def apply(self, action: Action) -> bool:
        self.session.apply(action)
        self.refresh()
        return True

    def refresh(self) -> None:
        assert self.bots is not None
        self.bots.follow()


class ShownBots(TableBots):
    """The controller with the panel's showing recorded (the widget needs a window)."""

    def __init__(self, app: App, decide: BT.Decide) -> None:
        super().__init__(app, decide)
        self.shown: list[BT.BotSteps] = []

    def _open_panel(self, steps: BT.BotSteps, screen: Any) -> None:
        self.panel = screen
        self.shown.append(steps)

    def _close_panel(self) -> None:
        self.panel = None


def settle(bots: TableBots, seconds: float = 10.0) -> None:
    """Let the bot's thread answer and the main thread's clock apply it, until it is done."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        Clock.tick()
        if not bots.busy:
            return
        time.sleep(0.005)
    raise AssertionError("the tablet's seats did not come to a person's decision")


def running(game: Game, decide: BT.Decide) -> tuple[App, ShownBots]:
    app = App(game)
    bots = ShownBots(app, decide)
    app.bots = bots
    return app, bots


def test_the_app_asks_every_bot_seat_that_may_special_build() -> None:
    game = special_build_phase(6, {1: "learner", 2: "player", 3: "expert", 5: "expert"})
    bot = Builders(build={3, 5})
    app, bots = running(game, bot)
    app.refresh()
    settle(bots)
    assert [seat for _kind, seat in bot.asked] == [1, 2, 3, 3]
    assert game.history[-2:] == [StartSpecialBuild(1, 3), EndSpecialBuild(3)]
    # Seat 4, a person, comes before seat 5: the table says whether it builds.
    assert game.awaiting_roll and game.special_builders_left() == (4, 5)
    # The table is shown seat 3's special build (and nothing of 1's and 2's "no").
    assert bots.shown and {s.seat for s in bots.shown[-1].steps} == {3}


def test_steps_done_while_another_screen_is_shown_are_there_on_the_way_back() -> None:
    game = special_build_phase(5, {1: "player"})
    app, bots = running(game, Builders(build={1}))
    app.root.current = "hand"  # the person looks at their cards while the bot thinks
    app.refresh()
    settle(bots)
    assert isinstance(game.history[-1], EndSpecialBuild)
    assert bots.shown == [] and bots.panel is None  # not on the game screen: nothing over it
    app.root.current = "game"  # back: the steps at once, no refresh needed
    assert len(bots.shown) == 1 and bots.panel is not None
    words = [s.seat for s in bots.shown[0].steps]
    assert words and set(words) == {1}
    # Done: nothing left to show on the next return.
    bots.done()
    app.root.current = "statistics"
    app.root.current = "game"
    assert len(bots.shown) == 1 and bots.panel is None
