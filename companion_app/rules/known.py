"""What each seat knows for certain of the others' hands, read from the game's public history.

The redraw (:mod:`hidden`) deals the cards a seat cannot see again; this record keeps the deal
consistent with what the seat has seen in the past and no longer sees: the card it stole, the
cards a player took or gave in the open (a trade, a monopoly, a bank trade, a gold field's
card), a hand a Spy or a Master Merchant showed it, a Wedding gift or a Commercial Harbor
card it received. Per seat and per other player it is a lower bound: cards that player holds
for certain (resources and commodities as counts, progress cards as a list); per deck, the
cards put under it since (played cards, §9) while they are not drawn again.

The rules that keep it sound, per action, for a seat looking at player ``p``:

- cards ``p`` offers in a domestic trade, or the resource of a Commercial Harbor exchange
  while its answer is due (the view shows it), are cards ``p`` holds (legal only then);
- a change of ``p``'s hand the seat sees card by card (a build's price, a discard, a trade, a
  monopoly, a card the seat stole or had stolen) moves the bound by that change, never below 0;
- a change the seat sees only as a count (a theft between two others, a Wedding gift or a
  Commercial Harbor card between two others, a progress card a Spy took or put back) lowers
  every kind by the number of cards ``p`` lost: whichever they were, no kind lost more;
- cards ``p`` gained unseen (a roll's production, a progress card drawn) add nothing;
- a card put under a deck is known to every seat, one put back at the hand limit only to its
  player (the others know a card lies there); draws take the deck's top.

Nothing of this is in the state: the record is read lazily from ``Game.history`` by replaying
it once from its start on a shadow game (the cards the game started with), and kept per step
in a small cache so that the next position of the same game extends it. A history whose
actions the cards it started with do not allow (a look-ahead on a redrawn game) is known
nothing of; one they allow is read as if played on them.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from companion_app.rules import registry
from companion_app.rules.actions import (
    Action,
    DiscardProgressCard,
    GiveCard,
    HarborExchange,
    OfferTrade,
    Roll,
    TakeCard,
    TakeProgressCard,
)
from companion_app.rules.cards import EMPTY_HAND, TRACKS, Hand, ProgressCard
from companion_app.rules.errors import IllegalActionError
from companion_app.rules.events import ProgressDrawn, Steal
from companion_app.rules.game import Game

Bottom = tuple[ProgressCard | None, ...]
"""The bottom of a progress deck as a seat knows it, its last entry the deck's last card: the
cards put under it since (None: one the seat did not see)."""


class Known(NamedTuple):
    """What one seat knows for certain; nothing of its own hand."""

    hands: tuple[Hand, ...]
    """Per player, resource and commodity cards held (counts)."""
    progress: tuple[tuple[ProgressCard, ...], ...]
    """Per player, progress cards held (in the almanac's order)."""
    bottoms: tuple[Bottom, ...]
    """Per track, the cards under its deck (played ones, §9), in their order."""


Record = tuple[Known, ...]
"""What every seat knows, per seat."""

CACHED_WALKS = 4
"""Games whose record is kept (most recent first): the real game and its look-aheads."""


def nothing_known(players: int) -> Known:
    return Known((EMPTY_HAND,) * players, ((),) * players, ((),) * len(TRACKS))


def known_for(game: Game, seat: int) -> Known:
    """What ``seat`` knows for certain of the others' hands at ``game``'s position, from its
    public history (see the module's rules)."""
    with _LOCK:
        record = _record_at(game)
    return nothing_known(game.player_count) if record is None else record[seat]


def _record_at(game: Game) -> Record | None:
    history = game.history
    end = len(history)
    walk = _walk_for(game)
    while len(walk.records) <= end:
        action = history[len(walk.records) - 1]
        try:
            walk.records.append(_step(walk.shadow, action, walk.records[-1]))
        except IllegalActionError:  # a look-ahead's action the real cards do not allow
            return None
        except Exception:  # a rules bug met on a foreign history: the shadow is lost
            _WALKS.remove(walk)
            return None
        walk.actions.append(action)
    return walk.records[end]


@dataclass(slots=True)
class _Walk:
    """The history replayed on a shadow game (the cards it started with), with the record
    after each step (``records[i]``: after ``actions[:i]``)."""

    key: object
    shadow: Game
    actions: list[Action]
    records: list[Record]
    keep: object
    """The restored state the key names by identity, held so that the identity stays its own."""


_WALKS: list[_Walk] = []
_LOCK = threading.Lock()
"""The walks are shared by the threads that decide (the bot's seat, the hint)."""


def _start_key(game: Game) -> tuple[object, object]:
    """What the history starts from: a new game of the config, or a restored state (the very
    object the game and its copies share)."""
    restored = game.restored_from
    return (game.config, None if restored is None else id(restored)), restored


def _walk_for(game: Game) -> _Walk:
    key, restored = _start_key(game)
    history = game.history
    for i, walk in enumerate(_WALKS):
        if walk.key != key:
            continue
        n = min(len(walk.actions), len(history))
        if (n == len(walk.actions) or n == len(history)) and walk.actions[:n] == history[:n]:
            if i:
                _WALKS.insert(0, _WALKS.pop(i))
            return walk
    players = game.player_count
    empty = (nothing_known(players),) * players
    walk = _Walk(key, game.at_history_start(), [], [empty], restored)
    _WALKS.insert(0, walk)
    del _WALKS[CACHED_WALKS:]
    return walk


def _audience(action: Action, active: int, target: int) -> frozenset[int] | None:
    """The seats that see which cards the action moved, when not everyone does (the log's
    private details: a Commercial Harbor's card, a Wedding gift, a Master Merchant's or a
    Spy's take, a progress card put back)."""
    if isinstance(action, HarborExchange):
        return frozenset({action.player, action.to})
    if isinstance(action, GiveCard):
        return frozenset({action.player, active})
    if isinstance(action, TakeCard | TakeProgressCard):
        return frozenset({action.player, target})
    if isinstance(action, DiscardProgressCard):
        return frozenset({action.player})
    return None


@dataclass(slots=True)
class _Change:
    """What one action did to the hands, as the shadow game shows it."""

    moved: list[Hand]
    """Per player, the change of their resource and commodity cards."""
    lost_progress: list[Counter[ProgressCard] | None]
    gained_progress: list[Counter[ProgressCard] | None]
    """Per player, the progress cards lost and gained (None: none), those drawn left out of
    the gains (never seen by others)."""
    steals: list[Steal]
    audience: frozenset[int] | None
    """The seats that see which cards moved; None: every seat (but see ``production``)."""
    production: bool
    """A roll: what it paid is seen by its taker only (the view shows the others' counts)."""
    shown: _Shown | None
    touched: list[int]
    """The players whose hands changed."""
    offered: tuple[int, Hand] | None
    """A player and cards they hold, or their offer would not be legal: a domestic offer's
    cards (§3.5), a Commercial Harbor's resource while its answer is due (the view shows it)."""
    decks: list[_DeckChange | None]
    """Per track, what went on and under its deck (None: nothing); empty if no deck changed."""


@dataclass(frozen=True, slots=True)
class _DeckChange:
    size: int
    """The deck's size before."""
    drawn: int
    """Cards drawn from its top."""
    under: tuple[ProgressCard, ...] | None
    """The cards put under it, in order; None: the change cannot be told apart (nothing of
    the deck is known after it)."""


def _deck_change(before: list[ProgressCard], after: list[ProgressCard], drawn: int) -> _DeckChange:
    kept = len(before) - drawn
    if kept >= 0 and after[:kept] == before[drawn:]:
        return _DeckChange(len(before), drawn, tuple(after[kept:]))
    return _DeckChange(len(before), drawn, None)


def _step(shadow: Game, action: Action, record: Record) -> Record:
    hands_before = [h[:] for h in shadow.hands]
    progress_before = [h[:] for h in shadow.progress_hands]
    decks_before = [d[:] for d in shadow.decks]
    audience = _audience(action, shadow.active, shadow.card_target)
    shadow.apply(action)
    if hands_before == shadow.hands:
        moved = [EMPTY_HAND] * len(hands_before)
    else:
        moved = [
            EMPTY_HAND if b == a else tuple(x - y for x, y in zip(a, b, strict=True))
            for a, b in zip(shadow.hands, hands_before, strict=True)
        ]
    production = isinstance(action, Roll)
    offered: tuple[int, Hand] | None = None
    if isinstance(action, OfferTrade):
        offered = (action.player, action.give)
    elif isinstance(action, HarborExchange) and shadow.harbor_offer is not None:
        offered = (action.player, action.card.amount(1))
    change = _Change(
        moved=moved,
        lost_progress=[],
        gained_progress=[],
        steals=[],
        audience=audience,
        production=production,
        shown=_shown(shadow),
        touched=[],
        offered=offered,
        decks=[],
    )
    same_progress = progress_before == shadow.progress_hands
    for before_cards, after_cards in zip(progress_before, shadow.progress_hands, strict=True):
        if same_progress or before_cards == after_cards:
            change.lost_progress.append(None)
            change.gained_progress.append(None)
            continue
        held_before, held_after = Counter(before_cards), Counter(after_cards)
        change.lost_progress.append(held_before - held_after or None)
        change.gained_progress.append(held_after - held_before)
    drawn = [0] * len(TRACKS)
    for event in shadow.events:
        if isinstance(event, ProgressDrawn):
            drawn[event.card.track.index] += 1
            gained = change.gained_progress[event.player]
            if gained is not None:
                gained[event.card] -= 1
        elif isinstance(event, Steal):
            change.steals.append(event)
    change.gained_progress = [+g if g else None for g in change.gained_progress]
    change.touched = [
        p
        for p in range(len(moved))
        if any(moved[p]) or change.lost_progress[p] or change.gained_progress[p]
    ]
    if decks_before != shadow.decks:
        change.decks = [
            None if before == after else _deck_change(before, after, drawn[t])
            for t, (before, after) in enumerate(zip(decks_before, shadow.decks, strict=True))
        ]
    unseen_gains_only = change.production and all(min(d) >= 0 for d in moved)
    if not (
        change.steals
        or change.shown is not None
        or change.offered is not None
        or any(change.lost_progress)
        or any(change.gained_progress)
        or change.decks
        or (not unseen_gains_only and any(any(d) for d in moved))
    ):
        return record
    return tuple(_learnt(seat, known, change) for seat, known in enumerate(record))


def _learnt(seat: int, known: Known, change: _Change) -> Known:
    """What ``seat`` knows after the change (the rules of the module's docstring)."""
    hands, progress = list(known.hands), list(known.progress)
    players = len(hands)
    sees_all = change.audience is None or seat in change.audience
    bottoms = known.bottoms
    if change.decks:
        bottoms = tuple(
            _bottom_after(b, d, sees_all=sees_all) if d else b
            for b, d in zip(bottoms, change.decks, strict=True)
        )
    seen: list[Sequence[int]] = list(change.moved)
    lost_unseen = [0] * players
    for e in change.steals:
        if seat not in (e.thief, e.victim):
            victim, thief = list(seen[e.victim]), list(seen[e.thief])
            victim[e.card] += 1
            thief[e.card] -= 1
            seen[e.victim], seen[e.thief] = victim, thief
            lost_unseen[e.victim] += 1
    for p in change.touched:
        if p == seat:
            continue
        if not sees_all or change.production:
            lost_unseen[p] += sum(-d for d in seen[p] if d < 0)
            seen[p] = EMPTY_HAND
        loss = lost_unseen[p]
        if loss or (any(seen[p]) and (max(seen[p]) > 0 or hands[p] != EMPTY_HAND)):
            hands[p] = tuple(max(0, k + d - loss) for k, d in zip(hands[p], seen[p], strict=True))
        lost, gained = change.lost_progress[p], change.gained_progress[p]
        if lost or (sees_all and gained):
            progress[p] = _progress_after(progress[p], lost, gained, sees_all=sees_all)
    if change.offered is not None and change.offered[0] != seat:
        offerer, cards = change.offered
        held = hands[offerer]
        hands[offerer] = tuple(max(k, g) for k, g in zip(held, cards, strict=True))
    shown = change.shown
    if shown is not None and shown.decider == seat:
        if shown.progress is not None:
            progress[shown.owner] = shown.progress
        else:
            hands[shown.owner] = shown.hand
    return Known(tuple(hands), tuple(progress), bottoms)


def _bottom_after(bottom: Bottom, change: _DeckChange, *, sees_all: bool) -> Bottom:
    """Draws take the top; a card put under is known to the seats that saw it (a card played,
    not one put back at the hand limit, which only its player sees)."""
    if change.under is None:
        return ()
    keep = min(len(bottom), change.size - change.drawn)
    kept = bottom[len(bottom) - keep :]
    return kept + (change.under if sees_all else (None,) * len(change.under))


def _progress_after(
    known: tuple[ProgressCard, ...],
    lost: Counter[ProgressCard] | None,
    gained: Counter[ProgressCard] | None,
    *,
    sees_all: bool,
) -> tuple[ProgressCard, ...]:
    held = Counter(known)
    if sees_all:
        held -= lost or Counter()
        held += gained or Counter()
    else:
        unseen = sum(lost.values()) if lost else 0
        held = Counter({c: n - unseen for c, n in held.items() if n > unseen})
    return tuple(sorted(held.elements(), key=lambda c: c.order))


@dataclass(frozen=True, slots=True)
class _Shown:
    """A hand a Spy or a Master Merchant shows the decider while they choose."""

    decider: int
    owner: int
    hand: Hand
    progress: tuple[ProgressCard, ...] | None
    """The progress cards shown (the Spy), None for resource and commodity cards."""


def _shown(game: Game) -> _Shown | None:
    picked = registry.picked_from(game)
    if picked is None or not picked[1].target:
        return None
    owner, hand = picked
    decider = game.prompt.player
    if hand.progress:
        cards = tuple(sorted(game.progress_hands[owner], key=lambda c: c.order))
        return _Shown(decider, owner, EMPTY_HAND, cards)
    return _Shown(decider, owner, tuple(game.hands[owner]), None)
