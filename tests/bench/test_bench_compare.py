"""The bench's own warning of a regression against the committed results, its statement of the
run, and the README table it writes (two small results files; no benchmark is run)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.__main__ import TABLE_END, TABLE_START, write_readme_table  # noqa: E402
from bench.table import Row, better, describe_run, markdown, regressions  # noqa: E402


def _row(name: str, value: float | None, unit: str) -> Row:
    return Row("Journal", name, value, unit, "-", "anchor", "meets")


def _committed(quick: bool = False) -> dict[str, Any]:
    return {
        "generated_utc": "2026-11-22T05:24:43Z",
        "quick": quick,
        "total_s": 900.0,
        "machine": {
            "python": "3.11.7",
            "cpus": 2,
            "cpu_model": "Some CPU @ 2.20GHz",
            "load_average_1m_at_start": 0.12,
            "load_average_1m_at_end": 1.5,
        },
        "rows": [
            {"section": "Journal", "name": "resume", "value": 10.0, "unit": "ms"},
            {"section": "Journal", "name": "throughput", "value": 1000.0, "unit": "actions/s"},
            {"section": "Journal", "name": "p", "value": 0.5, "unit": ""},
            {"section": "Journal", "name": "heap", "value": 40.0, "unit": "KB"},
        ],
    }


def test_a_figure_more_than_ten_percent_worse_is_a_warning() -> None:
    rows = [
        _row("resume", 11.5, "ms"),  # 15 % slower: warned
        _row("throughput", 850.0, "actions/s"),  # 15 % fewer: warned
        _row("p", 0.01, ""),  # a p-value: never compared
        _row("heap", 44.0, "KB"),  # exactly 10 % more: within the limit
    ]
    warnings = regressions(_committed(), rows)
    assert warnings == [
        "Journal: resume: 11.5 ms against 10.0 ms committed (+15%; lower is better)",
        "Journal: throughput: 850 actions/s against 1,000 actions/s committed (-15%; higher "
        "is better)",
    ]


def test_better_figures_new_ones_and_quick_files_are_not_warned() -> None:
    rows = [
        _row("resume", 5.0, "ms"),  # twice as fast
        _row("throughput", 2000.0, "actions/s"),
        _row("new figure", 99.0, "ms"),  # not in the committed file
        _row("heap", None, "KB"),  # not measured this time
        _row("throughput", 10.0, "games/s"),  # another unit: another figure
    ]
    assert regressions(_committed(), rows) == []
    worse = [_row("resume", 50.0, "ms")]
    assert regressions(_committed(quick=True), worse) == []  # other sizes are no reference
    assert regressions(_committed(), worse, quick=True) == []
    assert regressions(_committed(quick=True), worse, quick=True) != []
    assert regressions({}, worse) == []  # no committed file yet
    assert better("ms") == "lower" and better("actions/s") == "higher" and better("") is None


def test_the_run_is_stated_once_above_the_table() -> None:
    data = _committed()
    data["rows"] = [
        {
            "section": "Journal",
            "name": "resume | a game",
            "value": 9.87,
            "unit": "ms",
            "target": "≤ 1.5× the replay",
            "anchor": "rules-core replay alone: 8.0 ms",
            "verdict": "meets (×1.23 the replay)",
            "detail": {},
        }
    ]
    assert describe_run(data) == (
        "2026-11-22T05:24:43Z, 2 cores (Some CPU @ 2.20GHz), Python 3.11.7; load average 0.12 "
        "at the start, 1.5 at the end, 15.0 minutes"
    )
    older = {"generated_utc": "2026-11-22T05:24:43Z", "total_s": 48.9}
    older["machine"] = {"python": "3.11.7", "cpus": 2, "load_average_1m_at_start": 1.27}
    assert describe_run(older) == (  # a file of before the CPU model and the load at the end
        "2026-11-22T05:24:43Z, 2 cores, Python 3.11.7; load average 1.27 at the start, 0.8 minutes"
    )
    assert markdown(data).splitlines() == [
        f"Measured {describe_run(data)}.",
        "",
        "| figure | value | target | anchor (same run) | ratio / verdict |",
        "|---|---|---|---|---|",
        "| Journal: resume / a game | 9.87 ms | ≤ 1.5× the replay | rules-core replay alone: "
        "8.0 ms | meets (×1.23 the replay) |",
    ]


def test_the_readme_table_is_replaced_between_its_markers(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# Title\n\nbefore\n{TABLE_START}\n\nold table\n\n{TABLE_END}\nafter\n")
    write_readme_table(readme, "| new |")
    assert (
        readme.read_text() == f"# Title\n\nbefore\n{TABLE_START}\n\n| new |\n\n{TABLE_END}\nafter\n"
    )


def test_table_prints_a_results_file(tmp_path: Path) -> None:
    results = tmp_path / "results.json"
    results.write_text(json.dumps(_committed()), encoding="utf-8")
    printed = subprocess.run(
        [sys.executable, "-m", "bench", "--table", str(results)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    assert printed.startswith("Measured 2026-11-22T05:24:43Z, 2 cores")
    assert "| Journal: resume | 10.0 ms | - | - | - |" in printed


def test_the_bench_itself_warns_of_a_regression(tmp_path: Path) -> None:
    """A quick journal run against a quick results file whose resume took a microsecond."""
    against = tmp_path / "committed.json"
    committed = _committed(quick=True)
    committed["rows"] = [
        {"section": "Journal", "name": "one committed action (median)", "value": 1e-6, "unit": "ms"}
    ]
    against.write_text(json.dumps(committed), encoding="utf-8")
    out = tmp_path / "results.json"
    command = [sys.executable, "-m", "bench", "--quick", "--only", "journal"]
    printed = subprocess.run(
        [*command, "--against", str(against), "--out", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=240,
        check=True,
    ).stdout
    warning = next(line for line in printed.splitlines() if line.startswith("WARNING"))
    assert warning.startswith("WARNING: regression: Journal: one committed action (median): ")
    assert "against 1.00e-06 ms committed" in warning and "lower is better" in warning
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["machine"]["cpus"] >= 1 and data["machine"]["cpu_model"]
    assert "load_average_1m_at_end" in data["machine"]
    assert printed.startswith("Measured ")
