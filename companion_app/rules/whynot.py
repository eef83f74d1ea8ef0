"""Why not: the reason a kind of action is not possible now, in the table's words.

Each action type and each progress card is declared once in :data:`WHY_NOT` (a test holds the
table complete against the registry): when the kind of action is possible (``when``, the rule in
one sentence, public) and what may stand in its way at that moment (``blocked``). A reason names
first what everyone at the table can see (the board, the supply, card counts, whose turn it is)
and only then what a hand holds; a reason of the second sort is ``private``: it is shown only to
its player (behind their cover on the shared screen, or on their phone).

Section numbers (§) refer to the project's rules reference.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion_app.rules import knights, progress, registry, robber, ships
from companion_app.rules import operations as ops
from companion_app.rules.actions import (
    AcceptTrade,
    Action,
    ActivateKnight,
    BankTrade,
    BuildCity,
    BuildCityWall,
    BuildKnight,
    BuildRoad,
    BuildSettlement,
    BuildShip,
    BuyImprovement,
    ChasePirate,
    ChaseRobber,
    ChooseProgressDeck,
    CommitKnights,
    DeclineTrade,
    DiscardCard,
    DiscardProgressCard,
    DisplaceKnight,
    EndSpecialBuild,
    EndTurn,
    GiveCard,
    HarborExchange,
    LoseCity,
    MoveKnight,
    MovePirate,
    MoveRobber,
    MoveShip,
    NobodyBuilds,
    OfferTrade,
    PlaceDeserter,
    PlaceMetropolis,
    PromoteKnight,
    RelocateKnight,
    RemoveKnight,
    Roll,
    StartSpecialBuild,
    StealFrom,
    StopEffect,
    TakeCard,
    TakeGold,
    TakeProgressCard,
    TakeResource,
)
from companion_app.rules.cards import (
    COSTS,
    MAX_IMPROVEMENT_LEVEL,
    TRACKS,
    Build,
    Card,
    ProgressCard,
    improvement_cost,
)
from companion_app.rules.messages import N_, Msg, msg
from companion_app.rules.pieces import (
    CITIES_PER_PLAYER,
    KNIGHTS_PER_LEVEL,
    ROADS_PER_PLAYER,
    SETTLEMENT,
    SETTLEMENTS_PER_PLAYER,
    SHIPS_PER_PLAYER,
    WALLS_PER_PLAYER,
)
from companion_app.rules.prompts import PromptKind
from companion_app.rules.state import SETUP_KINDS, GameState
from companion_app.rules.whynot_words import (
    ASKED,
    CARD_NEEDS,
    PROGRESS_TITLES,
    ROBBER_LOCKED,
    SEA_ASKED,
    cards_words,
    counted_card,
)

Kind = type[Action] | ProgressCard
"""What a player asks about: a kind of action, or playing one progress card."""


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a kind of action is not possible now."""

    text: Msg
    rule: Msg | None = None
    """When the kind of action is possible, when ``text`` is about the moment."""
    private: bool = False
    """It tells what a hand holds (or that a progress card is held): only its player reads it."""


Blocked = Callable[[GameState, int], Reason | None]
"""What stands in the way at the action's own moment, public reasons first; None if nothing
more can be said than the rule."""


def nothing_more(game: GameState, p: int) -> Reason | None:
    return None


@dataclass(frozen=True, slots=True)
class WhyNot:
    """One kind of action: when it is possible and what may stand in its way then."""

    kind: Kind
    when: str
    """The rule in one sentence (a message id): when this kind of action is possible."""
    blocked: Blocked = nothing_more


def public(text: Msg) -> Reason:
    return Reason(text)


def private(text: Msg) -> Reason:
    return Reason(text, private=True)


def _held(game: GameState, p: int, build: Build) -> Msg | tuple[Msg, ...]:
    cost = COSTS[build]
    return cards_words(game.hands[p], [c for c in Card if cost[c]])


def _short(game: GameState, p: int, build: Build, reason: Reason) -> Reason | None:
    return None if game.affords(p, COSTS[build]) else reason


# ---- building (§5) -----------------------------------------------------------------------------


def road_blocked(game: GameState, p: int) -> Reason | None:
    if game.roads_left(p) == 0:
        return public(msg("All {count} of your roads are on the board.", count=ROADS_PER_PLAYER))
    if not ops.road_spots(game, p):
        return public(msg("No free edge joins your roads, settlements or cities."))
    held = _held(game, p, Build.ROAD)
    return _short(
        game,
        p,
        Build.ROAD,
        private(msg("A road needs 1 brick and 1 lumber: you have {held}.", held=held)),
    )


def settlement_blocked(game: GameState, p: int) -> Reason | None:
    if game.settlements_left(p) == 0:
        count = SETTLEMENTS_PER_PLAYER
        return public(msg("All {count} of your settlements are on the board.", count=count))
    if not ops.settlement_spots(game, p):
        return public(
            msg("No free intersection at the end of your roads is two edges from every building.")
        )
    held = _held(game, p, Build.SETTLEMENT)
    text = msg(
        "A settlement needs 1 brick, 1 lumber, 1 wool and 1 grain: you have {held}.", held=held
    )
    return _short(game, p, Build.SETTLEMENT, private(text))


def city_blocked(game: GameState, p: int) -> Reason | None:
    destroyed = game.destroyed_cities_of(p)
    if not destroyed:
        if game.cities_left(p) == 0:
            count = CITIES_PER_PLAYER
            return public(msg("All {count} of your cities are on the board.", count=count))
        if not any(game.node_level[n] == SETTLEMENT for n in game.buildings_of[p]):
            return public(msg("A city is made of one of your settlements: you have none."))
    held = _held(game, p, Build.CITY)
    text = msg("A city needs 2 grain and 3 ore: you have {held}.", held=held)
    return _short(game, p, Build.CITY, private(text))


def wall_blocked(game: GameState, p: int) -> Reason | None:
    cities = game.cities_of(p)
    if not cities:
        return public(msg("A city wall goes under one of your cities: you have none."))
    if game.walls_of(p) >= WALLS_PER_PLAYER or all(game.walls[n] for n in cities):
        return public(msg("Your cities have all the walls they may have (3 at most)."))
    held = _held(game, p, Build.CITY_WALL)
    text = msg("A city wall needs 2 brick: you have {held}.", held=held)
    return _short(game, p, Build.CITY_WALL, private(text))


# ---- ships (§13.3) ------------------------------------------------------------------------------

NO_SEA = N_("Ships sail only on a sea board (§13).")


def ship_blocked(game: GameState, p: int) -> Reason | None:
    if not game.topology.has_sea:
        return public(registry.msg_of(NO_SEA))
    if game.ships_left(p) == 0:
        return public(msg("All {count} of your ships are on the board.", count=SHIPS_PER_PLAYER))
    if not ships.ship_spots(game, p):
        return public(
            msg(
                "No free coast or sea edge joins your ships, settlements or cities away from "
                "the pirate."
            )
        )
    held = _held(game, p, Build.SHIP)
    text = msg("A ship needs 1 lumber and 1 wool: you have {held}.", held=held)
    return _short(game, p, Build.SHIP, private(text))


def ship_move_blocked(game: GameState, p: int) -> Reason | None:
    if not game.topology.has_sea:
        return public(registry.msg_of(NO_SEA))
    if not game.ships_of[p]:
        return public(msg("You have no ship on the board."))
    if game.ship_moved:
        return public(msg("A ship has moved this turn already: one move per turn (§13.3)."))
    if not ships.movable_ships(game, p):
        return public(
            msg(
                "None of your ships may move: only an open ship, not placed this turn and not "
                "next to the pirate (§13.3)."
            )
        )
    return public(msg("No free edge to take an open ship of yours to."))


# ---- knights (§6) --------------------------------------------------------------------------------

NO_KNIGHT = N_("You have no knight on the board.")
CANNOT_ACT = N_(
    "None of your knights can act now: a knight acts once a turn, when active, "
    "and not in the turn it was activated (§6)."
)


def knight_blocked(game: GameState, p: int) -> Reason | None:
    if game.knights_at_level(p, 1) >= KNIGHTS_PER_LEVEL:
        return public(msg("Both your basic knights are on the board."))
    if not knights.knight_spots(game, p):
        return public(msg("No free intersection at the end of your roads for a knight."))
    held = _held(game, p, Build.KNIGHT)
    text = msg("A knight needs 1 wool and 1 ore: you have {held}.", held=held)
    return _short(game, p, Build.KNIGHT, private(text))


def activate_blocked(game: GameState, p: int) -> Reason | None:
    own = game.knights_of[p]
    if not own:
        return public(registry.msg_of(NO_KNIGHT))
    if all(game.knight_active[n] for n in own):
        return public(msg("All your knights are active."))
    held = _held(game, p, Build.ACTIVATE_KNIGHT)
    text = msg("Activating a knight needs 1 grain: you have {held}.", held=held)
    return _short(game, p, Build.ACTIVATE_KNIGHT, private(text))


def promote_blocked(game: GameState, p: int) -> Reason | None:
    own = game.knights_of[p]
    if not own:
        return public(registry.msg_of(NO_KNIGHT))
    if all(knights.promotion_reason(game, p, n) for n in own):
        return public(
            msg(
                "None of your knights can be promoted now: once a turn each, two of each "
                "strength, and mighty only with the Fortress (§6)."
            )
        )
    held = _held(game, p, Build.PROMOTE_KNIGHT)
    text = msg("Promoting a knight needs 1 wool and 1 ore: you have {held}.", held=held)
    return _short(game, p, Build.PROMOTE_KNIGHT, private(text))


def _acting(game: GameState, p: int) -> Reason | list[int]:
    own = game.knights_of[p]
    if not own:
        return public(registry.msg_of(NO_KNIGHT))
    ready = [n for n in sorted(own) if knights.may_act(game, n)]
    return ready or public(registry.msg_of(CANNOT_ACT))


def move_blocked(game: GameState, p: int) -> Reason | None:
    ready = _acting(game, p)
    if isinstance(ready, Reason):
        return ready
    return public(msg("No free intersection along your roads for a knight to move to."))


def displace_blocked(game: GameState, p: int) -> Reason | None:
    ready = _acting(game, p)
    if isinstance(ready, Reason):
        return ready
    return public(msg("No weaker knight of an opponent stands along your roads (§6)."))


def chase_blocked(game: GameState, p: int) -> Reason | None:
    if not game.robber_unlocked:
        return public(registry.msg_of(ROBBER_LOCKED))
    ready = _acting(game, p)
    if isinstance(ready, Reason):
        return ready
    corners = game.topology.hex_nodes[game.robber_hex]
    if not any(n in corners for n in ready):
        return public(msg("None of your knights that can act stands next to the robber."))
    return None


def pirate_chase_blocked(game: GameState, p: int) -> Reason | None:
    if game.pirate_cell < 0:
        return public(msg("There is no pirate on an island board (§13.4)."))
    if not game.robber_unlocked:
        return public(msg("The pirate stays on its start until the first attack (§13.4)."))
    ready = _acting(game, p)
    if isinstance(ready, Reason):
        return ready
    corners = robber.cell_corners(game.topology, game.pirate_cell)
    if not any(n in corners for n in ready):
        return public(msg("None of your knights that can act stands next to the pirate."))
    return None


# ---- city improvements (§9) ------------------------------------------------------------------


def improvement_blocked(game: GameState, p: int) -> Reason | None:
    if not game.cities_of(p):
        return public(msg("City improvements need a city on the board (§9)."))
    levels = game.improvements[p]
    open_tracks = [t for t in TRACKS if levels[t.index] < MAX_IMPROVEMENT_LEVEL]
    if not open_tracks:
        return public(msg("All three of your improvement tracks are complete."))
    costs = tuple(
        counted_card(t.commodity, improvement_cost(t, levels[t.index] + 1)[t.commodity])
        for t in open_tracks
    )
    held = cards_words(game.hands[p], [t.commodity for t in open_tracks])
    affordable = [
        t for t in open_tracks if game.affords(p, improvement_cost(t, levels[t.index] + 1))
    ]
    if affordable:
        return private(msg("The levels you can pay need a city free to carry a metropolis (§9)."))
    return private(
        msg("The next level of each track costs {costs}: you have {held}.", costs=costs, held=held)
    )


# ---- trade (§3) ---------------------------------------------------------------------------------


def bank_trade_blocked(game: GameState, p: int) -> Reason | None:
    if game.card_count(p) == 0:
        return public(msg("You hold no cards to trade."))
    return private(
        msg(
            "A bank trade gives 4 cards of one kind, or 3 or 2 at your harbours, for 1: "
            "you have {held}.",
            held=cards_words(game.hands[p]),
        )
    )


def offer_blocked(game: GameState, p: int) -> Reason | None:
    if game.card_count(p) == 0:
        return public(msg("You hold no cards to offer."))
    return None


HARBOR_WHEN = N_("Commercial Harbor exchanges follow the card in its turn, one per opponent (§10).")


def harbor_blocked(game: GameState, p: int) -> Reason | None:
    if not progress.harbor_opponents(game):
        return public(registry.msg_of(HARBOR_WHEN))
    return private(msg("A Commercial Harbor exchange gives one of your resources: you have none."))


def accept_blocked(game: GameState, p: int) -> Reason | None:
    return private(msg("You do not hold the cards asked for."))


# ---- progress cards (§9, §10) -------------------------------------------------------------------

PLAYED_WHEN = N_("Progress cards are played on your own turn, after the roll (§9).")
ALCHEMIST_WHEN = N_("The Alchemist is played on your own turn, before the roll (§9).")
VP_CARD = N_("A victory point card is shown when drawn and never played (§9).")


CANNOT_PLAY = N_("The {card} cannot be played now.")


def card_blocked(card: ProgressCard) -> Blocked:
    need = CARD_NEEDS.get(card)
    title = PROGRESS_TITLES[card]

    def blocked(game: GameState, p: int) -> Reason | None:
        if need is not None and need.everyone_sees is not None and need.everyone_sees(game, p):
            return public(registry.msg_of(need.words(game)))
        if not game.progress_hands[p]:
            return public(msg("You hold no progress cards."))
        if card not in game.progress_hands[p]:
            return private(msg("You hold no {card}.", card=title))
        return private(
            registry.msg_of(need.words(game))
            if need is not None
            else registry.msg_of(CANNOT_PLAY, card=title)
        )

    return blocked


def plays_blocked(game: GameState, p: int) -> Reason | None:
    if not game.progress_hands[p]:
        return public(msg("You hold no progress cards."))
    return private(msg("None of your progress cards can be played now."))


# ---- the declarations ---------------------------------------------------------------------------

WHY_NOT_ACTIONS: tuple[WhyNot, ...] = (
    WhyNot(BuildRoad, N_("Roads are built on your own turn, after the roll (§5)."), road_blocked),
    WhyNot(
        BuildSettlement,
        N_("Settlements are built on your own turn, after the roll (§5)."),
        settlement_blocked,
    ),
    WhyNot(BuildCity, N_("Cities are built on your own turn, after the roll (§5)."), city_blocked),
    WhyNot(
        BuildShip, N_("Ships are built on your own turn, after the roll (§13.3)."), ship_blocked
    ),
    WhyNot(
        MoveShip,
        N_("One open ship moves on its owner's turn, after the roll, once a turn (§13.3)."),
        ship_move_blocked,
    ),
    WhyNot(
        BuildCityWall,
        N_("City walls are built on your own turn, after the roll (§5)."),
        wall_blocked,
    ),
    WhyNot(
        BuildKnight,
        N_("Knights are recruited on your own turn, after the roll (§6)."),
        knight_blocked,
    ),
    WhyNot(
        ActivateKnight,
        N_("Knights are activated on your own turn, after the roll (§6)."),
        activate_blocked,
    ),
    WhyNot(
        PromoteKnight,
        N_("Knights are promoted on your own turn, after the roll (§6)."),
        promote_blocked,
    ),
    WhyNot(
        MoveKnight, N_("A knight moves on its owner's turn, after the roll (§6)."), move_blocked
    ),
    WhyNot(
        DisplaceKnight,
        N_("A knight displaces a weaker one on its owner's turn, after the roll (§6)."),
        displace_blocked,
    ),
    WhyNot(
        ChaseRobber,
        N_("A knight chases the robber on its owner's turn, after the roll (§6)."),
        chase_blocked,
    ),
    WhyNot(
        ChasePirate,
        N_("A knight next to the pirate chases it on its owner's turn, after the roll (§13.7)."),
        pirate_chase_blocked,
    ),
    WhyNot(
        BuyImprovement,
        N_("City improvements are bought on your own turn, after the roll (§9)."),
        improvement_blocked,
    ),
    WhyNot(
        BankTrade,
        N_("Trade with the bank is on your own turn, after the roll (§3)."),
        bank_trade_blocked,
    ),
    WhyNot(
        OfferTrade,
        N_("Offers to a player are made on your own turn, after the roll (§3)."),
        offer_blocked,
    ),
    WhyNot(
        HarborExchange,
        HARBOR_WHEN,
        harbor_blocked,
    ),
    WhyNot(Roll, N_("The player on turn rolls once, at the start of the turn (§3).")),
    WhyNot(EndTurn, N_("The player on turn ends the turn after the roll (§3).")),
    WhyNot(
        StartSpecialBuild,
        N_("With 5-6 players, after each turn the others may build in seat order (§12)."),
    ),
    WhyNot(
        NobodyBuilds,
        N_("With 5-6 players, after each turn the table may say that nobody builds (§12)."),
    ),
    WhyNot(EndSpecialBuild, N_("A special build ends when its builder is done (§12).")),
    WhyNot(
        AcceptTrade, N_("An offer is answered by the player it is made to (§3)."), accept_blocked
    ),
    WhyNot(DeclineTrade, N_("An offer is answered by the player it is made to (§3).")),
    WhyNot(
        DiscardCard,
        N_("After a 7, whoever holds more cards than their limit discards half of them (§4)."),
    ),
    WhyNot(MoveRobber, N_("The robber moves after a 7, a Bishop or a knight's chase (§8).")),
    WhyNot(
        MovePirate,
        N_(
            "On a sea board the pirate moves after a 7 or a knight's chase, once the barbarians"
            " attacked (§13.4)."
        ),
    ),
    WhyNot(StealFrom, N_("A card is stolen just after the robber moved (§8).")),
    WhyNot(
        TakeGold,
        N_("A gold field gives resources of your choice when its number is rolled (§13.5)."),
    ),
    WhyNot(
        RelocateKnight,
        N_("A displaced knight is moved by its owner just after the displacement (§6)."),
    ),
    WhyNot(
        PlaceMetropolis,
        N_("A metropolis is placed when a track reaches level 4 first, or overtakes (§9)."),
    ),
    WhyNot(LoseCity, N_("A city is lost when the barbarians win an attack (§7).")),
    WhyNot(
        ChooseProgressDeck,
        N_("The Defender of Catan chooses a deck when several players tie (§7)."),
    ),
    WhyNot(CommitKnights, N_("Knights are committed when the barbarians attack (§7).")),
    WhyNot(TakeResource, N_("The Aqueduct gives a resource when a roll gives you nothing (§9).")),
    WhyNot(
        DiscardProgressCard,
        N_("A progress card is discarded when you hold more than your limit (§9)."),
    ),
    WhyNot(TakeProgressCard, N_("A progress card is taken with the Spy (§10).")),
    WhyNot(
        GiveCard, N_("Cards are given when a Wedding or a Commercial Harbor asks for them (§10).")
    ),
    WhyNot(TakeCard, N_("Cards are taken with the Master Merchant (§10).")),
    WhyNot(RemoveKnight, N_("A knight is removed when a Deserter is played against you (§10).")),
    WhyNot(PlaceDeserter, N_("The deserting knight is placed just after the Deserter (§10).")),
    WhyNot(StopEffect, N_("A card's effect is ended while it is being carried out (§10).")),
    *(WhyNot(t, PLAYED_WHEN, plays_blocked) for t in progress.PLAY_TYPES),
)
WHY_NOT_CARDS: tuple[WhyNot, ...] = tuple(
    WhyNot(
        c.card,
        VP_CARD if c.is_vp else ALCHEMIST_WHEN if c.before_roll else PLAYED_WHEN,
        card_blocked(c.card),
    )
    for c in progress.CARDS
)
WHY_NOT: dict[Kind, WhyNot] = {d.kind: d for d in (*WHY_NOT_ACTIONS, *WHY_NOT_CARDS)}
"""Every kind of action a player may ask about."""

_CARD_RULES = {c.card: c for c in progress.CARDS}
_ON_TURN = (PromptKind.ROLL, PromptKind.TURN)


def _answers(game: GameState, kind: Kind, prompt: PromptKind) -> bool:
    if isinstance(kind, ProgressCard):
        rule = _CARD_RULES[kind]
        if rule.is_vp:
            return False
        return prompt is (PromptKind.ROLL if rule.before_roll else PromptKind.TURN)
    allowed = registry.ALLOWED_QUICK_KNIGHTS if game.config.quick_knights else registry.ALLOWED
    return kind in allowed[prompt]


def _on_turn(kind: Kind) -> bool:
    if isinstance(kind, ProgressCard):
        return True
    return any(k in _ON_TURN for k in registry.RULES[kind].prompts)


def _possible(game: GameState, kind: Kind, p: int, legal: Sequence[Action]) -> bool:
    if game.prompt.player != p:
        return False
    if kind is OfferTrade:
        return game.prompt.kind is PromptKind.TURN and game.card_count(p) > 0
    if isinstance(kind, ProgressCard):
        plays = progress.PLAY_TYPES
        return any(type(a) in plays and progress.card_of(a) is kind for a in legal)
    if kind in progress.PLAY_TYPES:
        return any(type(a) in progress.PLAY_TYPES for a in legal)
    return any(type(a) is kind for a in legal)


def _first(game: GameState, kind: Kind, p: int) -> Msg:
    """What comes before the kind of action's moment, in words everyone may read."""
    names = game.config.names
    prompt = game.prompt
    if prompt.kind in SETUP_KINDS:
        return msg("The starting placements come first.")
    if game.active != p:
        return msg("It is {player}'s turn.", player=names[game.active])
    if prompt.kind is PromptKind.ROLL and not _answers(game, kind, PromptKind.ROLL):
        return msg("Roll the dice first.")
    if prompt.kind is PromptKind.TURN and _answers(game, kind, PromptKind.ROLL):
        return msg("The dice are already rolled this turn.")
    return msg("{player} has a decision to make first.", player=names[prompt.player])


def why_not(game: GameState, kind: Kind, p: int, legal: Sequence[Action]) -> Reason | None:
    """Why player ``p`` cannot take ``kind`` of action now; None if they can. ``legal`` is the
    game's legal actions now."""
    declared = WHY_NOT[kind]
    if game.prompt.kind is PromptKind.GAME_OVER:
        return public(msg("The game is over."))
    if _possible(game, kind, p, legal):
        return None
    when = registry.msg_of(declared.when)
    if isinstance(kind, ProgressCard) and _CARD_RULES[kind].is_vp:
        return public(when)
    at_its_moment = game.prompt.player == p and _answers(game, kind, game.prompt.kind)
    if not at_its_moment:
        return Reason(_first(game, kind, p), when) if _on_turn(kind) else public(when)
    reason = declared.blocked(game, p)
    # Nothing more to say at its moment: the rule, kept for the player (the hand may be why).
    return reason if reason is not None else Reason(when, private=True)


def why_not_now(game: GameState, p: int, legal: Sequence[Action]) -> list[tuple[Msg, Reason]]:
    """Each kind of action of the turn (:data:`~whynot_words.ASKED`) and each progress card
    held that ``p`` cannot take now, by name, with its reason."""
    named: list[tuple[Msg, Kind]] = list((title, kind) for kind, title in ASKED.items())
    if game.topology.has_sea:
        named += [(title, kind) for kind, title in SEA_ASKED.items()]
    named += [(PROGRESS_TITLES[c], c) for c in dict.fromkeys(game.progress_hands[p])]
    reasons = []
    for title, kind in named:
        reason = why_not(game, kind, p, legal)
        if reason is not None:
            reasons.append((title, reason))
    return reasons
