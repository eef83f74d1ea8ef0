"""``python -m bench [--quick] [--only SECTION ...] [--out PATH]``: run the benchmarks, print one
table, write results.json. Never exits non-zero because of a number."""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from bench import (
    app,
    bot,
    firmware,
    journal,
    language,
    link,
    phones,
    rp2040,
    rules,
    soak,
    standings,
    taps,
)
from bench.table import Row, machine, render, write_json

HERE = Path(__file__).resolve().parent
WORKDIR = HERE.parent / "build" / "bench"

SECTIONS = (
    "rules",
    "journal",
    "standings",
    "link",
    "app",
    "taps",
    "language",
    "firmware",
    "rp2040",
    "phones",
    "soak",
    "bot",
)


def plan(quick: bool) -> dict[str, Callable[[], list[Row]]]:
    """Each section's run with its sizes: the full ones, or tiny ones for a smoke run."""
    if quick:
        return {
            "rules": lambda: rules.run(
                rules.Sizes(
                    rounds=1,
                    games_per_round=1,
                    timed_games=1,
                    undos=10,
                    positions=20,
                    search_rounds=2,
                )
            ),
            "journal": lambda: journal.run(
                journal.Sizes(replay_actions=50, replays=1, commits=20), WORKDIR
            ),
            "standings": lambda: standings.run(
                standings.Sizes(games=12, distinct_games=2, runs=5), WORKDIR
            ),
            "link": lambda: link.run(link.Sizes(presses=20, work_rolls=0)),
            "app": lambda: app.run(app.Sizes(runs=1)),
            "taps": lambda: taps.run(taps.Sizes(long_game=False)),
            "language": lambda: language.run(language.Sizes(switches=6)),
            "firmware": lambda: firmware.run(
                firmware.Sizes(rolls=50, chi_rolls=6_000, mode_rolls=6_000), WORKDIR / "quick"
            ),
            "rp2040": lambda: rp2040.run(rp2040.Sizes(rolls=50, presses=3), WORKDIR / "quick"),
            "phones": lambda: phones.run(phones.Sizes(actions=20)),
            "soak": lambda: soak.run(soak.Sizes(rolls=200, unplug_every=50, reset_every=100)),
            "bot": lambda: bot.run(bot.Sizes(seeds=1, expert_seeds=1, max_turns=150, positions=20)),
        }
    return {
        "rules": lambda: rules.run(rules.Sizes()),
        "journal": lambda: journal.run(journal.Sizes(), WORKDIR),
        "standings": lambda: standings.run(standings.Sizes(), WORKDIR),
        "link": lambda: link.run(link.Sizes()),
        "app": lambda: app.run(app.Sizes()),
        "taps": lambda: taps.run(taps.Sizes()),
        "language": lambda: language.run(language.Sizes()),
        "firmware": lambda: firmware.run(firmware.Sizes(), WORKDIR),
        "rp2040": lambda: rp2040.run(rp2040.Sizes(), WORKDIR),
        "phones": lambda: phones.run(phones.Sizes()),
        "soak": lambda: soak.run(soak.Sizes()),
        "bot": lambda: bot.run(bot.Sizes()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="tiny sizes: checks the harness only")
    parser.add_argument("--only", nargs="+", choices=SECTIONS, help="run only these sections")
    parser.add_argument("--out", type=Path, default=HERE / "results.json", help="results file")
    args = parser.parse_args(argv)
    runs = plan(args.quick)
    rows: list[Row] = []
    seconds: dict[str, float] = {}
    started = time.perf_counter()
    info = machine()
    for name in args.only or SECTIONS:
        print(f"bench: {name} ...", file=sys.stderr, flush=True)
        start = time.perf_counter()
        try:
            rows += runs[name]()
        except Exception as exc:  # one broken section must not hide the others' figures
            traceback.print_exc()
            why = f"failed: {type(exc).__name__}: {exc}"[:120]
            rows.append(Row(name, "section", None, "", "-", "-", why))
        seconds[name] = round(time.perf_counter() - start, 1)
    total = round(time.perf_counter() - started, 1)
    print(render(rows))
    print(f"\n{len(rows)} figures in {total} s; written to {args.out}")
    write_json(
        args.out,
        rows,
        meta={"quick": args.quick, "machine": info, "section_seconds": seconds, "total_s": total},
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
