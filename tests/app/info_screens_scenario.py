"""A touch-driven run of the information screens, started by ``test_info_screens_ui.py`` in its
own process.

A four-player game is played with seeded random actions through the journal session (the rules
core chooses only legal ones). The steps that matter go through the app as a table would make
them: a ship roll that brings the barbarians goes through ``CompanionApp.apply`` and the attack
screen must come up by itself; the toolbar's buttons are tapped to open the private hand (cover,
cards, cover again), the improvement chart and the statistics; a roll is undone with its
confirmation and redone, and the emulated dice box's ship LED must follow; the last action
that wins goes through ``CompanionApp.apply`` and the end screen must come up; its export button
writes the journal's export. After every step the widgets are compared with the rules core and
``game_stats``, and a screenshot is saved.

Usage: python info_screens_scenario.py --journal DB --artifacts DIR --result JSON
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scenario_driver import ScenarioDriver, Step, scenario_main

from companion_app.app.companion import CompanionApp
from companion_app.app.widgets.player_panel import panel_text
from companion_app.device.box_state import device_track
from companion_app.game_stats import GameStatistics
from companion_app.presenters import info_presenter as I
from companion_app.presenters import journal_words as J
from companion_app.rules.actions import EventDie, Roll
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64

SEED = 2023
MAX_ACTIONS = 20000


class Scenario(ScenarioDriver):
    def __init__(self, app: CompanionApp, artifacts: Path) -> None:
        self.leds: list[dict[str, Any]] = []
        self.facts: dict[str, Any] = {}
        self.rng = SplitMix64(SEED)
        super().__init__(app, artifacts)

    def result(self) -> dict[str, Any]:
        return {**super().result(), "leds": self.leds, "facts": self.facts}

    @property
    def game(self) -> Game:
        assert self.app.session is not None
        return self.app.session.game

    def screen(self, name: str) -> Any:
        return self.app.root.get_screen(name)

    def play_quietly(self, until: Callable[[Game], bool]) -> None:
        """Random legal actions through the journal session until ``until``, then one redraw
        that announces nothing (what happened on the way is not what the step looks at)."""
        session = self.app.session
        assert session is not None
        for _ in range(MAX_ACTIONS):
            if until(session.game) or session.game.is_over:
                break
            session.apply(choose_random_action(session.game, self.rng))
        else:
            raise AssertionError("the random game did not reach the wanted state")
        self.app.announce_events = False
        self.app.refresh()
        self.app.announce_events = True

    # ---- the run ----------------------------------------------------------------------------

    def steps(self) -> Step:
        app = self.app
        yield lambda: app.root is not None and app.dice is not None
        yield 5
        app.start_game(GameConfig.for_players(4, seed=SEED))
        yield lambda: app.root.current == "game"
        yield from self.attack()
        yield from self.player_panel("after the attack")
        yield from self.hands()
        yield from self.chart()
        yield from self.statistics("statistics")
        yield from self.undo_redo_a_roll()
        yield from self.undo_without_question()
        yield from self.offline_rolls()
        yield from self.to_the_end()

    def attack(self) -> Step:
        """The ship one space from the end and the roll due: a ship roll through the app."""
        app = self.app
        length = self.game.config.barbarian_track_length

        def ready(game: Game) -> bool:
            knights = sum(game.knight_strength(p) for p in range(game.player_count))
            return (
                game.awaiting_roll
                and game.alchemist_dice is None
                and game.barbarian_position == length - 1
                and knights > 0
                and game.barbarian_strength() > 0
            )

        self.play_quietly(ready)
        yield 3
        self.check("before the attack: game screen", app.root.current, "game")
        game = self.game
        attacks = game.barbarian_attacks
        app.apply(Roll(game.active, 2, 3, EventDie.SHIP))
        yield 3
        self.check("attack: it happened", game.barbarian_attacks, attacks + 1)
        self.check("attack: its screen came up by itself", app.root.current, "attack")
        screen = self.screen("attack")
        attack = game.last_attack
        assert attack is not None
        view = I.attack_view(game)
        assert view is not None
        self.check("attack: title", screen.ids.title.text, f"{view.title}  ·  {view.headline}")
        self.check("attack: strength", screen.strength, attack.strength)
        self.check("attack: strength is the cities", attack.strength, game.barbarian_strength())
        self.check("attack: defence", screen.defence, sum(attack.defence))
        self.check("attack: outcome", screen.ids.outcome.text, view.outcome)
        rows = list(reversed(screen.ids.rows.children))
        self.check(
            "attack: each player's defence",
            [(r.row.seat, r.row.defence) for r in rows],
            list(enumerate(attack.defence)),
        )
        for row in rows:
            self.check(
                f"attack: {row.row.name}'s line names the defence",
                f"defence {attack.defence[row.row.seat]}" in row.text,
                True,
            )
        self.facts["attack"] = attack.to_json()
        yield from self.shot("info_01_barbarian_attack.png")
        yield from self.tap(screen.ids.back)
        self.check("attack: Continue goes back to the board", app.root.current, "game")
        # The decisions the attack brought (city to lose, deck choice) are answered quietly.
        self.play_quietly(lambda g: g.prompt.kind is PromptKind.TURN)
        yield 3

    def player_panel(self, label: str) -> Step:
        game = self.game
        lines = list(reversed(self.screen("game").ids.players.children))
        expected = I.panel_lines(game)
        self.check(f"{label}: one line per player", len(lines), game.player_count)
        for line, want in zip(lines, expected, strict=False):
            p = want.seat
            self.check(f"{label}: {want.name}'s line", line.text, panel_text(want))
            self.check(
                f"{label}: {want.name}'s VP",
                line.line.victory_points,
                game.victory_points(p),
            )
            self.check(f"{label}: {want.name}'s card count", line.line.cards, game.card_count(p))
            self.check(
                f"{label}: {want.name}'s progress count",
                line.line.progress,
                len(game.progress_hand(p)),
            )
            # Counts only: no card name of the hand appears in the line.
            names = ["brick", "lumber", "wool", "grain", "ore", "cloth", "coin", "paper"]
            shown = [n for n in names if n in line.text]
            self.check(f"{label}: {want.name}'s hand is not on the board screen", shown, [])
        yield 1

    def hands(self, label: str = "hand", shots: bool = True) -> Step:
        app = self.app
        toolbar = self.screen("game").ids.toolbar
        yield from self.tap(toolbar.ids.hand)
        self.check(f"{label}: screen", app.root.current, "hand")
        screen = self.screen("hand")
        game = self.game
        first = I.seat_order(game)[0]
        self.check(f"{label}: offered to the deciding player first", screen.seat, first)
        self.check(f"{label}: covered", (screen.covered, len(screen.ids.cards.children)), (True, 0))
        self.check(f"{label}: cover words", screen.ids.cover.text, I.cover_words(game, first))
        if shots:
            yield from self.shot("info_02_hand_cover.png")
        offered = sorted(b.seat for b in screen.ids.seats.children)
        if not game.is_over:
            # During the game nobody opens another player's hand: only the decider's tab.
            self.check(f"{label}: only the deciding player's hand", offered, [first])
            seat = first
        else:
            self.check(
                f"{label}: every hand once the game is over",
                offered,
                list(range(game.player_count)),
            )
            # The player with most progress cards, to show them.
            seat = max(
                range(game.player_count),
                key=lambda p: (len(game.progress_hand(p)), game.card_count(p), -p),
            )
        button = next(b for b in screen.ids.seats.children if b.seat == seat)
        yield from self.tap(button)
        self.check(
            f"{label}: picked seat, still covered", (screen.seat, screen.covered), (seat, True)
        )
        self.check(f"{label}: picked cover words", screen.ids.cover.text, I.cover_words(game, seat))
        yield from self.tap(screen.ids.cover)
        self.check(f"{label}: shown after the tap", screen.covered, False)
        tiles = list(reversed(screen.ids.cards.children))
        hand = game.hand(seat)
        self.check(
            f"{label}: every card count",
            [(t.card, t.count) for t in tiles],
            [(c, hand[i]) for i, c in enumerate(I.CARD_COLOURS)],
        )
        progress = [t.card for t in reversed(screen.ids.progress.children) if hasattr(t, "card")]
        self.check(
            f"{label}: progress cards", progress, [str(c.title) for c in game.progress_hand(seat)]
        )
        self.facts[f"{label}_seat"] = seat
        self.facts[f"{label}_progress"] = progress
        yield from self.shot("info_03_hand_shown.png" if shots else f"info_03_{label}_shown.png")
        yield from self.tap(screen.ids.done)
        self.check(
            f"{label}: Done covers again",
            (screen.covered, len(screen.ids.cards.children)),
            (True, 0),
        )
        if shots:
            yield from self.shot("info_04_hand_covered_again.png")
        yield from self.tap(screen.ids.back)
        self.check(f"{label}: back to the board", app.root.current, "game")

    def chart(self) -> Step:
        app = self.app
        yield from self.tap(self.screen("game").ids.toolbar.ids.chart)
        self.check("chart: screen", app.root.current, "improvements")
        screen = self.screen("improvements")
        game = self.game
        seat = max(range(game.player_count), key=lambda p: (sum(game.improvements[p]), -p))
        button = next(b for b in screen.ids.seats.children if b.seat == seat)
        yield from self.tap(button)
        self.check("chart: picked seat", screen.seat, seat)
        rows = list(reversed(screen.ids.tracks.children))
        self.check("chart: three tracks", len(rows), 3)
        for row, level in zip(rows, game.improvements[seat], strict=False):
            tiles = list(reversed(row.ids.cells.children))
            self.check(
                f"chart: {row.track.track.value} levels built",
                [t.cell.reached for t in tiles],
                [lv <= level for lv in range(1, 6)],
            )
            self.check(f"chart: {row.track.track.value} five levels", len(tiles), 5)
            self.check(
                f"chart: {row.track.track.value} header level",
                f"level {level}" in row.ids.header.text,
                True,
            )
        self.facts["chart"] = {"seat": seat, "levels": list(game.improvements[seat])}
        yield from self.shot("info_05_improvements.png")
        yield from self.tap(screen.ids.back)

    def statistics(self, label: str) -> Step:
        app = self.app
        if app.root.current != "statistics":
            yield from self.tap(self.screen("game").ids.toolbar.ids.stats)
        self.check(f"{label}: screen", app.root.current, "statistics")
        screen = self.screen("statistics")
        game = self.game
        stats = GameStatistics.from_game(game)
        self.check(
            f"{label}: sums histogram",
            [b.observed for b in screen.ids.sums.bars],
            list(stats.dice.sums),
        )
        self.check(
            f"{label}: expected sums",
            [round(b.expected, 6) for b in screen.ids.sums.bars],
            [round(e, 6) for e in stats.dice.expected_sums()],
        )
        self.check(
            f"{label}: event faces",
            [b.observed for b in screen.ids.events.bars],
            list(stats.dice.events),
        )
        self.check(
            f"{label}: production",
            [b.value for b in reversed(screen.ids.production.children)],
            [sum(h) for h in stats.production],
        )
        # The title's count and the lines listed agree: only the latest five are listed.
        listed = min(stats.attacks, 5)
        latest = f" (the last {listed})" if listed < stats.attacks else ""
        self.check(
            f"{label}: attacks",
            (screen.ids.attacks_title.text, len(screen.ids.attacks.children)),
            (f"Barbarian attacks: {stats.attacks}{latest}", max(1, listed)),
        )
        p_value = stats.dice.sum_fairness().p_value
        self.check(f"{label}: fairness", screen.ids.fairness.text, I.statistics_view(game).fairness)
        self.facts[label] = {
            "rolls": stats.dice.event_rolls,
            "p_value": p_value,
            "verdict": stats.dice.overall().value,
        }
        yield from self.shot(f"info_06_{label}.png")
        yield from self.tap(screen.ids.back)

    def ship_led(self) -> tuple[int | None, int]:
        box = self.app.dice.virtual_box if self.app.dice else None
        leds = box.leds() if box is not None else None
        game = self.game
        pos, length = device_track(game.barbarian_position, game.config.barbarian_track_length)
        if not leds or "S" not in leds:
            return None, -1
        track_leds = len(leds) - 1
        expected = (pos * (track_leds - 1) + (length - 1) // 2) // (length - 1)
        return leds.index("S"), expected

    def led_follows(self, label: str) -> Step:
        yield lambda: self.ship_led()[0] == self.ship_led()[1]
        shown, expected = self.ship_led()
        self.check(f"{label}: ship LED", shown, expected)
        self.leds.append({"label": label, "led": shown, "position": self.game.barbarian_position})

    def undo_redo_a_roll(self) -> Step:
        """A ship roll (the barbarians move), undone with the confirmation, then redone."""
        from kivy.core.window import Window
        from kivy.uix.popup import Popup

        app = self.app
        length = self.game.config.barbarian_track_length
        self.play_quietly(
            lambda g: (
                g.awaiting_roll and g.alchemist_dice is None and g.barbarian_position < length - 1
            )
        )
        yield 3
        game = self.game
        before = game.to_json()
        history = len(game.history)
        app.apply(Roll(game.active, 4, 5, EventDie.SHIP))
        yield 3
        after = game.to_json()
        self.check("roll: ship moved", game.barbarian_position, before["barbarian_position"] + 1)
        yield from self.led_follows("after the ship roll")
        toolbar = self.screen("game").ids.toolbar
        self.check("undo: offered", toolbar.ids.undo.disabled, False)
        yield from self.tap(toolbar.ids.undo)
        yield 8
        popups = [w for w in Window.children if isinstance(w, Popup)]
        self.check("undo: a roll asks first", len(popups), 1)
        self.check("undo: nothing undone before the answer", len(game.history), history + 1)
        step = app.session.peek_undo()
        self.check(
            "undo: the question names the roll",
            popups[0].ids.question.text,
            J.undo_question(game, step),
        )
        yield from self.shot("info_07_undo_roll_question.png")
        yield from self.tap(popups[0].ids.no)
        yield 8
        self.check("undo: 'Keep it' keeps the roll", len(game.history), history + 1)
        yield from self.tap(toolbar.ids.undo)
        yield 8
        popups = [w for w in Window.children if isinstance(w, Popup)]
        yield from self.tap(popups[0].ids.yes)
        yield 8
        self.check("undo: the roll is taken back", game.to_json(), before)
        self.check("undo: the game waits for the roll again", game.awaiting_roll, True)
        self.check("undo: the undone roll waits for redo", app.session.redo_actions, (step.action,))
        self.check("undo: redo offered", toolbar.ids.redo.disabled, False)
        self.check("undo: message", app.message.startswith("Undone: "), True)
        yield from self.led_follows("after undoing the roll")
        yield from self.shot("info_08_after_undo.png")
        yield from self.tap(toolbar.ids.redo)
        self.check("redo: the roll is back", game.to_json(), after)
        self.check("redo: nothing more to redo", toolbar.ids.redo.disabled, True)
        yield from self.led_follows("after redoing the roll")

    def undo_without_question(self) -> Step:
        """Any other action is undone at once."""
        from kivy.core.window import Window
        from kivy.uix.popup import Popup

        app = self.app
        self.play_quietly(lambda g: g.prompt.kind is PromptKind.TURN)
        yield 3
        game = self.game
        before = game.to_json()
        end = next(a for a in game.legal_actions() if a.type_name == "end_turn")
        app.apply(end)
        yield 3
        yield from self.tap(self.screen("game").ids.toolbar.ids.undo)
        yield 8
        self.check(
            "undo end turn: no question", [w for w in Window.children if isinstance(w, Popup)], []
        )
        self.check("undo end turn: taken back", game.to_json(), before)

    def offline_rolls(self) -> Step:
        """Two rolls the box made while the tablet was away: the first is used for the roll
        that is due, the second is offered at the next roll and dismissed."""
        from kivy.core.window import Window
        from kivy.uix.popup import Popup

        from companion_app.device.events import DeviceRoll

        app = self.app
        table = app.dice.table
        self.play_quietly(lambda g: g.awaiting_roll and g.alchemist_dice is None)
        yield 3
        box = "D1CE0000000000E1"
        rolls = (
            DeviceRoll(box, "00AWAY00", 1, 6, 5, EventDie.SCIENCE, offline=True, alchemist=False),
            DeviceRoll(box, "00AWAY00", 2, 1, 1, EventDie.SHIP, offline=True, alchemist=False),
        )
        table.offer(rolls)
        app.refresh()
        yield 8
        popups = [w for w in Window.children if isinstance(w, Popup)]
        game = self.game
        self.check("offline: offered once", len(popups), 1)
        self.check(
            "offline: question", popups[0].ids.question.text, J.offline_question(game, rolls)
        )
        yield from self.shot("info_08b_offline_rolls.png")
        history = len(game.history)
        active = game.active
        yield from self.tap(popups[0].ids.yes)
        yield 8
        self.check(
            "offline: used as the roll",
            game.history[history : history + 1],
            [Roll(active, 6, 5, EventDie.SCIENCE)],
        )
        self.check("offline: one left", [r.seq for r in table.offline], [2])
        self.check(
            "offline: no popup while no roll is due",
            [w for w in Window.children if isinstance(w, Popup)],
            [],
        )
        self.play_quietly(lambda g: g.awaiting_roll)
        yield 8
        popups = [w for w in Window.children if isinstance(w, Popup)]
        self.check("offline: the second offered at the next roll", len(popups), 1)
        history = len(game.history)
        yield from self.tap(popups[0].ids.no)
        yield 8
        self.check("offline: dismissed", table.offline, [])
        self.check("offline: dismissing rolls nothing", len(game.history), history)
        self.check("offline: the game still waits for the dice", game.awaiting_roll, True)

    def to_the_end(self) -> Step:
        """Random play to the last action; the winning one goes through the app."""
        app = self.app
        session = app.session
        assert session is not None
        for _ in range(MAX_ACTIONS):
            action = choose_random_action(session.game, self.rng)
            session.apply(action)
            if session.game.is_over:
                session.undo()
                break
        else:
            raise AssertionError("the random game did not end")
        self.play_quietly(lambda _g: True)
        yield 3
        self.check("end: not yet", app.root.current, "game")
        self.check("end: the winning action goes through the app", app.apply(action), True)
        yield 3
        game = self.game
        self.check("end: game over", game.is_over, True)
        self.check("end: its screen came up by itself", app.root.current, "game_over")
        screen = self.screen("game_over")
        view = I.game_over_view(game)
        self.check("end: headline", screen.ids.headline.text, view.headline)
        rows = list(reversed(screen.ids.ranking.children))
        self.check(
            "end: ranking",
            [(r.row.seat, r.row.victory_points) for r in rows],
            [(r.seat, game.victory_points(r.seat)) for r in view.ranking],
        )
        self.check("end: winner first", rows[0].row.seat, game.winner)
        self.check("end: winner has the target", game.victory_points(game.winner) >= 13, True)
        for r in rows:
            self.check(
                f"end: {r.row.name}'s breakdown",
                I.vp_words(game.victory_point_breakdown(r.row.seat)) in r.text,
                True,
            )
        self.check(
            "end: sums histogram",
            [b.observed for b in screen.ids.sums.bars],
            list(GameStatistics.from_game(game).dice.sums),
        )
        yield from self.shot("info_09_game_over.png")
        yield from self.tap(screen.ids.export)
        path = app.last_export
        self.check("end: exported", path is not None and path.exists(), True)
        self.check("end: the screen says where", screen.ids.export_path.text, f"Exported to {path}")
        self.facts["export"] = str(path)
        self.facts["winner"] = game.winner
        self.facts["turn"] = game.turn
        yield from self.shot("info_10_game_over_exported.png")
        yield from self.tap(screen.ids.stats)
        yield from self.statistics("final_statistics")
        self.check("end: board after statistics", app.root.current, "game")
        yield from self.shot("info_11_final_board.png")
        stats_button = self.screen("game").ids.toolbar.ids.stats
        self.check("end: the toolbar offers the result", stats_button.text, "Result")
        yield from self.tap(stats_button)
        self.check("end: the result again", app.root.current, "game_over")
        yield from self.tap(screen.ids.board)
        yield from self.hands("final_hand", shots=False)


def main() -> int:
    return scenario_main(Scenario, dice_seed=11)


if __name__ == "__main__":
    sys.exit(main())
