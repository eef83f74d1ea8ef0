"""Which sound cues a change of the game calls for, and the remembered mute setting (no Kivy,
no audio device: the cues are checked as decisions)."""

from __future__ import annotations

from pathlib import Path

from companion_app.app.sound_cues import (
    CUES,
    SOUNDS,
    SoundCues,
    cue_state,
    cues,
)
from companion_app.presenters.settings import (
    SETTINGS_MAX_BYTES,
    Settings,
    read_settings,
    write_settings,
)
from companion_app.rules.actions import EventDie, Roll
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64


def _to_roll(game: Game, rng: SplitMix64) -> None:
    while not (game.prompt.kind is PromptKind.ROLL and game.alchemist_dice is None):
        game.apply(choose_random_action(game, rng))


def test_a_roll_a_seven_and_the_ship() -> None:
    game = Game.new(GameConfig.for_players(3, seed=4))
    rng = SplitMix64(4)
    _to_roll(game, rng)
    before = cue_state(game)
    game.apply(Roll(game.active, 2, 3, EventDie.POLITICS))
    assert cues(before, game) == ["roll"]
    _to_roll(game, rng)
    before = cue_state(game)
    game.apply(Roll(game.active, 3, 4, EventDie.SHIP))
    assert cues(before, game) == ["roll", "seven", "ship"]


def test_an_attack_replaces_the_ship() -> None:
    game = Game.new(GameConfig.for_players(3, seed=6))
    rng = SplitMix64(6)
    for _ in range(10000):
        _to_roll(game, rng)
        if game.barbarian_position == game.config.barbarian_track_length - 1:
            break
        game.apply(Roll(game.active, 2, 3, EventDie.SHIP))
    before = cue_state(game)
    game.apply(Roll(game.active, 2, 3, EventDie.SHIP))
    assert game.barbarian_attacks == before.attacks + 1
    assert cues(before, game) == ["roll", "attack"]


def test_no_cue_for_a_game_just_opened_or_another_game_or_no_change() -> None:
    game = Game.new(GameConfig.for_players(3, seed=4))
    rng = SplitMix64(4)
    _to_roll(game, rng)
    assert cues(None, game) == []
    state = cue_state(game)
    assert cues(state, game) == []
    other = Game.new(GameConfig.for_players(3, seed=4))
    assert cues(cue_state(other), game) == []


def test_muted_cues_are_not_played_and_the_setting_is_remembered(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    game = Game.new(GameConfig.for_players(3, seed=4))
    rng = SplitMix64(4)
    _to_roll(game, rng)
    player = SoundCues(settings)
    assert player.muted is False
    player.set_muted(True)
    player.follow(game)
    game.apply(Roll(game.active, 2, 3, EventDie.POLITICS))
    assert player.follow(game) == ["roll"]
    assert player.played == []
    assert SoundCues(settings).muted is True
    SoundCues(settings).set_muted(False)
    assert read_settings(settings).muted is False


def test_muting_keeps_the_tables_language(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    write_settings(settings, Settings(language="cs"))
    SoundCues(settings).set_muted(True)
    assert read_settings(settings) == Settings(muted=True, language="cs")


def test_a_settings_file_that_is_not_ours_reads_as_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    for text in (
        "[1, 2]",
        "{not json",
        '{"muted": "yes"}',
        '{"muted": 1}',
        '{"language": "xx"}',
        '{"language": ["cs"]}',
        "\udcff",
    ):
        path.write_text(text, errors="surrogateescape")
        assert read_settings(path) == Settings()
    path.write_text('{"muted": true}' + " " * SETTINGS_MAX_BYTES)
    assert read_settings(path) == Settings()
    write_settings(path, Settings(muted=True, language="vi"))
    assert read_settings(path) == Settings(muted=True, language="vi")
    assert read_settings(tmp_path / "missing.json") == Settings()


def test_every_cue_has_a_small_wav() -> None:
    import wave

    for name in CUES:
        path = SOUNDS / f"{name}.wav"
        assert path.stat().st_size < 8000
        with wave.open(str(path)) as wav:
            assert wav.getnchannels() == 1
            assert 0.2 < wav.getnframes() / wav.getframerate() < 1.0
