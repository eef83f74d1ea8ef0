"""Gold fields (§13.5): resources of the owner's choice after production.

When a gold field's number is rolled and the robber is not on it, each adjacent settlement (a
destroyed city too) gives its owner 1 resource of their choice and each city or metropolis 2,
the same or different, never a commodity (R2). The choices come after the ordinary production,
in seat order from the roller, from what the bank still holds; a choice the bank cannot meet is
lost (R3). A player who made a gold choice has received something for the Aqueduct; one whose
only income was a lost choice has not (R4), so the Aqueduct's prompts wait for the choices
(:data:`Stage.GOLD`). A starting city next to a gold field gives 1 resource of choice (R21).
"""

from __future__ import annotations

from collections.abc import Callable

from companion_app.rules import improvements, turnflow
from companion_app.rules import operations as ops
from companion_app.rules.actions import Action, TakeGold
from companion_app.rules.cards import RESOURCES, Card, Terrain
from companion_app.rules.config import MAX_PLAYERS
from companion_app.rules.declare import ActionRule, CardPick, Options, PickedHand, PromptRule
from companion_app.rules.messages import N_, Msg, Nn_, msg
from companion_app.rules.pieces import CITY, NOBODY
from companion_app.rules.prompts import Prompt, PromptKind, Stage
from companion_app.rules.state import GameState
from companion_app.rules.words import Line, LineKind, Telling

_TAKE = [[TakeGold(p, c) for c in Card] for p in range(MAX_PLAYERS)]


def gold_hexes(game: GameState) -> tuple[int, ...]:
    """The board's gold fields (none on an island)."""
    if not game.topology.has_sea:
        return ()
    terrains = game.board.terrains
    return tuple(h for h in game.topology.land_hexes if terrains[h] is Terrain.GOLD)


def gold_owed(game: GameState, number: int) -> list[int]:
    """The choices each player's buildings next to gold fields showing ``number`` give, the
    robber's field excepted: 1 per settlement (or destroyed city), 2 per city (§13.5)."""
    owed = [0] * game.player_count
    owner, level = game.node_owner, game.node_level
    for h in game.gold_token_hexes.get(number, ()):
        if h == game.robber_hex:
            continue
        for node in game.topology.hex_nodes[h]:
            p = owner[node]
            if p != NOBODY:
                owed[p] += 2 if level[node] == CITY else 1
    return owed


def bank_has_resources(game: GameState) -> bool:
    return any(game.bank[c] for c in RESOURCES)


def queue_gold(game: GameState, number: int) -> bool:
    """The gold choices of a production roll of ``number``, in seat order from the roller
    (R3): queued with :data:`Stage.GOLD`, so the Aqueduct comes after them. False if none
    (none are owed, or the bank holds no resource: every choice is lost)."""
    if number not in game.gold_token_hexes:
        return False
    owed = gold_owed(game, number)
    if not any(owed) or not bank_has_resources(game):
        return False
    for p in game.seat_order():
        if owed[p]:
            game.pending.append(Prompt(PromptKind.GOLD, p, owed[p]))
    game.stage = Stage.GOLD
    return True


def setup_gold(game: GameState, node: int) -> int:
    """A starting city's gold fields: 1 choice each (R21); how many."""
    gold = gold_hexes(game)
    return sum(1 for h in game.topology.node_hexes[node] if h in gold)


def continue_after_gold(game: GameState) -> None:
    """The gold choices are made: the Aqueduct's players who received nothing now (R4)."""
    improvements.queue_aqueduct(game, [list(hand) for hand in game.last_production])
    turnflow.next_prompt(game)


def check_take_gold(game: GameState, a: TakeGold) -> Msg | None:
    if not a.card.is_resource:
        return msg("a gold field gives a resource, never a commodity (§13.5)")
    if not game.bank[a.card]:
        return msg("the bank has no {card} left", card=a.card.words)
    return None


def do_take_gold(game: GameState, a: TakeGold) -> None:
    ops.take_from_bank(game, a.player, a.card, 1)
    if game.last_production:  # a roll's production (not a starting city's): it counts there
        row = list(game.last_production[a.player])
        row[a.card] += 1
        production = list(game.last_production)
        production[a.player] = tuple(row)
        game.last_production = tuple(production)
    if not bank_has_resources(game):
        # The bank holds no resource: every choice still to make is lost (R3).
        waiting = game.pending[1:]
        game.pending[1:] = [q for q in waiting if q.kind is not PromptKind.GOLD]
        turnflow.pending_done(game)
        return
    turnflow.pending_step_done(game)


def gold_options(game: GameState, p: int) -> list[Action]:
    bank = game.bank
    return [_TAKE[p][c] for c in RESOURCES if bank[c]]


def take_gold_told(t: Telling, a: TakeGold) -> list[Line]:
    text = msg("{player} takes {card} (gold field)", player=t.who(a.player), card=a.card.counted(1))
    return [Line(LineKind.PRODUCTION, text)]


RULES = (
    ActionRule(
        TakeGold,
        check_take_gold,
        do_take_gold,
        (PromptKind.GOLD,),
        msg("take a resource (gold field)"),
        button=lambda g, a, names: msg("Take {card}", card=a.card.counted(1)),
        told=take_gold_told,
        sea=True,
    ),
)
OPTIONS: dict[PromptKind, Options] = {PromptKind.GOLD: gold_options}
PROMPTS = (
    PromptRule(
        PromptKind.GOLD,
        Nn_(
            "gold field: take {count} card of your choice",
            "gold field: take {count} cards of your choice",
        ),
        phone=True,
        picker=CardPick(
            PickedHand.BANK,
            Nn_(
                "{player}: take {count} card from the bank",
                "{player}: take {count} cards from the bank",
            ),
            N_("Take {cards}"),
        ),
        sea=True,
    ),
)
STAGES: dict[Stage, Callable[[GameState], None]] = {Stage.GOLD: continue_after_gold}
