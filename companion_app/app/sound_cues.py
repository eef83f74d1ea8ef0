"""Sound cues for what the table should notice without looking: a roll, a 7, the barbarian
ship advancing, an attack. Which cues a change of the game calls for is decided here without
Kivy (:func:`cues`); :class:`SoundCues` plays them with Kivy's SoundLoader, silently where there
is no audio device, and keeps the mute setting in the tablet's settings (:mod:`.settings`)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion_app.presenters.settings import read_settings, write_settings
from companion_app.rules.actions import Roll
from companion_app.rules.game import Game

SOUNDS = Path(__file__).resolve().parent / "sounds"
CUES = ("roll", "seven", "ship", "attack")


@dataclass(frozen=True, slots=True)
class CueState:
    """What the last cue check saw of a game."""

    game: int
    """``id`` of the game object (a resumed or another game is not news)."""
    actions: int
    position: int
    attacks: int


def cue_state(game: Game) -> CueState:
    return CueState(id(game), len(game.history), game.barbarian_position, game.barbarian_attacks)


def cues(before: CueState | None, game: Game) -> list[str]:
    """The cues for what happened since ``before`` (none for a game just opened or an undo)."""
    if before is None or before.game != id(game) or len(game.history) <= before.actions:
        return []
    found: list[str] = []
    for action in game.history[before.actions :]:
        if isinstance(action, Roll):
            found.append("roll")
            if action.yellow + action.red == 7:
                found.append("seven")
    if game.barbarian_attacks > before.attacks:
        found.append("attack")
    elif game.barbarian_position > before.position:
        found.append("ship")
    return list(dict.fromkeys(found))


class SoundCues:
    """Plays the cues unless muted; a cue that cannot load (no audio device) stays silent."""

    def __init__(self, settings: Path) -> None:
        self.settings = settings
        self.muted = read_settings(settings).muted
        self._sounds: dict[str, Any] = {}
        self._state: CueState | None = None
        self.played: list[str] = []
        """Every cue asked for while not muted, in order (what the table heard, if it could)."""

    def set_muted(self, muted: bool) -> None:
        self.muted = muted
        with contextlib.suppress(OSError):  # unwritable: the setting holds for this session
            write_settings(self.settings, read_settings(self.settings).with_(muted=muted))

    def follow(self, game: Game | None) -> list[str]:
        """Play the cues for what changed since the last call; returns them."""
        if game is None:
            self._state = None
            return []
        found = cues(self._state, game)
        self._state = cue_state(game)
        if not self.muted:
            for name in found:
                self.play(name)
        return found

    def play(self, name: str) -> None:
        self.played.append(name)
        sound = self._load(name)
        if sound is not None:
            try:
                sound.stop()
                sound.play()
            except Exception:  # an audio backend failing must never stop the game
                self._sounds[name] = None

    def _load(self, name: str) -> Any:
        if name not in self._sounds:
            try:
                from kivy.core.audio import SoundLoader

                sound = SoundLoader.load(str(SOUNDS / f"{name}.wav"))
                self._sounds[name] = sound if sound is not None and sound.length > 0 else None
            except Exception:
                self._sounds[name] = None
        return self._sounds[name]
