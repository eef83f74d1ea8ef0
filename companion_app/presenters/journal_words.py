"""The journal's steps and games in words for the table: an undone or redone step, the
confirmation before undoing a roll, rolls made while the tablet was away, the games offered to
resume and the question before deleting one (re-exported by :mod:`info_presenter`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion_app.i18n.current import _, n_, render
from companion_app.journal import JournalStep
from companion_app.presenters.wording import EVENT_WORDS, players_words
from companion_app.rules.game import Game
from companion_app.rules.words import dice_words

if TYPE_CHECKING:  # Home lists games with these words before any dice are about
    from companion_app.device.events import DeviceRoll

# ---- undo / redo -----------------------------------------------------------------------------


def step_words(game: Game, step: JournalStep) -> str:
    """An undone or redone step in words: ``"Red's roll 3 + 4 = 7, ship"``."""
    action = step.action
    names = game.config.names
    who = names[action.player] if 0 <= action.player < len(names) else _("the bank")
    if step.roll is not None:
        return _("{player}'s roll {dice}").format(player=who, dice=render(dice_words(step.roll)))
    return _("{player}'s {action}").format(player=who, action=action.type_name.replace("_", " "))


def undo_question(game: Game, step: JournalStep) -> str:
    """The confirmation asked before undoing a roll (the dice were really thrown)."""
    return _("Undo {step}? The dice box will wait for a new roll.").format(
        step=step_words(game, step)
    )


def offline_question(game: Game, rolls: Sequence[DeviceRoll]) -> str:
    """Offered when the game waits for a roll and the dice box rolled while the tablet was
    away: use the oldest of those rolls now, or dismiss them all."""
    roll = rolls[0]
    dice = (
        f"{roll.yellow} + {roll.red} = {roll.yellow + roll.red}, {render(EVENT_WORDS[roll.event])}"
    )
    who = game.config.names[game.active]
    if len(rolls) == 1:
        return _(
            "The dice box was rolled once while the tablet was away. "
            "Use the first of those rolls ({dice}) as {player}'s roll now?"
        ).format(dice=dice, player=who)
    return n_(
        "The dice box was rolled {count} time while the tablet was away. "
        "Use the first of those rolls ({dice}) as {player}'s roll now?",
        "The dice box was rolled {count} times while the tablet was away. "
        "Use the first of those rolls ({dice}) as {player}'s roll now?",
        len(rolls),
        dice=dice,
        player=who,
    )


def resume_entries(games: Sequence[Any], limit: int) -> list[Any]:
    """The unfinished games offered to resume (most recent first, at most ``limit``). A game
    nobody made a move in is worth resuming only if it is the latest one: older empty games
    are left in the journal but not offered again."""
    latest = games[0].id if games else None
    return [g for g in games if g.action_count or g.id == latest][:limit]


def resume_words(summary: Any) -> str:
    """``"Red, Blue, White\n23 actions · 2026-11-23 20:05"``: who plays, then how far and when."""
    when = summary.updated_at[:16].replace("T", " ")
    actions = n_("{count} action", "{count} actions", summary.action_count)
    return f"{players_words(summary.players)}\n{actions}  ·  {when}"


def delete_question(summary: Any) -> str:
    return n_(
        "Delete the game of {players} ({count} action)? "
        "Its export is saved first, so it can be imported again.",
        "Delete the game of {players} ({count} actions)? "
        "Its export is saved first, so it can be imported again.",
        summary.action_count,
        players=players_words(summary.players),
    )
