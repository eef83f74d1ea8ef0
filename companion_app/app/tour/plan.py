"""A long game chosen ahead of time for the screenshot tour and the touch-driven tests: its dice
and every decision.

The rules core alone plays it (no window): a policy picks, at every prompt, a legal action,
steered towards action types and prompts not seen yet, and it also chooses the dice, which the
emulated dice box then rolls from a script. The UI scenario replays the plan by tapping the
widgets that offer each action, so the same seed gives the same game on the screen.

Run it to see a plan's coverage: ``python -m companion_app.app.tour.plan --seed N``.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field

from companion_app.rules.actions import (
    ACTION_TYPES,
    EVENT_DIE_FACES,
    AcceptTrade,
    Action,
    BankTrade,
    BuildRoad,
    BuildSettlement,
    CommitKnights,
    DeclineTrade,
    EndSpecialBuild,
    EndTurn,
    EventDie,
    MovePirate,
    NobodyBuilds,
    OfferTrade,
    PlayAlchemist,
    PlayDiplomat,
    Roll,
    StartSpecialBuild,
    StopEffect,
)
from companion_app.rules.cards import CARD_KINDS, LARGE_GAME_PLAYERS, Terrain
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.registry import RULES, SEA_PROMPTS, SEA_TYPES, is_turn
from companion_app.rules.robber import cell_corners

ALL_TYPES = frozenset(ACTION_TYPES)
ALL_PROMPTS = frozenset(k.value for k in PromptKind)
_SPECIAL_BUILD_ACTIONS = (StartSpecialBuild, NobodyBuilds, EndSpecialBuild)
LARGE_GAME_TYPES = frozenset(t.type_name for t in _SPECIAL_BUILD_ACTIONS)
"""The special build phase's actions: only a game of five or six has them (§12)."""
LARGE_GAME_PROMPTS = frozenset(k.value for t in _SPECIAL_BUILD_ACTIONS for k in RULES[t].prompts)
"""The special build phase's prompts."""
ISLAND_TYPES = ALL_TYPES - SEA_TYPES
"""What a game on an island has: everything but the sea's (ships, the pirate, gold, §13); the
planned game is an island's."""
ISLAND_PROMPTS = ALL_PROMPTS - frozenset(k.value for k in SEA_PROMPTS)
MIN_TURNS = 40
PLAN_SEED = 21
"""A seed whose game reaches every action type and prompt (``--search N`` finds others)."""
PLAN_SEEDS: dict[int, int] = {6: 7}
"""The seed of the planned game for another number of players. Six: a short game (49 turns,
367 actions) through the 30-hex board and the special build phase to a winner; the three
players' tour covers every other action."""
SCENARIO_PLAN_SEEDS: dict[tuple[str, int], int] = {("new_shores", 3): 1336, ("new_shores", 4): 1242}
"""The planned game's seed on a Seafarers map (§13), by scenario and players: games to a winner
with ships built and moved, the robber and the pirate moved, a knight chasing the pirate, a
gold field's choice and a Diplomat's own ship placed again (3 players: 83 turns, 534 actions;
4: 75 turns, 460, every sea decision but a tie's choice of a progress deck)."""
MAX_TURN_ACTIONS = 6
"""Actions a player takes in one turn before ending it (keeps the game moving)."""

VP_TARGET = 10
"""Lower than the usual 13 so the game that covers everything also ends in a few minutes."""

_TURN_WEIGHTS: dict[str, int] = {
    "build_city": 40,
    "build_settlement": 30,
    "buy_improvement": 60,
    "build_city_wall": 4,
    "build_knight": 12,
    "activate_knight": 12,
    "promote_knight": 6,
    "displace_knight": 20,
    "build_road": 8,
    "build_ship": 8,
    "bank_trade": 6,
}


@dataclass
class Plan:
    """The game the UI replays: its config, every action in order, and what it reached."""

    config: GameConfig
    actions: list[Action] = field(default_factory=list)
    types: set[str] = field(default_factory=set)
    prompts: set[str] = field(default_factory=set)
    turns: int = 0
    winner: int | None = None

    @property
    def rolls(self) -> list[Roll]:
        return [a for a in self.actions if isinstance(a, Roll)]

    def dice_script(self) -> str:
        """The emulated box's script: one ``yellow red event`` line per roll, in order."""
        return "".join(f"{r.yellow} {r.red} {r.event.value}\n" for r in self.rolls)

    @property
    def missing(self) -> tuple[frozenset[str], frozenset[str]]:
        """The action types and prompts the game did not reach, of those its players have."""
        sea = self.config.board.topology.has_sea
        types = (ALL_TYPES if sea else ISLAND_TYPES) - self.types
        prompts = (ALL_PROMPTS if sea else ISLAND_PROMPTS) - self.prompts
        if len(self.config.players) < LARGE_GAME_PLAYERS:
            types, prompts = types - LARGE_GAME_TYPES, prompts - LARGE_GAME_PROMPTS
        return types, prompts


def plan_config(seed: int, players: int = 3, scenario: str | None = None) -> GameConfig:
    """The planned game's config; with a Seafarers ``scenario`` on its map (§13)."""
    return GameConfig.for_players(
        players, seed=seed, vp_target=VP_TARGET, evil_barbarians=True, scenario=scenario
    )


class Planner:
    def __init__(self, seed: int, players: int = 3, scenario: str | None = None) -> None:
        self.rng = random.Random(seed * 7 + 3)
        self.plan = Plan(plan_config(seed, players, scenario))
        self.game = Game.new(self.plan.config)
        self.turn_actions = 0
        self.ship_odds = 0.25
        self.ship_taken_back = False
        """A Diplomat just took the player's own ship: it is placed again."""

    def run(self, max_turns: int = 200) -> Plan:
        game, plan = self.game, self.plan
        while not game.is_over and game.turn < max_turns:
            plan.prompts.add(game.prompt.kind.value)
            action = self.choose()
            game.apply(action)
            plan.actions.append(action)
            plan.types.add(action.type_name)
            if is_turn(game) and not game.rolled:
                self.turn_actions = 0
        plan.prompts.add(game.prompt.kind.value)
        plan.turns = game.turn
        plan.winner = game.winner if game.is_over else None
        return plan

    # ---- the policy -----------------------------------------------------------------------

    def unseen(self, action: Action) -> bool:
        return action.type_name not in self.plan.types

    def choose(self) -> Action:
        game = self.game
        if is_turn(game) and not game.rolled:
            return self.roll()
        legal = list(game.legal_actions())
        if is_turn(game):
            return self.diplomat_on_own_ship(self.turn(legal), legal)
        if any(isinstance(a, NobodyBuilds) for a in legal):
            return self.who_builds(legal)
        if any(isinstance(a, EndSpecialBuild) for a in legal):
            return self.special_build(legal)
        declines = [a for a in legal if isinstance(a, DeclineTrade)]
        if declines:  # a trade offer to answer
            accept = [a for a in legal if isinstance(a, AcceptTrade)]
            if accept and ("accept_trade" not in self.plan.types or self.rng.random() < 0.5):
                return accept[0]
            return declines[0]
        if any(isinstance(a, CommitKnights) for a in legal):
            return self.commit(legal)
        steered = self.pirate_to_a_knight(legal) or self.ship_placed_again(legal)
        if steered:
            return steered[0]
        fresh = [a for a in legal if self.unseen(a) and not isinstance(a, StopEffect)]
        if fresh:
            return self.rng.choice(fresh)
        # Free roads, promotions, the deserter's knight: "or stop" once stopping was seen.
        if any(isinstance(a, StopEffect) for a in legal):
            useful = [a for a in legal if not isinstance(a, StopEffect)]
            if useful and "stop_effect" in self.plan.types:
                return self.rng.choice(useful)
        return self.rng.choice(legal)

    def diplomat_on_own_ship(self, action: Action, legal: list[Action]) -> Action:
        """Until a Diplomat's ship was placed again (§13.9, R14): a Diplomat the policy plays
        removes the player's own open ship where there is one."""
        if not isinstance(action, PlayDiplomat) or not self.game.topology.has_sea:
            return action
        owner = self.game.ship_owner
        if "free_ship" not in self.plan.prompts:
            own = [a for a in legal if isinstance(a, PlayDiplomat) and owner[a.edge] == a.player]
            action = own[0] if own else action
        self.ship_taken_back = owner[action.edge] == action.player
        return action

    def who_builds(self, legal: list[Action]) -> Action:
        """The special build phase (5-6 players): now and then someone builds; else mostly
        "Nobody builds", or the next player's roll ends it."""
        starts = [a for a in legal if isinstance(a, StartSpecialBuild)]
        nobody = next(a for a in legal if isinstance(a, NobodyBuilds))
        fresh = [a for a in (*starts, nobody) if self.unseen(a)]
        if fresh:
            return fresh[0]
        roll = self.rng.random()
        if starts and roll < 0.15:
            return self.rng.choice(starts)
        return nobody if roll < 0.6 else self.roll()

    def special_build(self, legal: list[Action]) -> Action:
        """A special build: a build or two by the turn's weights, then done."""
        done = next(a for a in legal if isinstance(a, EndSpecialBuild))
        builds = [
            (a, self.weight(a)) for a in legal if a is not done and not _wasteful(self.game, a)
        ]
        if not builds or self.rng.random() < 0.5:
            return done
        actions, weights = zip(*builds, strict=True)
        chosen: Action = self.rng.choices(actions, weights=weights)[0]
        return chosen

    def commit(self, legal: list[Action]) -> Action:
        """Everyone sends all active knights, except that a later player matches the strongest
        so far while no tie was seen (the tied defenders choose a deck, §7.3)."""
        game = self.game
        level = game.knight_level
        strength: dict[int, int] = {}
        for node in game.committed:
            owner = game.knight_owner[node]
            strength[owner] = strength.get(owner, 0) + level[node]
        options = [a for a in legal if isinstance(a, CommitKnights)]
        best = max(strength.values(), default=0)
        if "choose_progress_deck" not in self.plan.prompts and best:
            tie = [a for a in options if sum(level[n] for n in a.nodes) == best]
            if tie:
                return tie[0]
        return max(options, key=lambda a: len(a.nodes))

    def roll(self) -> Action:
        game = self.game
        p = game.prompt.player
        legal = game.legal_actions()
        alchemist = [a for a in legal if isinstance(a, PlayAlchemist)]
        if alchemist and ("play_alchemist" not in self.plan.types or self.rng.random() < 0.3):
            return self.rng.choice(alchemist)
        if game.alchemist_dice is not None:
            yellow, red = game.alchemist_dice
        else:
            yellow, red = self.rng.randint(1, 6), self.rng.randint(1, 6)
            want_seven = game.turn > 6 and (
                "discard" not in self.plan.prompts
                or ("move_robber" not in self.plan.prompts and game.robber_unlocked)
            )
            if want_seven or self.rng.random() < 0.08:
                yellow, red = 3, 4
            elif yellow + red == 7:
                red = 1 + red % 6
        castles = [f for f in EVENT_DIE_FACES if f is not EventDie.SHIP]
        event = EventDie.SHIP if self.rng.random() < self.ship_odds else self.rng.choice(castles)
        if game.alchemist_dice is None and event is not EventDie.SHIP:
            red = 1 if yellow != 6 else 2
        return Roll(p, yellow, red, event)

    def turn(self, legal: list[Action]) -> Action:
        game = self.game
        p = game.active
        end = next(a for a in legal if isinstance(a, EndTurn))
        self.turn_actions += 1
        if self.turn_actions > MAX_TURN_ACTIONS:
            return end
        offer = self.offer(p)
        if offer is not None and ("offer_trade" not in self.plan.types or self.rng.random() < 0.03):
            return offer
        others = [a for a in legal if not isinstance(a, EndTurn)]
        gold = self.gold_settlements(others)
        if gold:
            return gold[0]
        fresh = [a for a in others if self.unseen(a)]
        if fresh:
            return self.rng.choice(fresh)
        plays = [a for a in others if a.type_name.startswith("play_")]
        if plays and self.rng.random() < 0.7:
            return self.rng.choice(plays)
        weighted = [(a, self.weight(a)) for a in others]
        weighted = [(a, w) for a, w in weighted if not _wasteful(game, a)]
        if not weighted or self.rng.random() < 0.15:
            return end
        actions, weights = zip(*weighted, strict=True)
        chosen: Action = self.rng.choices(actions, weights=weights)[0]
        return chosen

    def gold_settlements(self, actions: list[Action]) -> list[Action]:
        """On a sea board, until a gold field has paid: settlements next to one (§13.5)."""
        game = self.game
        if not game.topology.has_sea or "take_gold" in self.plan.types:
            return []
        gold = {h for h, t in enumerate(game.board.terrains) if t is Terrain.GOLD}
        return [
            a
            for a in actions
            if isinstance(a, BuildSettlement) and gold & set(game.topology.node_hexes[a.node])
        ]

    def pirate_to_a_knight(self, legal: list[Action]) -> list[Action]:
        """Until a knight has chased the pirate: its moves to a cell with an active knight on
        a corner, so that knight may chase it on its owner's turn (§13.7 item 8)."""
        game = self.game
        if "chase_pirate" in self.plan.types:
            return []
        return [
            a
            for a in legal
            if isinstance(a, MovePirate)
            and any(game.knight_active[n] for n in cell_corners(game.topology, a.cell))
        ]

    def ship_placed_again(self, legal: list[Action]) -> list[Action]:
        """A ship the Diplomat took from its owner: placed again, never kept off the board
        (its one decision comes next, §13.9, R14)."""
        if not self.ship_taken_back:
            return []
        self.ship_taken_back = False
        return [a for a in legal if not isinstance(a, StopEffect)]

    def weight(self, action: Action) -> int:
        """Commodities for the improvements (cards, Aqueduct, metropolis) come first."""
        if isinstance(action, BankTrade):
            if not action.take.is_resource and action.give.is_resource:
                return 30
            return 2
        return _TURN_WEIGHTS.get(action.type_name, 3)

    def offer(self, p: int) -> OfferTrade | None:
        """A one-for-one offer to the next seat of a card the player holds, if legal."""
        game = self.game
        if not game.may_offer_trade():
            return None
        held = [c for c in range(CARD_KINDS) if game.hands[p][c]]
        to = game.next_seat(p)
        wanted = [c for c in range(CARD_KINDS) if game.hands[to][c]]
        if not held or not wanted:
            return None
        give = [0] * CARD_KINDS
        take = [0] * CARD_KINDS
        give[self.rng.choice(held)] = 1
        choices = [c for c in wanted if not give[c]]
        if not choices:
            return None
        take[self.rng.choice(choices)] = 1
        action = OfferTrade(p, to, tuple(give), tuple(take))
        return action if game.is_legal(action) else None


def _wasteful(game: Game, action: Action) -> bool:
    """Bank trades into cards the player already has plenty of, roads beyond need."""
    if isinstance(action, BankTrade):
        return game.hands[action.player][action.take] >= 3
    if isinstance(action, BuildRoad):
        return len(game.roads_of[action.player]) > 10
    return False


def make_plan(
    seed: int, players: int = 3, max_turns: int = 200, scenario: str | None = None
) -> Plan:
    return Planner(seed, players, scenario).run(max_turns)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--search", type=int, default=0, help="try seeds 1..N")
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    seeds = range(1, args.search + 1) if args.search else [args.seed]
    for seed in seeds:
        try:
            plan = make_plan(seed, args.players)
        except IndexError:  # a decision without a legal answer: a rules problem to report
            print(seed, "stopped: a decision with no legal answer")
            continue
        types, prompts = plan.missing
        print(
            seed,
            f"turns={plan.turns} actions={len(plan.actions)} winner={plan.winner}",
            f"missing types={sorted(types)} prompts={sorted(prompts)}",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
