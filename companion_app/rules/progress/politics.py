"""The politics deck (blue, §10): each card declared whole, and the follow-ups of the
Deserter, the Wedding and the Spy."""

from __future__ import annotations

from collections.abc import Sequence

from companion_app.rules import knights, robber, ships, turnflow
from companion_app.rules import operations as ops
from companion_app.rules.actions import (
    Action,
    GiveCard,
    PlaceDeserter,
    PlayBishop,
    PlayDeserter,
    PlayDiplomat,
    PlayIntrigue,
    PlayProgress,
    PlaySpy,
    RemoveKnight,
    StopEffect,
    TakeProgressCard,
    reused,
)
from companion_app.rules.cards import Card, ProgressCard, Track
from companion_app.rules.declare import ActionRule, CardPick, Options, PickedHand, PromptRule
from companion_app.rules.messages import N_, Msg, Nn_, msg
from companion_app.rules.pieces import KNIGHT_NAMES, KNIGHTS_PER_LEVEL, NOBODY
from companion_app.rules.progress.shared import (
    STOP_FOLLOW_UP,
    CardRule,
    Stop,
    at_spot,
    distinct,
    ok,
    on_victim,
    opponents_from_active,
    other_player_reason,
    others,
    plain_play,
    stop_now,
)
from companion_app.rules.prompts import Prompt, PromptKind
from companion_app.rules.state import GameState
from companion_app.rules.topology import EdgeKind
from companion_app.rules.words import Line, LineKind, Telling, hex_words, place_words

DECK = Track.POLITICS
WEDDING_GIFT = 2


# ---- Bishop -------------------------------------------------------------------------------------


_DESERTER = reused(PlayDeserter)
_SPY = reused(PlaySpy)


def bishop_reason(game: GameState, a: PlayBishop) -> Msg | None:
    if not game.robber_unlocked:
        return msg("the robber stays in the desert until the first barbarian attack (§8)")
    if not 0 <= a.hex < game.topology.hex_count:
        return msg(
            "hex {hex} does not exist (hexes are 0-{last})",
            hex=a.hex,
            last=game.topology.hex_count - 1,
        )
    if a.hex == game.robber_hex:
        return msg("the robber must move to another hex")
    if game.topology.hex_island[a.hex] is None:
        return msg("the robber stays on land; the sea has the pirate (§13.4)")
    return None


def do_bishop(game: GameState, a: PlayBishop) -> None:
    """The robber moves; one random card from each other player with a building there."""
    game.robber_hex = a.hex
    for q in robber.robbable(game, a.hex):
        robber.steal_random(game, q, a.player)


_BISHOP_SUMMARY = msg("Bishop: move the robber, steal from each player there")
_BISHOP = reused(PlayBishop)


def bishop_plays(game: GameState, p: int) -> list[Action]:
    if not game.robber_unlocked:
        return []
    robber_hex = game.robber_hex
    return [_BISHOP(p, h) for h in game.topology.land_hexes if h != robber_hex]


BISHOP = CardRule(
    ProgressCard.BISHOP,
    DECK,
    2,
    PlayBishop,
    candidates=bishop_plays,
    check=bishop_reason,
    plays=bishop_plays,  # every hex but the robber's passes the check once it is unlocked
    effect=do_bishop,
    summary=_BISHOP_SUMMARY,
    button=at_spot(_BISHOP_SUMMARY, "hex", "hex"),
    what=lambda t, a: msg(" on {hex}", hex=hex_words(t.game, a.hex)),
)
CONSTITUTION = CardRule(ProgressCard.CONSTITUTION, DECK, 1, None)


# ---- Deserter -----------------------------------------------------------------------------------


def deserter_reason(game: GameState, a: PlayDeserter) -> Msg | None:
    reason = other_player_reason(game, a.player, a.victim)
    if reason:
        return reason
    if not game.knights_of[a.victim]:
        return msg("player {victim} has no knight on the board", victim=a.victim)
    return None


def do_deserter(game: GameState, a: PlayDeserter) -> None:
    game.card_target = a.victim
    game.pending.append(Prompt(PromptKind.DESERTER_REMOVE, a.victim))


DESERTER = CardRule(
    ProgressCard.DESERTER,
    DECK,
    2,
    PlayDeserter,
    candidates=lambda g, p: [_DESERTER(p, v) for v in sorted(others(g, p))],
    check=deserter_reason,
    plays=lambda g, p: [_DESERTER(p, v) for v in sorted(others(g, p)) if g.knights_of[v]],
    effect=do_deserter,
    summary=msg("Deserter: an opponent removes a knight"),
    button=on_victim(ProgressCard.DESERTER),
    what=lambda t, a: msg(" on {victim}", victim=t.who(a.victim)),
)


def deserter_remove_options(game: GameState, p: int) -> list[Action]:
    return [RemoveKnight(p, n) for n in sorted(game.knights_of[p])]


def deserter_place_options(game: GameState, p: int) -> list[Action]:
    return [*(PlaceDeserter(p, n) for n in knights.knight_spots(game, p)), StopEffect(p)]


def check_remove_knight(game: GameState, a: RemoveKnight) -> Msg | None:
    if not 0 <= a.node < game.topology.node_count or game.knight_owner[a.node] != a.player:
        return msg("you have no knight on intersection {node}", node=a.node)
    return None


def deserter_level(game: GameState, p: int, level: int) -> int:
    """The level of knight the Deserter lets ``p`` place: the removed one's, else basic, else
    0 when no token is free (§10)."""
    if game.knights_at_level(p, level) < KNIGHTS_PER_LEVEL:
        return level
    if game.knights_at_level(p, 1) < KNIGHTS_PER_LEVEL:
        return 1
    return 0


def remove_knight_button(game: GameState, a: RemoveKnight, _names: Sequence[str]) -> Msg:
    """Which knight, as the victim finds it on the board (a phone has no board to tap)."""
    level = KNIGHT_NAMES[game.knight_level[a.node]]
    place = place_words(game, a.node)
    if game.knight_active[a.node]:
        return msg("Remove the {level} knight (active) {place}", level=level, place=place)
    return msg("Remove the {level} knight (inactive) {place}", level=level, place=place)


def do_remove_knight(game: GameState, a: RemoveKnight) -> None:
    owner, level, active, _flags = knights.lift_knight(game, a.node)
    ops.roads_changed_at(game, a.node, knight_of=owner)
    game.card_target = NOBODY
    place = deserter_level(game, game.active, level)
    if place and knights.knight_spots(game, game.active):
        game.deserter = (place, active)
        game.pending.insert(1, Prompt(PromptKind.DESERTER_PLACE, game.active))
    turnflow.pending_done(game)


def check_place_deserter(game: GameState, a: PlaceDeserter) -> Msg | None:
    if a.node not in knights.knight_spots(game, a.player):
        return msg(
            "the knight goes on a free intersection at one of your roads; {node} is not",
            node=a.node,
        )
    return None


def do_place_deserter(game: GameState, a: PlaceDeserter) -> None:
    assert game.deserter is not None
    level, active = game.deserter
    game.deserter = None
    knights.place_knight(game, a.player, a.node, level, active, 0)
    ops.roads_changed_at(game, a.node, knight_of=a.player)
    turnflow.pending_done(game)


def stop_deserter(game: GameState) -> None:
    """No knight placed: the removed knight's level and side are forgotten."""
    game.deserter = None
    turnflow.pending_done(game)


# ---- Diplomat, Intrigue -------------------------------------------------------------------------


def is_open_road(game: GameState, edge: int) -> bool:
    """A road with an end where its owner has no other road, no building and no knight.

    §10 Diplomat, as the catan.com FAQ rules it: an own knight closes an end like a building,
    so a road from an own settlement to an own knight is closed.
    """
    edge_owner = game.edge_owner
    owner = edge_owner[edge]
    node_owner, knight_owner = game.node_owner, game.knight_owner
    node_edges = game.topology.node_edges
    for node in game.topology.edge_nodes[edge]:
        if node_owner[node] == owner or knight_owner[node] == owner:
            continue
        for f in node_edges[node]:
            if f != edge and edge_owner[f] == owner:
                break
        else:
            return True
    return False


_NOT_OPEN = msg(
    "the Diplomat removes an open road: one end without its owner's road, building or knight"
)


def is_open_ship(game: GameState, edge: int) -> bool:
    """A ship open as §13.3 item 5 says (R13, R14); the turn, the placed-this-turn rule and the
    pirate do not keep it."""
    return edge in ships.open_ships(game, game.ship_owner[edge])


def diplomat_reason(game: GameState, a: PlayDiplomat) -> Msg | None:
    if not 0 <= a.edge < game.topology.edge_count:
        return msg(
            "edge {edge} does not exist (edges are 0-{last})",
            edge=a.edge,
            last=game.topology.edge_count - 1,
        )
    if game.topology.has_sea and game.ship_owner[a.edge] != NOBODY:
        if not is_open_ship(game, a.edge):
            return msg(
                "the Diplomat removes an open ship: one end without its owner's settlement,"
                " city, knight or other ship (§13.3, R14)"
            )
        return None
    if game.edge_owner[a.edge] == NOBODY:
        if game.topology.has_sea:
            return msg("edge {edge} has no road or ship", edge=a.edge)
        return msg("edge {edge} has no road", edge=a.edge)
    if not is_open_road(game, a.edge):
        return _NOT_OPEN
    return None


def _diplomat_plays(game: GameState, p: int) -> list[Action]:
    plays: list[Action] = [
        _DIPLOMAT(p, e)
        for e, o in enumerate(game.edge_owner)
        if o != NOBODY and is_open_road(game, e)  # diplomat_reason's one condition left
    ]
    if game.topology.has_sea:  # open ships too (R14), after the roads
        for q in range(game.player_count):
            plays.extend(_DIPLOMAT(p, e) for e in ships.open_ships(game, q))
    return plays


def _diplomat_what(game: GameState, edge: int) -> Msg:
    """What went, by the edge: only a ship lies on a sea edge; a coast edge held either."""
    if not game.topology.has_sea or game.topology.edge_kinds[edge] is EdgeKind.LAND:
        return msg(": a road goes")
    if game.topology.edge_kinds[edge] is EdgeKind.SEA:
        return msg(": a ship goes")
    return msg(": a road or a ship goes")


def _diplomat_candidates(game: GameState, p: int) -> list[Action]:
    edges = [e for e, o in enumerate(game.edge_owner) if o != NOBODY]
    if game.topology.has_sea:
        edges += [e for e, o in enumerate(game.ship_owner) if o != NOBODY]
    return [_DIPLOMAT(p, e) for e in edges]


def do_diplomat(game: GameState, a: PlayDiplomat) -> None:
    if game.topology.has_sea and game.ship_owner[a.edge] != NOBODY:
        owner = game.ship_owner[a.edge]
        ships.remove_ship(game, a.edge)
        if owner == a.player:  # it comes back as a ship, counted as placed this turn (R14)
            game.pending.append(Prompt(PromptKind.FREE_SHIP, a.player, 1))
        return
    owner = game.edge_owner[a.edge]
    ops.remove_road(game, a.edge)
    if owner == a.player:
        # On a sea board the prompt says whose it is: the road comes back as a road (R14).
        track = Track.POLITICS.value if game.topology.has_sea else ""
        game.pending.append(Prompt(PromptKind.FREE_ROAD, a.player, 1, track))


_DIPLOMAT_SUMMARY = msg("Diplomat: remove an open road")
_DIPLOMAT = reused(PlayDiplomat)
DIPLOMAT = CardRule(
    ProgressCard.DIPLOMAT,
    DECK,
    2,
    PlayDiplomat,
    candidates=_diplomat_candidates,
    check=diplomat_reason,
    plays=_diplomat_plays,
    effect=do_diplomat,
    summary=_DIPLOMAT_SUMMARY,
    button=at_spot(_DIPLOMAT_SUMMARY, "edge", "edge"),
    what=lambda t, a: _diplomat_what(t.game, a.edge),
)


def intrigue_reason(game: GameState, a: PlayIntrigue) -> Msg | None:
    p, node = a.player, a.node
    if not 0 <= node < game.topology.node_count:
        return msg("intersection {node} does not exist", node=node)
    owner = game.knight_owner[node]
    if owner in (NOBODY, p):
        return msg("Intrigue displaces an opponent's knight")
    if not knights.on_piece_end(game, p, node):
        if game.topology.has_sea:
            return msg(
                "Intrigue needs the knight on an intersection touched by one of your roads or"
                " ships (§13.9)"
            )
        return msg(
            "Intrigue needs the knight on an intersection touched by one of your roads (§10)"
        )
    return None


def do_intrigue(game: GameState, a: PlayIntrigue) -> None:
    knights.displace_knight(game, a.node)
    ops.roads_changed_at(game, a.node)


_INTRIGUE_SUMMARY = msg("Intrigue: displace a knight on your road")
_INTRIGUE = reused(PlayIntrigue)
INTRIGUE = CardRule(
    ProgressCard.INTRIGUE,
    DECK,
    2,
    PlayIntrigue,
    candidates=lambda g, p: [
        _INTRIGUE(p, n) for n in knights.piece_ends(g, p) if g.knight_owner[n] not in (NOBODY, p)
    ],
    check=intrigue_reason,
    effect=do_intrigue,
    summary=_INTRIGUE_SUMMARY,
    button=at_spot(_INTRIGUE_SUMMARY, "node", "node"),
    what=lambda t, a: msg(" {place}", place=place_words(t.game, a.node)),
)


# ---- Saboteur, Spy, Warlord, Wedding ------------------------------------------------------------


def do_saboteur(game: GameState, a: PlayProgress) -> None:
    mine = game.victory_points(a.player)
    for q in opponents_from_active(game):
        half = game.card_count(q) // 2
        if game.victory_points(q) >= mine and half:
            game.pending.append(Prompt(PromptKind.DISCARD, q, half))


SABOTEUR = CardRule(
    ProgressCard.SABOTEUR,
    DECK,
    2,
    PlayProgress,
    candidates=plain_play(ProgressCard.SABOTEUR),
    effect=do_saboteur,
)


def spy_reason(game: GameState, a: PlaySpy) -> Msg | None:
    reason = other_player_reason(game, a.player, a.victim)
    if reason:
        return reason
    if not game.progress_hands[a.victim]:
        return msg(
            "player {victim} holds no progress card the Spy can take (VP cards never)",
            victim=a.victim,
        )
    return None


def spy_plays(game: GameState, p: int) -> list[Action]:
    hands = game.progress_hands
    return [_SPY(p, v) for v in sorted(others(game, p)) if hands[v]]


def do_spy(game: GameState, a: PlaySpy) -> None:
    game.card_target = a.victim
    game.pending.append(Prompt(PromptKind.SPY, a.player))


SPY = CardRule(
    ProgressCard.SPY,
    DECK,
    3,
    PlaySpy,
    candidates=spy_plays,
    check=spy_reason,
    plays=spy_plays,  # another seat holding a progress card passes the check
    effect=do_spy,
    summary=msg("Spy: take a progress card"),
    button=on_victim(ProgressCard.SPY),
    what=lambda t, a: msg(" on {victim}", victim=t.who(a.victim)),
)


def spy_options(game: GameState, p: int) -> list[Action]:
    return [TakeProgressCard(p, c) for c in distinct(game.progress_hands[game.card_target])]


def check_take_progress(game: GameState, a: TakeProgressCard) -> Msg | None:
    if a.card not in game.progress_hands[game.card_target]:
        return msg(
            "player {card_target} holds no {card} (VP cards are never taken)",
            card_target=game.card_target,
            card=a.card.title,
        )
    return None


def do_take_progress(game: GameState, a: TakeProgressCard) -> None:
    game.progress_hands[game.card_target].remove(a.card)
    ops.add_to_progress_hand(game.progress_hands[a.player], a.card)
    game.card_target = NOBODY
    turnflow.pending_done(game)


def take_progress_told(t: Telling, a: TakeProgressCard) -> list[Line]:
    """The Spy's take: which card only for the spy and the one robbed."""
    who, victim = t.who(a.player), t.prior.card_target
    return [
        Line(
            LineKind.CARDS,
            msg("{who} takes a progress card from {victim}", who=who, victim=t.who(victim)),
            frozenset({a.player, victim}),
            msg(
                "{who} takes {card} from {victim}", who=who, card=a.card.title, victim=t.who(victim)
            ),
        )
    ]


def do_warlord(game: GameState, a: PlayProgress) -> None:
    for node in game.knights_of[a.player]:
        if not game.knight_active[node]:
            knights.activate_knight(game, node)


WARLORD = CardRule(
    ProgressCard.WARLORD,
    DECK,
    2,
    PlayProgress,
    candidates=plain_play(ProgressCard.WARLORD),
    effect=do_warlord,
)


def do_wedding(game: GameState, a: PlayProgress) -> None:
    mine = game.victory_points(a.player)
    for q in opponents_from_active(game):
        gift = min(WEDDING_GIFT, game.card_count(q))
        if game.victory_points(q) > mine and gift:
            game.pending.append(Prompt(PromptKind.WEDDING_GIVE, q, gift))


WEDDING = CardRule(
    ProgressCard.WEDDING,
    DECK,
    2,
    PlayProgress,
    candidates=plain_play(ProgressCard.WEDDING),
    effect=do_wedding,
)


def wedding_options(game: GameState, p: int) -> list[Action]:
    return [GiveCard(p, c) for c in Card if game.hands[p][c]]


def wedding_gift_given(game: GameState, a: GiveCard) -> None:
    turnflow.pending_step_done(game)


CARDS = (
    BISHOP,
    CONSTITUTION,
    DESERTER,
    DIPLOMAT,
    INTRIGUE,
    SABOTEUR,
    SPY,
    WARLORD,
    WEDDING,
)
RULES = (
    ActionRule(
        TakeProgressCard,
        check_take_progress,
        do_take_progress,
        (PromptKind.SPY,),
        msg("take a card"),
        button=lambda g, a, names: msg("Take {card}", card=a.card.title),
        told=take_progress_told,
    ),
    ActionRule(
        RemoveKnight,
        check_remove_knight,
        do_remove_knight,
        (PromptKind.DESERTER_REMOVE,),
        msg("remove a knight"),
        button=remove_knight_button,
        told=lambda t, a: [
            Line(
                LineKind.KNIGHT,
                msg(
                    "{player} removes a knight {place}",
                    player=t.who(a.player),
                    place=place_words(t.game, a.node),
                ),
            )
        ],
    ),
    ActionRule(
        PlaceDeserter,
        check_place_deserter,
        do_place_deserter,
        (PromptKind.DESERTER_PLACE,),
        msg("place the deserter's knight"),
        button=lambda g, a, names: msg("Place the deserter's knight at node {node}", node=a.node),
        told=lambda t, a: [
            Line(
                LineKind.KNIGHT,
                msg(
                    "{player} places the deserter {place}",
                    player=t.who(a.player),
                    place=place_words(t.game, a.node),
                ),
            )
        ],
    ),
)
OPTIONS: dict[PromptKind, Options] = {
    PromptKind.DESERTER_REMOVE: deserter_remove_options,
    PromptKind.DESERTER_PLACE: deserter_place_options,
    PromptKind.WEDDING_GIVE: wedding_options,
    PromptKind.SPY: spy_options,
    PromptKind.FREE_SHIP: lambda g, p: [*ships.free_ship_spots(g, p), StopEffect(p)],
}
STOPS: dict[PromptKind, Stop] = {
    PromptKind.DESERTER_PLACE: (stop_now, stop_deserter),
    PromptKind.FREE_SHIP: STOP_FOLLOW_UP,
}
GIVES = {PromptKind.WEDDING_GIVE: (ok, wedding_gift_given)}
PROMPTS = (
    PromptRule(
        PromptKind.DESERTER_REMOVE, N_("Deserter: choose the knight you remove"), phone=True
    ),
    PromptRule(PromptKind.DESERTER_PLACE, N_("Deserter: place your knight, or stop")),
    PromptRule(
        PromptKind.FREE_SHIP, N_("Diplomat: place your ship again, free, or stop"), sea=True
    ),
    PromptRule(
        PromptKind.WEDDING_GIVE,
        Nn_(
            "Wedding: give {count} card of your choice",
            "Wedding: give {count} cards of your choice",
        ),
        private=True,
        phone=True,
        picker=CardPick(
            PickedHand.OWN,
            Nn_(
                "{player}: give {count} card to {active}",
                "{player}: give {count} cards to {active}",
            ),
            N_("Give {cards}"),
            suggested=True,
        ),
        shown=N_("Your cards: {cards}"),
    ),
    PromptRule(
        PromptKind.SPY,
        N_("Spy: take one progress card"),
        private=True,  # the victim's progress cards, shown to the spy only
        phone=True,
        picker=CardPick(
            PickedHand.TARGET_PROGRESS,
            Nn_(
                "{player}: take {count} progress card from {target}'s hand",
                "{player}: take {count} progress cards from {target}'s hand",
            ),
            N_("Take {cards}"),
            count=1,
        ),
        shown=N_("{target}'s progress cards: {cards}"),
    ),
)
