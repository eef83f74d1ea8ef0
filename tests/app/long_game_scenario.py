"""A long game played by touch in the real app, started by ``test_long_game_ui.py``.

The game is planned ahead by the rules core alone (``companion_app.app.tour.plan``: its dice
and every decision, steered so that every action type and every prompt comes up, then on to a
winner). The emulated dice box rolls the plan's dice from a script, and every other action is
made by tapping the widget that offers it: an action-bar button, then the choice buttons or the
highlighted spots on the board, the prompt's "Show my cards", the trade panel's counters. Before
each action the screen is compared with the rules core's state; screenshots are saved the first
time each prompt and each action-bar button is seen.

Usage: python long_game_scenario.py --journal DB --artifacts DIR --result JSON [--seed N]
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import sys
import tempfile
import traceback
from collections import Counter
from collections.abc import Generator
from pathlib import Path
from typing import Any

from scenario_driver import Step  # first: it configures Kivy's window before Kivy loads
from ui_scenario import Scenario

from companion_app.app.companion import CompanionApp, save_screenshot
from companion_app.app.tour.plan import PLAN_SEED, make_plan
from companion_app.device.discovery import DiceSource
from companion_app.i18n import render
from companion_app.presenters import board_picture as B
from companion_app.presenters import choices as C
from companion_app.presenters import dice_controller
from companion_app.presenters import wording as W
from companion_app.presenters.choices import HARBOR_KEY
from companion_app.presenters.dice_controller import DiceController
from companion_app.rules.actions import Action, CommitKnights, EndTurn, OfferTrade, Roll
from companion_app.rules.game import Game
from companion_app.rules.progress import harbor_opponents
from companion_app.rules.prompts import PromptKind
from companion_app.rules.registry import PICKER_PROMPTS


class LongGame(Scenario):
    draws_every_frame = False  # only the screenshots: the checks read the widgets

    def __init__(self, app: CompanionApp, artifacts: Path, plan: Any) -> None:
        super().__init__(app, artifacts)
        self.plan = plan
        self.seen_prompts: set[str] = set()
        self.seen_bar: set[str] = set()
        self.performed = 0
        self.checked = 0
        self.paged = 0
        self.announced: list[str] = []
        self.automatic = 0
        self.trace: list[tuple[int, int, str]] = []
        self.taken_at_once: set[str] = set()
        """The decisions the app took at once (their only option)."""
        self.taken_at_once_at: list[int] = []
        self.picked = 0
        self.taps = 0
        self.turn_ends: list[int] = []
        """The taps made so far at each End turn (taps per turn are the differences)."""

    def tap_at(self, x: float, y: float) -> None:
        self.taps += 1
        super().tap_at(x, y)

    def tick(self, dt: float) -> bool:
        going = super().tick(dt)
        if self.error and "long_error.png" not in self.screens:
            screen = self.game_screen()
            step = screen.step
            self.error += (
                f"\nstep: {step.title if step else None}; bar: {screen.controller.bar_key}"
            )
            for b in screen.ids.actions.children:
                self.error += f"\n  {getattr(b, 'text', '')!r} at {b.to_window(*b.center)}"
            scroll = screen.ids.actions.parent
            self.error += f"\nscroll at {scroll.to_window(*scroll.pos)} size {scroll.size}"
            self.draw_now()
            save_screenshot(self.artifacts / "long_error.png")
            self.screens.append("long_error.png")
        return going

    def check(self, name: str, shown: object, expected: object) -> None:
        # Only failures are kept in full: a long game makes tens of thousands of checks.
        self.checked += 1
        if shown != expected:
            super().check(name, shown, expected)

    def steps(self) -> Step:
        app = self.app
        yield lambda: app.root is not None and app.dice is not None
        yield 5
        app.start_game(self.plan.config)
        yield 3
        link = app.dice.link if app.dice else None
        yield lambda: link is None or link.state_confirmed
        planned = self.plan.actions
        i = 0
        while i < len(planned):
            yield from self.back_to_the_game()
            game = app.session.game
            self.trace.append((i, len(game.history), game.prompt.kind.value))
            if len(game.history) > i:
                # A decision with one option and nothing private: the app took it at once.
                self.check(f"action {i}: taken at once as planned", game.history[i], planned[i])
                if game.history[i] != planned[i]:
                    raise AssertionError(f"action {i}: got {game.history[i]}, planned {planned[i]}")
                self.automatic += 1
                self.taken_at_once_at.append(i)
                i += 1
            elif game.prompt.kind in PICKER_PROMPTS:
                i += yield from self.pick_cards(i)
            else:
                yield from self.perform(i, planned[i])
                i += 1
            self.performed = i
            if isinstance(planned[i - 1], EndTurn):
                self.turn_ends.append(self.taps)
        game = app.session.game
        self.check("the game is over", game.is_over, True)
        self.taken_at_once = prompts_at(self.plan, self.taken_at_once_at)
        yield lambda: app.root.current == "game_over"
        yield from self.shot("long_game_over_screen.png")
        yield from self.back_to_the_game()
        self.compare(f"end ({len(game.history)})")
        yield from self.shot("long_game_over.png")

    def back_to_the_game(self) -> Step:
        """The app shows the barbarian attack (and the end) on their own screens: look, then
        go back to the game as the table would."""
        app = self.app
        name = app.root.current
        if name == "game":
            return
        self.announced.append(name)
        yield 2
        shot = f"long_announced_{name}.png"
        if shot not in self.screens:
            yield from self.shot(shot)
        self.tap_widget(
            app.root.get_screen(name).ids.back
            if name != "game_over"
            else app.root.get_screen(name).ids.board
        )
        yield lambda: app.root.current == "game"
        yield 1

    # ---- comparing ------------------------------------------------------------------------

    def compare(self, label: str) -> None:
        game = self.app.session.game
        screen = self.game_screen()
        ids = screen.ids
        self.check(f"{label}: prompt", ids.prompt.text, render(game.describe_prompt()))
        self.check(f"{label}: turn", ids.turn.text, W.turn_words(game))
        decider = game.config.names[game.prompt.player]
        self.check(f"{label}: the banner names who decides", decider in screen.headline, True)
        if game.history and game.prompt.player != game.history[-1].player:
            self.check(
                f"{label}: pass the tablet", screen.headline, f"Pass the tablet to {decider}"
            )
        legal = game.legal_actions()
        expected: set[str] = set()
        if game.prompt.kind in (PromptKind.TURN, PromptKind.ROLL):
            expected = {a.type_name for a in legal if not isinstance(a, Roll | EndTurn)}
            if game.prompt.kind is PromptKind.TURN and game.may_offer_trade():
                expected.add("offer_trade")
            holds = game.progress_hand(game.prompt.player)
            if holds and not any(t.startswith("play_") for t in expected):
                expected.add(C.PROGRESS_KEY)  # offered to every holder, playable or not
            if harbor_opponents(game):
                expected.add(HARBOR_KEY)  # while an opponent may be asked, resources or not
        offered: set[str] = set()
        for button in ids.bar.children:
            offered |= set(button.types)
        self.check(f"{label}: the action bar offers the legal types", offered, expected)
        self.check(
            f"{label}: End turn",
            ids.end_turn.disabled,
            not any(isinstance(a, EndTurn) for a in legal),
        )
        self.check(f"{label}: Roll", ids.roll.disabled, not game.awaiting_roll)
        legal_spots = {B.action_spot(a) for a in legal} - {None}
        # Knights to send against the barbarians: each one some legal choice sends.
        legal_spots |= {("node", n) for a in legal if isinstance(a, CommitKnights) for n in a.nodes}
        if game.prompt.kind not in (PromptKind.TURN, PromptKind.ROLL):
            self.check(
                f"{label}: highlighted spots are legal places",
                set(ids.board.spots) <= legal_spots,
                True,
            )
        if len(game.history) % 25 == 0:
            self.check(f"{label}: board pieces", ids.board.picture, B.board_picture(game))

    # ---- doing one planned action by taps ---------------------------------------------------

    def perform(self, i: int, action: Action) -> Step:
        game = self.app.session.game
        screen = self.game_screen()
        before = len(game.history)
        label = f"action {i} ({action.type_name})"
        self.compare(label)
        kind = game.prompt.kind.value
        if kind not in self.seen_prompts:
            self.seen_prompts.add(kind)
            yield from self.shot(f"long_prompt_{kind}.png")
        if isinstance(action, Roll):
            self.tap_widget(screen.ids.roll)
        elif isinstance(action, EndTurn):
            self.tap_widget(screen.ids.end_turn)
        elif game.in_setup:
            yield from self.tap_spot(screen.ids.board, B.action_spot(action))
        elif isinstance(action, OfferTrade):
            yield from self.offer(action)
        elif isinstance(action, CommitKnights):
            yield from self.commit(action)
        else:
            yield from self.choose(action)
        if len(game.history) == before:
            yield lambda: len(game.history) > before
        self.check(f"{label}: the taps made the planned action", game.history[before], action)
        if game.history[before] != action:
            raise AssertionError(f"{label}: got {game.history[before]}, planned {action}")

    def pick_cards(self, i: int) -> Generator[Any, Any, int]:
        """A card decision: "Show my cards", − / + on the picker's rows to the planned cards
        (the plan's run of one-card actions for this decision), Confirm. Returns the run's
        length."""
        app = self.app
        game = app.session.game
        screen = self.game_screen()
        label = f"action {i} ({game.prompt.kind.value}, picker)"
        self.compare(label)
        kind = game.prompt.kind.value
        self.lay_out()
        reveal = [b for b in screen.ids.actions.children if getattr(b, "reveal", False)]
        self.check(f"{label}: cards hidden first", len(reveal), 1)
        if kind + "_hidden" not in self.seen_prompts:
            self.seen_prompts.add(kind + "_hidden")
            yield from self.shot(f"long_prompt_{kind}_hidden.png")
            self.lay_out()  # the buttons as the next frame has them
            reveal = [b for b in screen.ids.actions.children if getattr(b, "reveal", False)]
        self.tap_widget(reveal[0])
        yield 2
        panel = screen.picker_panel
        if panel is None:
            raise AssertionError(f"{label}: no card picker opened")
        picker = panel.picker
        planned = self.plan.actions[i : i + picker.count]
        wanted = Counter(getattr(a, "card", None) for a in planned)
        if kind not in self.seen_prompts:
            self.seen_prompts.add(kind)
            yield from self.shot(f"long_prompt_{kind}.png")
        lines = panel.lines
        for direction in ("minus", "plus"):
            for index, row in enumerate(picker.rows):
                while (
                    (row.chosen > wanted[row.key])
                    if direction == "minus"
                    else (row.chosen < wanted[row.key])
                ):
                    button = lines[index].ids[direction]
                    if button.disabled:
                        raise AssertionError(f"{label}: {direction} of {row.label} disabled")
                    self.tap_widget(button)
        self.check(f"{label}: Confirm enabled", panel.ids.confirm.disabled, False)
        before = len(game.history)
        self.tap_widget(panel.ids.confirm)
        yield lambda: len(game.history) >= before + len(planned)
        taken = game.history[before : before + len(planned)]
        self.check(f"{label}: the picked cards", Counter(taken), Counter(planned))
        if Counter(taken) != Counter(planned):
            raise AssertionError(f"{label}: picked {taken}, planned {planned}")
        self.picked += 1
        return len(planned)

    def choose(self, action: Action) -> Step:
        game = self.app.session.game
        screen = self.game_screen()
        if game.prompt.kind in (PromptKind.TURN, PromptKind.ROLL):
            key = C.bar_key(action)
            yield from self.tap_bar(key)
        if screen.controller.covered(game):
            self.lay_out()
            buttons = [b for b in screen.ids.actions.children if getattr(b, "reveal", False)]
            self.check(f"{game.prompt.kind.value}: cards hidden first", len(buttons), 1)
            if game.prompt.kind.value + "_hidden" not in self.seen_prompts:
                self.seen_prompts.add(game.prompt.kind.value + "_hidden")
                yield from self.shot(f"long_prompt_{game.prompt.kind.value}_hidden.png")
            self.tap_widget(buttons[0])
            self.check("the cards are shown after the tap", screen.controller.revealed, True)
            yield from self.shot_once(f"long_prompt_{game.prompt.kind.value}.png")
        before = len(game.history)
        for depth in range(4):
            self.lay_out()
            step = screen.step
            if step is None:
                raise AssertionError(f"no choices shown for {action}")
            choice = next((c for c in step.choices if c.leads_to(action)), None)
            if choice is None:
                raise AssertionError(f"{action} is not among the choices of {step.title!r}")
            if choice.spot is not None:
                self.check(
                    f"{action.type_name}: the spot is highlighted",
                    choice.spot in screen.ids.board.spots,
                    True,
                )
                for x, y in screen.ids.board.taps_for(choice.spot):
                    self.tap_at(x, y)
            else:
                self.tap_widget(self.button_for(choice))
            if len(game.history) > before:
                return
            if depth == 0 and choice.then is not None:
                name = f"long_step_{action.type_name}.png"
                if name not in self.screens:
                    yield from self.shot(name)
        raise AssertionError(f"{action} was not reached by the choices")

    def button_for(self, choice: Any) -> Any:
        """The choice's button, turning the pages of choices (as a player would) to find it."""
        box = self.game_screen().ids.actions
        for _page in range(20):
            buttons = [b for b in box.children if getattr(b, "choice", None) == choice]
            if len(buttons) == 1:
                return buttons[0]
            more = [b for b in box.children if getattr(b, "more", False)]
            if len(buttons) > 1 or not more:
                raise AssertionError(f"{len(buttons)} buttons for {choice.label!r}")
            self.paged += 1
            self.tap_widget(more[0])
            self.lay_out()
        raise AssertionError(f"no page shows {choice.label!r}")

    def tap_bar(self, key: str) -> Step:
        screen = self.game_screen()
        yield 1  # the bar's scroll view places a bar filled anew on the next frame
        self.lay_out()
        buttons = [b for b in screen.ids.bar.children if b.bar_key == key]
        if len(buttons) != 1:
            raise AssertionError(f"{len(buttons)} action-bar buttons for {key}")
        yield from self.tap_in_sight(buttons[0])
        if key not in self.seen_bar:
            self.seen_bar.add(key)
            yield from self.shot(f"long_bar_{key}.png")

    def offer(self, action: OfferTrade) -> Step:
        from kivy.core.window import Window

        from companion_app.app.widgets.trade_panel import TradePanel
        from companion_app.rules.cards import Card

        screen = self.game_screen()
        yield from self.tap_bar(C.OFFER_KEY)
        yield 8  # the panel opens with an animation
        panels = [w for w in Window.children if isinstance(w, TradePanel)]
        if len(panels) != 1:
            raise AssertionError(f"{len(panels)} trade panels open")
        panel = panels[0]
        seat = next(b for b in panel.ids.seats.children if b.seat == action.to)
        self.tap_widget(seat)
        for side, hand in (("give", action.give), ("take", action.take)):
            for card in Card:
                for _ in range(hand[card]):
                    button = next(
                        w
                        for w in panel.walk()
                        if getattr(w, "name", "") == f"{side}_{card.label}_plus"
                    )
                    self.tap_widget(button)
        self.check("trade panel: the rules core's verdict", panel.legal, True)
        if "long_trade_offer.png" not in self.screens:
            yield from self.shot("long_trade_offer.png")
        self.tap_widget(panel.ids.send)
        yield 8
        self.check("trade panel closed", screen.trade, None)

    def commit(self, action: CommitKnights) -> Step:
        screen = self.game_screen()
        game = self.app.session.game
        knights = C.commit_knights(game) or []
        self.check(
            "the knights to send are highlighted on the board",
            set(screen.ids.board.spots),
            {("node", k.node) for k in knights},
        )
        for i, node in enumerate(action.nodes):
            self.lay_out()
            if i == 0:  # the first on the board, the others by their buttons
                for x, y in screen.ids.board.taps_for(("node", node)):
                    self.tap_at(x, y)
            else:
                button = next(
                    b for b in screen.ids.actions.children if getattr(b, "node", None) == node
                )
                self.tap_widget(button)
            self.check("a tapped knight is chosen", node in screen.controller.commit, True)
        if "long_commit_chosen.png" not in self.screens and action.nodes:
            yield from self.shot("long_commit_chosen.png")
        self.lay_out()
        send = next(b for b in screen.ids.actions.children if getattr(b, "send_knights", False))
        self.tap_widget(send)


def prompts_at(plan: Any, indices: list[int]) -> set[str]:
    """The decisions due before the planned actions at ``indices`` (one replay of the plan)."""
    wanted = set(indices)
    game = Game.new(plan.config)
    found = set()
    for index, action in enumerate(plan.actions):
        if index in wanted:
            found.add(game.prompt.kind.value)
        game.apply(action)
    return found


def actions_per_turn(actions: list[Action]) -> list[int]:
    """The planned actions of each turn that ended (End turn included)."""
    counts, n = [], 0
    for action in actions:
        n += 1
        if isinstance(action, EndTurn):
            counts.append(n)
            n = 0
    return counts


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--journal", type=Path, required=True)
    parser.add_argument("--artifacts", type=Path, required=True)
    parser.add_argument("--result", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=PLAN_SEED)
    args = parser.parse_args()
    plan = make_plan(args.seed)
    with tempfile.NamedTemporaryFile("w", suffix=".dice", delete=False) as script:
        script.write(plan.dice_script())
    # The virtual dice box rolls the plan's dice, as the emulator's --script does.
    dice_controller.DiceController = functools.partial(DiceController, script=script.name)
    app = CompanionApp(dice=DiceSource(None), journal_path=args.journal, dice_seed=7)
    scenario = LongGame(app, args.artifacts, plan)
    from kivy.clock import Clock

    Clock._max_fps = 0  # no frame-rate cap: the test taps as fast as the app keeps up

    Clock.schedule_interval(scenario.tick, 0)
    try:
        app.run()
    except Exception:
        scenario.error = scenario.error or traceback.format_exc()
    Path(script.name).unlink()
    session = app.session
    game = session.game if session else None
    result = {
        "error": scenario.error,
        "checked": scenario.checked,
        "failures": scenario.checks,
        "screens": scenario.screens,
        "performed": scenario.performed,
        "planned": len(plan.actions),
        "plan_types": sorted(plan.types),
        "plan_prompts": sorted(plan.prompts),
        "dice_link": type(app.dice.link).__name__ if app.dice else "",
        "game_id": session.game_id if session else None,
        "actions": [a.to_json() for a in game.history] if game else [],
        "prompts_seen": sorted(scenario.seen_prompts),
        "bar_seen": sorted(scenario.seen_bar),
        "announced": scenario.announced,
        "paged": scenario.paged,
        "automatic": scenario.automatic,
        "prompts_taken_at_once": sorted(scenario.taken_at_once),
        "picked": scenario.picked,
        "trace": scenario.trace[-40:],
        "taps": scenario.taps,
        "taps_per_turn": [b - a for a, b in itertools.pairwise([0, *scenario.turn_ends])],
        "actions_per_turn": actions_per_turn(plan.actions),
        "turns": game.turn if game else 0,
        "winner": game.winner if game and game.is_over else None,
    }
    args.result.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
