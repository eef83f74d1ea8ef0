"""What the dice box should show, computed from the game in one place.

`box_state` is the one function that reads the game for the box: the barbarian track in the
box's spaces, whether a roll is due (armed), the dice an Alchemist fixed, whose turn it is and
who draws on a castle (by name, as the display shows them), and how many attacks there were (the
box plays its attack animation when that grows). The link turns a `BoxState` into the wire's
commands (`session.HostSession.want`) and sends only what differs from what the box has.

A new thing for the box to show is a field here and its line in `HostSession.want`.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion_app.device.protocol import TRACK_MAX_LEN
from companion_app.i18n.fold import fold_for_box
from companion_app.rules.game import Game

NAME_MAX = 10
"""A name on the box's display: letters and digits, this many at most."""


@dataclass(frozen=True, slots=True)
class BoxState:
    """The box's whole wanted state; equal values send nothing."""

    track: tuple[int, int]
    """The ship's space and the number of spaces, in the box's terms (`device_track`)."""
    armed: bool
    """A roll is due: the button rolls."""
    alchemist: tuple[int, int] | None
    """(yellow, red) an Alchemist chose for the coming roll: only the event die is rolled."""
    turn: str
    """Whose turn it is (a display name)."""
    draws: tuple[str, ...]
    """Who draws a progress card on this turn's castle (§9), by display name."""
    attacks: int
    """Barbarian attacks so far; one more plays the attack animation once."""
    dice_mode: str = "fair"
    """The game's dice mode (``protocol.DICE_MODES``): sent only to a box that has the modes."""
    sea: bool = False
    """A sea board (§13): the box's 7 says robber or pirate (``TRACK ... sea=1``)."""


def box_state(game: Game) -> BoxState:
    """The state the box should show for ``game``."""
    return BoxState(
        track=device_track(game.barbarian_position, game.config.barbarian_track_length),
        armed=game.awaiting_roll and not game.is_over,
        alchemist=game.alchemist_dice,
        turn=display_name(game, game.active),
        draws=tuple(display_name(game, p) for p in game.castle_draws()),
        attacks=game.barbarian_attacks,
        dice_mode=game.config.dice_mode,
        sea=game.topology.has_sea,
    )


def display_name(game: Game, seat: int) -> str:
    """A player's name as the box's display takes it: letters and digits, 10 at most, their
    marks taken off (Čeněk → Cenek, Đức → Duc), or the seat's number."""
    return fold_for_box(game.config.names[seat], NAME_MAX) or f"P{seat + 1}"


def device_track(position: int, length: int) -> tuple[int, int]:
    """The rules' barbarian track as the box's TRACK ``(pos, len)``.

    The rules count ``length`` advances until the attack (§1); the box counts spaces, the last
    one meaning "arrived". So the box gets ``length + 1`` spaces, scaled down to its 16 when a
    long track is chosen (the ship then moves in proportion).
    """
    spaces = length + 1
    if spaces <= TRACK_MAX_LEN:
        return max(0, min(position, length)), spaces
    last = TRACK_MAX_LEN - 1
    return round(max(0, min(position, length)) * last / length), TRACK_MAX_LEN
