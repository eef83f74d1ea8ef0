"""What the table can know ahead: the barbarians' next attack if it came now (§7), and who
draws a progress card on each castle and red number (§9). Public information only: the
board, the knights and the improvement levels, never a hand."""

from __future__ import annotations

from dataclasses import dataclass

from companion_app.rules.barbarians import attack_outcome
from companion_app.rules.cards import TRACKS, Track
from companion_app.rules.pieces import NOBODY
from companion_app.rules.progress import EVENT_TRACK
from companion_app.rules.progress.shared import draws_card
from companion_app.rules.state import AttackFigures, GameState

SHIP_FACES = 3
EVENT_FACES = 6
RED_NUMBERS = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True, slots=True)
class BarbarianForecast(AttackFigures):
    """The next attack as it would go if the ship arrived on the next roll (§7).

    ``defence`` is each seat's active-knight strength (under evil barbarians: every active
    knight, the most each could commit); ``defender``, ``tied`` and ``losers`` read as in
    :class:`~companion_app.rules.state.BarbarianAttack`."""

    spaces_left: int
    expected_rolls: int
    strength: int
    defence: tuple[int, ...]
    defender: int = NOBODY
    tied: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()


def quiet_rolls(game: GameState) -> int:
    """Rolls left whose event die is not used (easy start, §3): each player's first two turns."""
    if not game.config.easy_start:
        return 0
    return sum(max(0, 2 - taken) for taken in game.turns_taken)


def barbarian_forecast(game: GameState) -> BarbarianForecast:
    """The spaces left, the rolls the ship needs on average (a ship is 3 of the event die's 6
    faces, so each space takes 2 rolls), and the attack's outcome were it to come now."""
    spaces = game.config.barbarian_track_length - game.barbarian_position
    rolls = spaces * EVENT_FACES // SHIP_FACES + quiet_rolls(game)
    defence = [game.knight_strength(p) for p in range(game.player_count)]
    strength = game.barbarian_strength()
    defender, tied, losers = attack_outcome(game, strength, defence)
    return BarbarianForecast(
        spaces, rolls, strength, tuple(defence), defender, tuple(tied), tuple(losers)
    )


def castle_table(game: GameState) -> dict[Track, tuple[tuple[int, ...], ...]]:
    """Per track, per red number 1-6, the seats that would draw on that castle (§9), the active
    player first."""
    order = game.seat_order()
    return {
        track: tuple(
            tuple(p for p in order if draws_card(game.improvements[p][track.index], red))
            for red in RED_NUMBERS
        )
        for track in TRACKS
    }


def castle_draws(game: GameState) -> tuple[int, ...]:
    """The seats that draw on this turn's castle (see :meth:`~game.Game.castle_draws`)."""
    roll = game.last_roll
    if roll is None or game.awaiting_roll:
        return ()
    track = EVENT_TRACK.get(roll.event.value)
    if track is None:
        return ()
    return tuple(
        p for p in game.seat_order() if draws_card(game.improvements[p][track.index], roll.red)
    )


__all__ = ["BarbarianForecast", "barbarian_forecast", "castle_draws", "castle_table", "quiet_rolls"]
