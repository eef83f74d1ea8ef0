"""The tour with a seat the tablet plays (``tour --bots``): two people and Blue, the tablet at
the Player level, seated on New game by taps on Blue's seat button.

No plan ahead here: the tablet decides as it would at a table (off the main thread, its choice
applied through the path of a tap). The people play simply (build a city, a settlement or a
road when they can, then end the turn), and the dice box's presses are chosen so the tablet
gets cards. The tour looks at the tablet's first placements, a turn of its own with several
steps (places lit on the board, zoomed where the board zooms), its answer to a person's trade
offer (the cards between them go through the bank), its discard on a 7 when it holds too many,
each "Done", and "What would the Expert do?" under a person's uncovered hand; a list of steps
longer than its room is scrolled to its last steps, as a finger would, and looked at again. Then
it stops (a short game, not to the end). Every look goes through the layout check, and with
the tablet's steps open the board beneath them too (where its places are lit).

The Player level: the cheapest whose turn builds, trades and says why (the Learner chooses at
random; the Expert costs a hundred games a decision).
"""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

from kivy.core.window import Window
from kivy.metrics import dp

from companion_app.app.companion import CompanionApp
from companion_app.app.tour.driver import ScenarioDriver, Step, _offset_into_view
from companion_app.app.tour.layout_check import collect, problems
from companion_app.app.tour.plan import Plan, plan_config
from companion_app.app.tour.tour import Tour
from companion_app.bot import LEVELS
from companion_app.i18n.current import _
from companion_app.presenters import bot_turn as BT
from companion_app.rules.actions import (
    AcceptTrade,
    Action,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    DeclineTrade,
    DiscardCard,
    EndTurn,
    EventDie,
    OfferTrade,
    Roll,
)
from companion_app.rules.cards import CARD_KINDS
from companion_app.rules.game import Game
from companion_app.rules.registry import is_turn

BOT_SEAT = 1
"""Blue's row on New game: the tablet's seat."""
BOT_LEVEL = "player"
DICE_SEED = 1
"""The dice presses' and the people's choices' seed (the same game every run)."""
GAME_SEED = 5
"""The game's seed (New game draws one at random; it deals the progress decks)."""
MAX_DECISIONS = 600
"""Presses and people's decisions before the tour gives up on what it has not seen."""
DISCARD_UNTIL_TURN = 16
"""The turn after which the tour stops without the tablet's discard (it spent its cards)."""
ROADS_A_TURN = 1
CASTLES = (EventDie.TRADE, EventDie.POLITICS, EventDie.SCIENCE)
"""The event die shows a castle: no ship, no barbarian attack in this short game."""
REQUIRED = (
    "bot_setup",
    "bot_turn",
    "bot_turn_place",
    "bot_trade_answer",
    "bot_done",
    "expert_hint",
)
"""What the tour must have looked at before it stops (the discard too when reachable)."""


class BotTour(Tour):
    def __init__(self, app: CompanionApp, out: Path, languages: tuple[str, ...] = ()) -> None:
        # Played as it comes: the plan only names the table (nothing is taken from it).
        super().__init__(app, out, Plan(plan_config(1)), languages)
        self.rng = random.Random(DICE_SEED)
        self.taps = 0
        self.bot_turns: list[tuple[int, int]] = []
        """Each confirmed list of the tablet's steps: (steps, taps until it closed)."""
        self.decisions = 0
        self.turn_builds = 0

    def tick(self, dt: float) -> bool:
        going = ScenarioDriver.tick(self, dt)  # where it stopped: in turns, not a plan's actions
        if self.error and not self.where:
            root = self.app.root
            screen = root.current if root is not None else "no screen"
            session = self.app.session
            turn = session.game.turn if session is not None else 0
            self.where = f"at turn {turn} after {self.decisions} people's decisions, on {screen}"
        return going

    def tap_at(self, x: float, y: float) -> None:
        self.taps += 1
        super().tap_at(x, y)

    def check_layout(self, shot: str) -> None:
        """Also the game screen under the tablet's steps: the board with its places lit."""
        super().check_layout(shot)
        root = self.app.root
        if self.app.bots.panel is None or root is None or root not in Window.children:
            return
        # The lit places are no touch targets while the steps are open (the steps' view takes
        # every touch until Done): their markers' drawn sizes are checked, not their reach.
        boxes = [
            box
            for box in collect(SimpleNamespace(children=[root]))
            if not box.name.startswith("board spot ")
        ]
        found = problems(boxes, Window.size, dp(1))
        self.problems.extend(f"{shot} (under the steps): {line}" for line in found)

    # ---- the run ------------------------------------------------------------------------------

    def steps(self) -> Step:
        app = self.app
        yield lambda: app.root is not None and app.dice is not None
        yield 5
        yield from self.seat_the_tablet()
        yield lambda: app.root.current == "game"
        yield 3
        yield from self.play()
        missing = [name for name in REQUIRED if name not in self.seen]
        if missing:
            raise AssertionError(f"not looked at: {', '.join(missing)}")

    def seat_the_tablet(self) -> Step:
        """New game: three seats, Blue's tapped round to the tablet at the Player level, the
        starter board, then Start on "build your table"."""
        app = self.app
        yield from self.tap_in_sight(app.root.get_screen("home").ids.new_game)
        yield 3
        new_game = app.root.get_screen("new_game")
        form = new_game.form
        for index in range(len(form.players) - 1, 2, -1):
            if form.players[index].plays:
                yield from self.tap_in_sight(new_game.rows[index].ids.plays)
                yield 2
        for _tap in range(LEVELS.index(BOT_LEVEL) + 1):
            yield from self.tap_in_sight(new_game.rows[BOT_SEAT].ids.seat)
            yield 2
        seats = [(slot.plays, slot.bot) for slot in form.players[:3]]
        if seats != [(True, None), (True, BOT_LEVEL), (True, None)] or form.player_count != 3:
            raise AssertionError(f"seats on New game: {seats}")
        yield from self.look("new_game_tablet_seat")
        yield from self.tap_in_sight(new_game.ids.board_starter)
        yield 2
        form.seed = GAME_SEED  # the progress decks' deal: the same game every run
        yield from self.tap_in_sight(new_game.ids.next)
        yield 3
        yield from self.tap_in_sight(app.root.get_screen("build_table").ids.start)

    def play(self) -> Step:
        app = self.app
        bots = app.bots
        game = self.session.game
        for _decision in range(MAX_DECISIONS):
            yield lambda: bots.panel is not None or not bots.busy
            yield 2
            if bots.panel is not None:
                yield from self.confirm(game)
                continue
            if self.finished(game):
                return
            if BT.bot_level(game, game.prompt.player) is not None and not game.awaiting_roll:
                raise AssertionError(f"the tablet did not decide: {game.prompt.kind.value}")
            self.decisions += 1
            if game.awaiting_roll:
                app.apply(self.press(game))
                continue
            if is_turn(game) and "expert_hint" not in self.seen:
                yield from self.expert_hint()
            app.apply(self.person(game))
        raise AssertionError(f"{MAX_DECISIONS} decisions, still not seen all")

    def finished(self, game: Game) -> bool:
        if game.is_over or any(name not in self.seen for name in REQUIRED):
            return game.is_over
        return "bot_discard" in self.seen or game.turn > DISCARD_UNTIL_TURN

    # ---- the tablet's steps -------------------------------------------------------------------

    def confirm(self, game: Game) -> Step:
        """The tablet's steps: looked at the first time of each kind, then one tap on Done."""
        panel = self.app.bots.panel
        steps = panel.steps.steps
        start = self.app.bots.table.start
        if start is None:
            raise AssertionError("the tablet's steps shown from no position")
        actions = game.history[len(start.history) :]
        name = "bot_setup" if game.in_setup else ""
        if any(isinstance(a, DiscardCard) and a.player == BOT_SEAT for a in actions):
            name = "bot_discard"
        elif any(
            isinstance(a, AcceptTrade | DeclineTrade) and a.player == BOT_SEAT for a in actions
        ):
            name = "bot_trade_answer"
        elif not name and panel.steps.spots and "bot_turn_place" not in self.seen:
            name = "bot_turn_place"  # a piece of the main game, its place lit (zoomed)
        elif not name and len(steps) >= 3:
            name = "bot_turn"
        if name and name not in self.seen:
            yield from self.look_once(name)
            last = panel.lines.children[0] if panel.lines.children else None
            if last is not None and _offset_into_view(last) is not None:
                yield from self.scroll_into_view(last)  # the last steps, as a finger would
                yield from self.look(f"{name}_last_steps")
        else:
            yield 3
            self.lay_out()
            yield 2
        unlit = set(panel.steps.spots) - set(self.game_screen().ids.board.spots)
        if unlit:
            raise AssertionError(f"the tablet's places are not lit on the board: {sorted(unlit)}")
        before = self.taps
        yield from self.tap_in_sight(panel.done)
        yield lambda: self.app.bots.panel is not panel
        self.bot_turns.append((len(steps), self.taps - before))
        if name.startswith("bot_turn") and "bot_done" not in self.seen:
            yield lambda: not self.app.bots.busy or self.app.bots.panel is not None
            yield from self.look_once("bot_done")

    # ---- the people ---------------------------------------------------------------------------

    def press(self, game: Game) -> Roll:
        """The dice box's press: mostly a number the tablet's places produce on; a 7 when the
        tablet holds more than it may keep (its discard), never a ship."""
        player = game.prompt.player
        event = self.rng.choice(CASTLES)
        if game.alchemist_dice is not None:
            yellow, red = game.alchemist_dice
            return Roll(player, yellow, red, event)
        bot_holds = game.card_count(BOT_SEAT) > game.discard_limit(BOT_SEAT)
        if bot_holds and player != BOT_SEAT and "bot_discard" not in self.seen:
            return Roll(player, 3, 4, event)
        numbers = [n for n in self.bot_numbers(game) if n != 7]
        if not numbers or self.rng.random() < 0.3:
            numbers = [n for n in range(2, 13) if n != 7]
        total = self.rng.choice(numbers)
        yellow = max(1, total - 6) if total > 7 else 1
        return Roll(player, yellow, total - yellow, event)

    @staticmethod
    def bot_numbers(game: Game) -> list[int]:
        hexes = game.topology.node_hexes
        return [
            token
            for node, owner in enumerate(game.node_owner)
            if owner == BOT_SEAT
            for h in hexes[node]
            if (token := game.board.tokens[h]) is not None
        ]

    def person(self, game: Game) -> Action:
        """A person's simple play: in the setup a random legal place; on their turn a trade
        offer to the tablet once, a city, a settlement or a road when they can, else End turn;
        any other decision its first option."""
        legal = game.legal_actions()
        if game.in_setup:
            return self.rng.choice(legal)
        if not is_turn(game):
            return legal[0]
        offer = self.offer(game)
        if offer is not None:
            return offer
        for kind in (BuildCity, BuildSettlement, BuildRoad):
            builds = [a for a in legal if isinstance(a, kind)]
            if builds and (kind is not BuildRoad or self.turn_builds < ROADS_A_TURN):
                self.turn_builds += 1
                return builds[0]
        self.turn_builds = 0
        return next(a for a in legal if isinstance(a, EndTurn))

    def offer(self, game: Game) -> OfferTrade | None:
        """Two of the person's cards for one the tablet holds most of (once; a generous offer
        the tablet takes, so cards go between them through the bank)."""
        if "bot_trade_answer" in self.seen or not game.may_offer_trade():
            return None
        person = game.prompt.player
        hand, theirs = game.hand(person), game.hand(BOT_SEAT)
        wanted = max(range(CARD_KINDS), key=lambda c: theirs[c])
        give = [0] * CARD_KINDS
        for card in sorted(range(CARD_KINDS), key=lambda c: -hand[c]):
            if card != wanted:
                give[card] = min(hand[card], 2 - sum(give))
        take = [0] * CARD_KINDS
        take[wanted] = 1
        if not theirs[wanted] or sum(give) < 2:
            return None
        action = OfferTrade(person, BOT_SEAT, tuple(give), tuple(take))
        return action if game.is_legal(action) else None

    def expert_hint(self) -> Step:
        """The person's hand, uncovered: "What would the Expert do?", its answer looked at, the
        hand covered again and back to the game."""
        app = self.app
        yield from self.tap_in_sight(self.game_screen().ids.toolbar.ids.hand)
        yield 3
        hand = app.root.get_screen("hand")
        yield from self.tap_in_sight(hand.ids.cover)
        yield 3
        self.lay_out()
        hint = getattr(hand, "expert_hint", None)
        if hint is None or hint.parent is None:
            raise AssertionError("no Expert's hint under the uncovered hand")
        yield from self.tap_in_sight(hint.ask_button)
        thinking = _("The Expert is thinking…")
        yield lambda: hint.answer.text not in ("", thinking)
        yield 3
        self.lay_out()
        yield 2
        if _offset_into_view(hint.answer) is not None:
            raise AssertionError("the Expert's answer came below the fold, out of sight")
        yield from self.look_once("expert_hint")
        yield from self.tap_in_sight(hand.ids.back)
        yield lambda: app.root.current == "game"
        yield 2

    def summary(self) -> str:
        """One line: how many lists of the tablet's steps, their steps and the taps each took."""
        steps = ", ".join(str(n) for n, _taps in self.bot_turns)
        taps = ", ".join(str(t) for _n, t in self.bot_turns)
        return f"tablet's turns: {len(self.bot_turns)}, steps {steps}; taps {taps}"
