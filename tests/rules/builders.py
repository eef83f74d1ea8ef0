"""Building game states for worked rule examples without playing the whole game to them."""

from __future__ import annotations

from typing import Any

from companion_app.rules.cards import CARD_KINDS, Card, Hand, ProgressCard, bank_start, hand_of
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.operations import update_longest_road
from companion_app.rules.topology import EDGE_BETWEEN, HEX_NODES

STARTER4 = GameConfig.for_players(4, seed=42)


def corner(hex_id: int, index: int) -> int:
    """Corner ``index`` (0 top, clockwise) of a hex."""
    return HEX_NODES[hex_id][index]


def e(a: int, b: int) -> int:
    """The edge between two neighbouring intersections."""
    return EDGE_BETWEEN[(a, b)]


def side(hex_id: int, index: int) -> int:
    """Side ``index`` of a hex: from corner ``index`` to corner ``index + 1``."""
    nodes = HEX_NODES[hex_id]
    return EDGE_BETWEEN[(nodes[index], nodes[(index + 1) % 6])]


def robber_beside_one_victim() -> Game:
    """Red moves the robber (§8) next to Blue's settlement on hex 4, and Blue holds one ore:
    one victim to steal from, one card to steal."""
    return make_game(
        buildings={corner(4, 0): (1, "settlement")},
        hands={1: hand_of(ore=1)},
        prompt="move_robber",
        robber_unlocked=True,
    )


def make_game(
    *,
    buildings: dict[int, tuple[int, str]] | None = None,
    roads: dict[int, int] | None = None,
    hands: dict[int, Hand] | None = None,
    active: int = 0,
    prompt: str = "turn",
    robber_hex: int | None = None,
    robber_unlocked: bool = False,
    walls: tuple[int, ...] = (),
    config: GameConfig = STARTER4,
    bank: Hand | None = None,
    knights: dict[int, tuple[int, int, bool]] | None = None,
    improvements: dict[int, tuple[int, int, int]] | None = None,
    metropolis: dict[str, int] | None = None,
    barbarian_position: int = 0,
    progress: dict[int, tuple[ProgressCard, ...]] | None = None,
    revealed: dict[int, tuple[ProgressCard, ...]] | None = None,
    deck_tops: dict[str, tuple[ProgressCard, ...]] | None = None,
    merchant: tuple[int, int] | None = None,
    defender_cards: dict[int, int] | None = None,
) -> Game:
    """A game after setup with exactly these pieces and hands, waiting for ``prompt`` of the
    active player. The bank holds the rest of the cards (or ``bank``, for shortage examples).
    ``knights`` maps intersections to (player, level, active); ``improvements`` maps players to
    (trade, politics, science) levels; ``metropolis`` maps track names to intersections.
    ``progress`` / ``revealed`` give players progress cards in hand / revealed VP cards, taken
    out of their decks; ``deck_tops`` puts cards on top of a deck (first = top) in that order;
    ``merchant`` is (hex, owner); ``defender_cards`` maps players to their Defender cards."""
    game = Game.new(config)
    state: dict[str, Any] = game.to_json()
    n = len(config.players)
    hand_lists = [[0] * CARD_KINDS for _ in range(n)]
    for p, hand in (hands or {}).items():
        hand_lists[p] = list(hand)
    names = [c.label for c in Card]
    state["hands"] = [dict(zip(names, h, strict=True)) for h in hand_lists]
    if bank is None:
        start = bank_start(n)
        bank = tuple(start[c] - sum(h[c] for h in hand_lists) for c in range(CARD_KINDS))
    state["bank"] = dict(zip(names, bank, strict=True))
    state["buildings"] = [
        {"node": node, "player": p, "kind": kind} for node, (p, kind) in (buildings or {}).items()
    ]
    state["roads"] = [{"edge": e, "player": p} for e, p in (roads or {}).items()]
    state["walls"] = list(walls)
    state["setup_step"] = 4 * n
    state["active"] = active
    state["turn"] = 8
    state["prompt"] = {"kind": prompt, "player": active}
    if robber_hex is not None:
        state["robber_hex"] = robber_hex
    state["robber_unlocked"] = robber_unlocked
    state["rolled"] = prompt != "roll"
    state["knights"] = [
        {"node": node, "player": p, "level": level, "active": active, "flags": 0}
        for node, (p, level, active) in (knights or {}).items()
    ]
    levels = [list(improvements.get(p, (0, 0, 0))) for p in range(n)] if improvements else None
    if levels:
        for i, track in enumerate(("trade", "politics", "science")):
            state["improvements"][track] = [lv[i] for lv in levels]
    for track, node in (metropolis or {}).items():
        state["metropolis"][track] = node
    state["barbarian_position"] = barbarian_position
    decks: dict[str, list[str]] = state["decks"]

    def take_out(card: ProgressCard) -> None:
        decks[card.track.value].remove(card.value)

    for p, cards in (progress or {}).items():
        for card in cards:
            take_out(card)
        state["progress_hands"][p] = [c.value for c in sorted(cards, key=lambda c: c.order)]
    for p, cards in (revealed or {}).items():
        for card in cards:
            take_out(card)
        state["revealed_vp"][p] = [c.value for c in cards]
    for track, cards in (deck_tops or {}).items():
        for card in cards:
            take_out(card)
        decks[track][:0] = [c.value for c in cards]
    for p, count in (defender_cards or {}).items():
        state["defender_cards"][p] = count
    if merchant is not None:
        state["merchant"] = {"hex": merchant[0], "player": merchant[1]}
    built = Game.from_json(state)
    update_longest_road(built, range(n))
    return built
