"""The game screen's interaction state, without a window: which button of the action bar is
open and which step behind it, the page of choices, the knights picked to send, whose cards
are uncovered, the card picker's counts. The screen binds its widgets to a
:class:`GameController` and hands its taps to it; the tests drive one directly.

The state belongs to one decision. :meth:`GameController.follow` is called with the game
whenever the screen is drawn or watched: once the game has moved on, by whatever path (a tap,
a roll from the dice box, a phone's answer, an undo or redo, the tour), everything opened for
the old decision is closed and the cards are covered again.

Also here, as the rules for the whole table: a decision with one legal option and nothing
private in it is taken at once (:func:`only_choice`), and one Undo takes back what one tap did
(:func:`undo_span`): a card picker's confirmation as a whole, and a choice taken at once
together with the action that brought it, and a bot seat's choices (``bot_turn``) together
with the person's tap before them.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field

from companion_app.presenters.bot_turn import undoes_with_bots
from companion_app.presenters.card_picker import PICKED_TYPES, CardPicker, card_picker
from companion_app.presenters.choices import (
    OFFER_KEY,
    Choice,
    ChoiceStep,
    bar_step,
    commit_action,
    placement_spots,
    private_bar,
    prompt_step,
)
from companion_app.rules.actions import Action
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.registry import ALWAYS_ASKED, PICKER_PROMPTS, PRIVATE_PROMPTS

MAX_AUTOMATIC = 64
"""A bound on one-option choices taken in a row (each answers one decision; every loser of an
attack losing their only city is the longest run a game has)."""

MAX_UNDO_SPAN = 64
"""A bound on the actions one Undo takes back (a picker's confirmation is at most a hand)."""


def only_choice(game: Game) -> Action | None:
    """The decision's single legal action when nothing private is in it, to be taken at once
    (``game_log.ALWAYS_ASKED`` names the decisions always asked: the log marks the others)."""
    if game.is_over or game.prompt.kind in ALWAYS_ASKED:
        return None
    legal = game.legal_actions()
    return legal[0] if len(legal) == 1 else None


def _same_decision(game: Game, kind: PromptKind, player: int, count: int) -> bool:
    """The decision due is ``player``'s ``kind`` with ``count`` cards left to choose (a card
    decision counts down card by card; a new one starts from its full count)."""
    prompt = game.prompt
    return prompt.kind is kind and prompt.player == player and prompt.count == count


def undo_span(game: Game) -> list[Action]:
    """The actions one Undo takes back, the last one first: a choice taken at once goes with
    the action that brought it (undoing it alone would have it taken again at once), and a
    card picker's confirmation (a run of one-card actions at one decision) goes whole."""
    before = copy.deepcopy(game)
    span: list[Action] = []
    while before.history and len(span) < MAX_UNDO_SPAN:
        action = before.undo()
        span.append(action)
        if only_choice(before) == action:
            continue  # taken at once: what brought it is taken back too
        if undoes_with_bots(before):
            continue  # a bot's choice (or the press that rolled for it): so is the tap before
        if isinstance(action, PICKED_TYPES) and before.prompt.kind in PICKER_PROMPTS:
            kind, player, left = before.prompt.kind, before.prompt.player, before.prompt.count
            while before.history and len(span) < MAX_UNDO_SPAN:
                previous = before.history[-1]
                if type(previous) is not type(action) or previous.player != action.player:
                    break
                before.undo()
                if not _same_decision(before, kind, player, left + 1):
                    break  # an earlier decision of the same kind: not this confirmation
                span.append(previous)
                left += 1
        break
    return span


def redo_span(game: Game, undone: Sequence[Action]) -> int:
    """How many of the undone actions (the next one first) one Redo takes again: what one
    Undo took back, i.e. a picker's confirmation whole and the choices taken at once after it."""
    if not undone:
        return 0
    after = copy.deepcopy(game)
    first = undone[0]
    kind, player, left = after.prompt.kind, after.prompt.player, after.prompt.count
    after.apply(first)
    n = 1
    if isinstance(first, PICKED_TYPES) and kind in PICKER_PROMPTS:
        while (
            n < len(undone)
            and type(undone[n]) is type(first)
            and undone[n].player == first.player
            and _same_decision(after, kind, player, left - 1)
        ):
            after.apply(undone[n])
            n += 1
            left -= 1
    while (
        n < len(undone)
        and n < MAX_UNDO_SPAN
        and (only_choice(after) == undone[n] or undoes_with_bots(after))
    ):
        after.apply(undone[n])
        n += 1
    return n


def decision_key(game: Game) -> tuple[int, int, object]:
    """What identifies the decision now due: the same key means nothing moved."""
    return (id(game), len(game.history), game.prompt)


@dataclass(slots=True)
class GameController:
    """What the game screen has open for the decision now due."""

    bar_key: str = ""
    """The action-bar button picked (e.g. build_road), or ""."""
    steps: list[ChoiceStep] = field(default_factory=list)
    """The choices opened from the bar button or the decision, the current one last."""
    commit: set[int] = field(default_factory=set)
    """Evil barbarians: the knights tapped to send."""
    revealed: bool = False
    """The decider tapped "Show my cards" for this decision."""
    picker: CardPicker | None = None
    """The card picker, open while the decider's cards are uncovered at a card decision."""
    page: int = 0
    """The page of choices shown when they do not all fit."""
    page_key: object = None
    decision: object = None

    # ---- following the game ---------------------------------------------------------------

    def follow(self, game: Game) -> bool:
        """Keep up with ``game``: True (and everything closed, the cards covered) when it
        moved on since the last call, by whatever path."""
        key = decision_key(game)
        if key == self.decision:
            return False
        self.decision = key
        self.close()
        return True

    def close(self) -> None:
        """Back to the bar, nothing open, the cards covered."""
        self.bar_key, self.steps, self.commit = "", [], set()
        self.revealed, self.picker = False, None

    @property
    def opened(self) -> bool:
        """The decider has opened something on the tablet (a bar button, a step, their
        cards): they hold it now."""
        return bool(self.bar_key or self.steps or self.revealed)

    def still_due(self, game: Game) -> bool:
        """The decision this state was opened for is still the one due."""
        return decision_key(game) == self.decision

    # ---- what is shown ----------------------------------------------------------------------

    def covered(self, game: Game) -> bool:
        """The choices wait behind "Show my cards": a hidden-card decision, a card picker, or
        the progress cards, until the decider uncovers them."""
        private = game.prompt.kind in PRIVATE_PROMPTS or private_bar(self.bar_key)
        return private and not self.revealed

    def uncovered(self, game: Game) -> bool:
        """Private choices shown by buttons after "Show my cards" (a Commercial Harbor offer,
        the progress cards): they can be covered again without choosing."""
        private = game.prompt.kind in PRIVATE_PROMPTS or private_bar(self.bar_key)
        return private and self.revealed and not self.picking(game)

    def picking(self, game: Game) -> bool:
        """A "choose several cards" decision: answered in the picker, never by buttons."""
        return game.prompt.kind in PICKER_PROMPTS

    def picking_in_the_open(self, game: Game) -> bool:
        """A picker with nothing hidden (a gold field's choice from the bank, §13.5): opened
        by a tap, but not behind "Show my cards"."""
        return self.picking(game) and game.prompt.kind not in PRIVATE_PROMPTS

    def current_step(self, game: Game) -> ChoiceStep | None:
        if self.steps:
            return self.steps[-1]
        return prompt_step(game)

    def page_for(self, key: object, pages: int) -> int:
        """The page to show of ``pages``; a new set of choices starts at the first."""
        if key != self.page_key:
            self.page_key, self.page = key, 0
        self.page %= max(1, pages)
        return self.page

    # ---- taps -------------------------------------------------------------------------------

    def pick_bar(self, game: Game, key: str) -> bool:
        """A tap on an action-bar button: open its choices, or close them again. True for
        "Offer a player", whose choices are the trade dialog's."""
        self.revealed, self.picker = False, None
        if key in (self.bar_key, OFFER_KEY):
            self.bar_key, self.steps = "", []
            return key == OFFER_KEY
        self.bar_key, self.steps = key, [bar_step(game, key)]
        return False

    def back(self) -> None:
        if len(self.steps) > 1:
            self.steps.pop()
        else:
            self.bar_key, self.steps = "", []

    def choose(self, game: Game, choice: Choice) -> Action | None:
        """A button or a spot: its action to apply, or None when it opened a further step."""
        if choice.action is not None:
            self.bar_key, self.steps = "", []
            return choice.action
        if choice.then is not None:
            if not self.steps:
                step = self.current_step(game)
                self.steps = [step] if step is not None else []
            self.steps.append(choice.then)
        return None

    def retell(self, game: Game) -> None:
        """The open choices again in the table's language (after a switch): the same path of
        choices, each step built anew; where a step cannot be matched, its parent shows."""
        if not self.steps:
            return
        first = bar_step(game, self.bar_key) if self.bar_key else prompt_step(game)
        if first is None:
            self._retell_placement(game)
            return
        steps = [first]
        for old, following in zip(self.steps, self.steps[1:], strict=False):
            index = next((i for i, c in enumerate(old.choices) if c.then is following), None)
            choices = steps[-1].choices
            then = choices[index].then if index is not None and index < len(choices) else None
            if then is None:
                break
            steps.append(then)
        self.steps = steps

    def _retell_placement(self, game: Game) -> None:
        """The setup's one open step (a coast edge's road or ship, §13.3) built anew for the
        same place."""
        if not game.in_setup:
            return
        spot = next((c.spot for c in self.steps[-1].choices if c.spot is not None), None)
        target = placement_spots(game, game.legal_actions()).get(spot) if spot else None
        if isinstance(target, Choice) and target.then is not None:
            self.steps = [target.then]

    def next_page(self) -> None:
        self.page += 1

    def reveal(self, game: Game) -> None:
        """ "Show my cards": the decider's cards uncover; a card decision opens the picker (in
        the open, "Open the card picker" does the same)."""
        self.follow(game)
        self.revealed = True
        self.picker = card_picker(game) if self.picking(game) else None

    def cover(self) -> None:
        """The cards are hidden again (the picker's Cover; in the open its Close)."""
        self.revealed, self.picker = False, None

    def add(self, row: int) -> None:
        if self.picker is not None:
            self.picker.add(row)

    def remove(self, row: int) -> None:
        if self.picker is not None:
            self.picker.remove(row)

    def confirm(self, game: Game) -> list[Action]:
        """The picker's Confirm: its one-card actions to apply in order (none unless the
        count is reached and the decision is still due); the cards are covered again."""
        picker = self.picker
        if picker is None or not picker.ready or not self.still_due(game):
            return []
        actions = picker.actions()
        self.close()
        return actions

    def toggle_commit(self, node: int) -> None:
        self.commit ^= {node}

    def send_knights(self, game: Game) -> Action | None:
        return commit_action(game, self.commit)
