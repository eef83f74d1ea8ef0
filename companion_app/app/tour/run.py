"""``python -m companion_app tour --size WxH --out DIR``: every screen and dialog, on screen.

The app starts at the given size under the current display with virtual dice and a journal of
its own in a temporary folder. The tour taps through home, settings, a new game (a random board,
the table's own board entered by taps), "build your table", then plays the planned game of
:mod:`companion_app.app.tour.plan` (setup, rolls, a 7 with discards, trades, knights,
improvements, progress cards, barbarian attacks, to a winner). The first time each decision,
each action-bar button and each dialog comes up, its widgets are tapped open, a PNG is saved and
the layout is checked (:mod:`companion_app.app.tour.layout_check`); the planned action is then
taken through the app as a tap would. Prints one line per problem and ``N screens, M problems``.
A language asked for with ``--lang`` whose compiled catalogue does not load stops the tour
before it starts (exit 2, one line naming it): it would show English and find nothing.
``--bots``: a table with a seat the tablet plays instead (:mod:`companion_app.app.tour.bot_tour`).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path


def parse_args(argv: list[str]) -> argparse.Namespace:
    from companion_app.app.tour.plan import PLAN_SEED, PLAN_SEEDS, SCENARIO_PLAN_SEEDS
    from companion_app.i18n.current import parse_languages
    from companion_app.rules.config import MAX_PLAYERS, MIN_PLAYERS, SCENARIOS

    parser = argparse.ArgumentParser(
        prog="catan-companion tour",
        description="Play a scripted game through every screen: a PNG per screen and step, "
        "and a layout check of each (text that does not fit, overlapping or small touch "
        "targets, widgets outside the window).",
    )
    parser.add_argument("--size", default="1280x800", help="window size WIDTHxHEIGHT")
    parser.add_argument("--out", type=Path, required=True, help="folder for the PNG files")
    parser.add_argument("--seed", type=int, default=None, help="the planned game's seed")
    parser.add_argument(
        "--players", type=int, default=3, help="players at the table (3-6; 5-6: the larger board)"
    )
    parser.add_argument(
        "--bots",
        action="store_true",
        help="a seat the tablet plays instead: two people and Blue at the Player level, seated "
        "on New game, a short game to the tablet's turns, its answers and the Expert's hint",
    )
    parser.add_argument(
        "--scenario",
        choices=SCENARIOS,
        help="a Seafarers scenario on its map (3 or 4 players): chosen on New game, its board "
        "laid out, a short game on it",
    )
    parser.add_argument(
        "--lang",
        metavar="LL[,LL...]",
        help="the language (default: the system's); several, comma-separated, look at every "
        "screen in each, switched on the spot, into DIR/LL/ (the game is played in the first)",
    )
    args = parser.parse_args(argv)
    try:
        args.languages = tuple(parse_languages(args.lang, several=True)) if args.lang else ()
    except ValueError as exc:
        parser.error(str(exc))
    try:
        args.width, args.height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        parser.error(f"--size must look like 1280x800, got {args.size!r}")
    if args.width < 320 or args.height < 240:
        parser.error(f"--size {args.size} is too small (at least 320x240)")
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        parser.error(f"--players must be {MIN_PLAYERS}-{MAX_PLAYERS}, got {args.players}")
    if args.bots and args.players != 3:
        parser.error("--bots seats three: two people and the tablet")
    if args.scenario is not None and (args.bots or args.players not in (3, 4)):
        parser.error("--scenario plays 3 or 4 people (no --bots)")
    if args.seed is None and args.scenario is not None:
        args.seed = SCENARIO_PLAN_SEEDS[(args.scenario, args.players)]
    if args.seed is None:
        args.seed = PLAN_SEEDS.get(args.players, PLAN_SEED)
    return args


def unreadable_languages(codes: tuple[str, ...]) -> list[str]:
    """The languages of ``codes`` whose compiled catalogue does not load (they would read
    English): a tour in one of them could not show that language."""
    from companion_app.i18n import catalogue

    return [code for code in codes if not catalogue(code).complete]


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    missing = unreadable_languages(args.languages)
    if missing:
        print(
            f"tour: no compiled catalogue for {', '.join(missing)} (it would show English): "
            "compile the catalogues first (make catalogues)",
            file=sys.stderr,
        )
        return 2
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from companion_app.app.main import configure_kivy

    configure_kivy(args.width, args.height)
    from kivy.clock import Clock

    from companion_app.app.companion import CompanionApp
    from companion_app.app.tour.bot_tour import BotTour
    from companion_app.app.tour.plan import make_plan
    from companion_app.app.tour.tour import Tour
    from companion_app.device.discovery import DiceSource

    plan = None if args.bots else make_plan(args.seed, args.players, scenario=args.scenario)
    with tempfile.TemporaryDirectory(prefix="catan-tour-") as folder:
        app = CompanionApp(
            dice=DiceSource(None),
            journal_path=Path(folder) / "journal.sqlite3",
            dice_seed=7,
            language=args.languages[0] if args.languages else None,
        )
        if plan is None:
            tour: Tour = BotTour(app, args.out, args.languages)
        else:
            tour = Tour(app, args.out, plan, args.languages)
        Clock._max_fps = 0  # no frame cap: the tour waits for frames, not for time
        Clock.schedule_interval(tour.tick, 0)
        try:
            app.run()
        except Exception as exc:  # the tour reports, it does not crash with a traceback
            tour.error = tour.error or f"{type(exc).__name__}: {exc}"
    for line in tour.problems:
        print(line)
    if tour.smallest_drawn:
        sizes = sorted(tour.smallest_drawn.items())
        print("smallest drawn: " + ", ".join(f"{kind} {size:.0f} dp" for kind, size in sizes))
    if tour.error:
        print(tour.error.strip())
        print(f"tour stopped {tour.where}: {tour.error.strip().splitlines()[-1]}")
    if isinstance(tour, BotTour):
        print(tour.summary())
    print(f"{len(tour.screens)} screens, {len(tour.problems)} problems")
    return 1 if tour.problems or tour.error else 0
