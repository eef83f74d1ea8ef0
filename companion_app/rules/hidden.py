"""The hidden information redrawn: a game one seat cannot tell from the real one.

A seat sees its own cards, the others' card counts, the bank, the decks' sizes and everything
on the board (:mod:`views`). What it cannot see is dealt again here from a seed: the other
players' resource and commodity cards (the same counts, from the cards neither the bank nor
the seat holds), their progress cards and the decks' order (each deck keeps its size; VP cards
are never in a hand, they are revealed when drawn, §9), and the generator that picks stolen
cards. A hand the seat is being shown (a Spy's, a Master Merchant's victim) stays as it is.
What the seat learnt in the past and no longer sees is kept (:mod:`known`: the card it stole,
cards taken or given in the open, a hand a Spy or a Master Merchant showed it, the cards played
under a deck): each player is dealt the cards the seat knows they hold first, each deck keeps
the cards known under it in their places, and the rest comes from the unseen cards shuffled
as a whole, so every deal consistent with both can come out.
"""

from __future__ import annotations

from collections import Counter

from companion_app.rules import registry
from companion_app.rules.cards import CARD_KINDS, TRACKS, Hand, ProgressCard
from companion_app.rules.game import Game
from companion_app.rules.known import Bottom, Known, known_for
from companion_app.rules.rng import SplitMix64

_SALT = 0x6A09E667F3BCC909


def hidden_seats(game: Game, seat: int) -> tuple[list[int], list[int]]:
    """The seats whose resource hands and whose progress hands ``seat`` cannot see now."""
    others = [p for p in range(game.player_count) if p != seat]
    cards, progress = list(others), list(others)
    picked = registry.picked_from(game)
    if game.prompt.player == seat and picked is not None and picked[1].target:
        owner, hand = picked
        shown = progress if hand.progress else cards
        if owner in shown:
            shown.remove(owner)
    return cards, progress


def redraw_hidden(game: Game, seat: int, seed: int) -> Game:
    """A copy of ``game`` with what ``seat`` cannot see dealt again from ``seed``.

    ``view_for(seat)`` reads the same on the copy. Its history is the game's (the same public
    past, the same length); it is a game to look ahead on (``apply``, ``push`` and its
    ``undo``), not to undo past its start: that replays the real game's cards.
    """
    rng = SplitMix64(seed ^ _SALT)
    card_seats, progress_seats = hidden_seats(game, seat)
    known = known_for(game, seat)
    sample = game.copy()
    _redeal_cards(sample, card_seats, rng, known.hands)
    _redeal_progress(sample, progress_seats, rng, known)
    sample.rng = SplitMix64(rng.next64())
    return sample


def _redeal_cards(game: Game, seats: list[int], rng: SplitMix64, known: tuple[Hand, ...]) -> None:
    pool = [c for c in range(CARD_KINDS) for p in seats for _ in range(game.hands[p][c])]
    pool.sort()
    first = _dealt_first(game, seats, known, pool)
    for cards in first.values():
        for c in range(CARD_KINDS):
            for _ in range(cards[c]):
                pool.remove(c)
    rng.shuffle(pool)
    at = 0
    for p in seats:
        hand = list(first.get(p, (0,) * CARD_KINDS))
        count = sum(game.hands[p]) - sum(hand)
        for c in pool[at : at + count]:
            hand[c] += 1
        at += count
        game.hands[p][:] = hand


def _dealt_first(
    game: Game, seats: list[int], known: tuple[Hand, ...], pool: list[int]
) -> dict[int, Hand]:
    """The known cards of each seat dealt again, bounded by what the seat sees (its count, the
    unseen cards): a sound record is within these bounds, a look-ahead's may not be."""
    first: dict[int, Hand] = {}
    if not any(any(known[p]) for p in seats):
        return first
    left = Counter(pool)
    for p in seats:
        if not any(known[p]):
            continue
        room = sum(game.hands[p])
        hand = [0] * CARD_KINDS
        for c in range(CARD_KINDS):
            n = min(known[p][c], left[c], room)
            hand[c] = n
            left[c] -= n
            room -= n
        first[p] = tuple(hand)
    return first


def _redeal_progress(game: Game, seats: list[int], rng: SplitMix64, known: Known) -> None:
    first: dict[int, list[ProgressCard]] = {p: [] for p in seats}
    held: list[ProgressCard] = []
    for track in TRACKS:
        deck = game.decks[track.index]
        in_hands = [c for p in seats for c in game.progress_hands[p] if c.track is track]
        pool = sorted(deck + in_hands, key=lambda c: c.order)
        vp = [c for c in pool if c.is_vp]
        playable = [c for c in pool if not c.is_vp]
        to_hands = len(in_hands)
        under = _under(known.bottoms[track.index], len(deck), vp, playable, to_hands)
        for p in seats:
            room = len(game.progress_hands[p]) - len(first[p])
            for card in known.progress[p]:
                if card.track is track and to_hands and room and card in playable:
                    playable.remove(card)
                    first[p].append(card)
                    to_hands -= 1
                    room -= 1
        rng.shuffle(playable)
        held.extend(playable[:to_hands])
        rest = vp + playable[to_hands:]
        rng.shuffle(rest)
        above = len(rest) - sum(c is None for c in under)
        tail = iter(rest[above:])
        deck[:] = rest[:above] + [next(tail) if c is None else c for c in under]
    held.sort(key=lambda c: c.order)
    rng.shuffle(held)
    at = 0
    for p in seats:
        count = len(game.progress_hands[p]) - len(first[p])
        cards = first[p] + held[at : at + count]
        game.progress_hands[p] = sorted(cards, key=lambda c: c.order)
        at += count


def _under(
    bottom: Bottom,
    size: int,
    vp: list[ProgressCard],
    playable: list[ProgressCard],
    to_hands: int,
) -> list[ProgressCard | None]:
    """The deck's known bottom, its cards taken out of the unseen ones (``vp``, ``playable``);
    within the deck's size and leaving the hands' ``to_hands`` playable cards, a card no longer
    among the unseen ones left unknown (a look-ahead's record)."""
    if not bottom:
        return []
    under: list[ProgressCard | None] = list(bottom[len(bottom) - min(len(bottom), size) :])
    for i, card in enumerate(under):
        if card is None:
            continue
        unseen = vp if card.is_vp else playable
        if card in unseen and (card.is_vp or len(playable) > to_hands):
            unseen.remove(card)
        else:
            under[i] = None
    return under
