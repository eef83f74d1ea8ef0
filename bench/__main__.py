"""``python -m bench [--quick] [--only SECTION ...] [--out PATH]``: run the benchmarks, print one
table, write results.json, and warn of every figure more than 10 % worse than in the committed
results.json. ``python -m bench --table [PATH]`` prints a results file as the README's table,
``--readme`` writes it into README.md. Never exits non-zero because of a number."""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
from bench.table import (
    Row,
    describe_run,
    load_average,
    machine,
    markdown,
    regressions,
    render,
    write_json,
)

HERE = Path(__file__).resolve().parent
WORKDIR = HERE.parent / "build" / "bench"
COMMITTED = HERE / "results.json"
QUICK_OUT = WORKDIR / "results-quick.json"
README = HERE.parent / "README.md"
TABLE_START = "<!-- bench table: python -m bench --readme -->"
TABLE_END = "<!-- end of bench table -->"

RP2040_ROLLS = 100
"""The emulated Pico's rolls in a full run: 1,000 took nine of the run's 21 minutes, 300 four
of 25.7; the heap figures are the same after 30, 100, 300 and 1,000 (each roll costs half a
second of the emulator's time, twice: the one UF2 and the files build)."""

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
            "bot": lambda: bot.run(
                bot.Sizes(
                    seeds=1,
                    expert_seeds=1,
                    trading_seeds=1,
                    max_turns=150,
                    positions=20,
                    sea_positions=10,
                    sea_seeds=1,
                )
            ),
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
        "rp2040": lambda: rp2040.run(rp2040.Sizes(rolls=RP2040_ROLLS), WORKDIR),
        "phones": lambda: phones.run(phones.Sizes()),
        "soak": lambda: soak.run(soak.Sizes()),
        "bot": lambda: bot.run(bot.Sizes()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="tiny sizes: checks the harness only")
    parser.add_argument("--only", nargs="+", choices=SECTIONS, help="run only these sections")
    parser.add_argument(
        "--out",
        type=Path,
        help=f"results file (default: {COMMITTED.name}, or {QUICK_OUT.name} in {WORKDIR} for "
        "--quick: a quick run never replaces the committed figures)",
    )
    parser.add_argument(
        "--against",
        type=Path,
        default=COMMITTED,
        help="the results a figure more than 10 %% worse than is warned of (a run of the same "
        "sizes; default: the committed ones)",
    )
    parser.add_argument(
        "--table",
        nargs="?",
        const=COMMITTED,
        type=Path,
        metavar="RESULTS",
        help="print a results file (default: the committed one) as the README's table; no run",
    )
    parser.add_argument(
        "--readme",
        nargs="?",
        const=COMMITTED,
        type=Path,
        metavar="RESULTS",
        help="write that table into README.md's Benchmarks section; no run",
    )
    args = parser.parse_args(argv)
    if args.table or args.readme:
        data = read_results(args.table or args.readme)
        if data is None:
            print(f"bench: cannot read {args.table or args.readme}", file=sys.stderr)
            return 2
        if args.table:
            print(markdown(data))
        else:
            write_readme_table(README, markdown(data))
            print(f"bench: the table in {README} is now that of {args.readme}")
        return 0
    out: Path = args.out or (QUICK_OUT if args.quick else COMMITTED)
    out.parent.mkdir(parents=True, exist_ok=True)
    committed = read_results(args.against) or {}
    runs = plan(args.quick)
    rows: list[Row] = []
    seconds: dict[str, float] = {}
    started = time.perf_counter()
    info = machine()
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    print(f"bench: {describe_run({'generated_utc': now, 'machine': info})}", file=sys.stderr)
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
    info["load_average_1m_at_end"] = load_average()
    meta = {
        "generated_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "quick": args.quick,
        "machine": info,
        "section_seconds": seconds,
        "total_s": total,
    }
    print(f"Measured {describe_run(meta)}.\n")
    print(render(rows))
    print(f"\n{len(rows)} figures in {total} s; written to {out}")
    warnings = regressions(committed, rows, quick=args.quick)
    for warning in warnings:
        print(f"WARNING: regression: {warning}")
    if warnings:
        print(f"(against {args.against}: {describe_run(committed)})")
    write_json(out, rows, meta=meta)
    return 0


def read_results(path: Path) -> dict[str, Any] | None:
    """A results file, or None if it cannot be read (a first run has none to compare with)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_readme_table(readme: Path, table: str) -> None:
    """Replace what stands between the table's markers in ``readme``."""
    text = readme.read_text(encoding="utf-8")
    start, end = text.find(TABLE_START), text.find(TABLE_END)
    if start < 0 or end < start:
        raise SystemExit(f"bench: {readme} lacks the lines {TABLE_START!r} ... {TABLE_END!r}")
    head = text[: start + len(TABLE_START)]
    readme.write_text(f"{head}\n\n{table}\n\n{text[end:]}", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
