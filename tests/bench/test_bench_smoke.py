"""The benchmark harness runs end to end with tiny sizes and writes a well-formed results.json.

No timing is asserted here: numbers belong to `make bench`, not to the tests.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.link import p50_p99  # noqa: E402
from bench.table import NOT_AVAILABLE, Row, percentile, render, verdict  # noqa: E402

SECTIONS = ("rules", "journal", "standings", "link", "firmware", "phones")  # the app: Xvfb
ROW_KEYS = {"section", "name", "value", "unit", "target", "anchor", "verdict", "detail"}


def test_quick_run_writes_every_section(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    result = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--only", *SECTIONS, "--out", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["quick"] is True
    assert set(data["section_seconds"]) == set(SECTIONS)
    rows = data["rows"]
    assert all(set(row) == ROW_KEYS for row in rows)
    by_name = {f"{row['section']}: {row['name']}": row for row in rows}
    # The UI-frame probe drives a Kivy window under Xvfb and may report a failure of its own;
    # every other figure must have been measured or be plainly not available.
    failed = [n for n, row in by_name.items() if row["verdict"].startswith("failed")]
    assert [n for n in failed if "UI frame" not in n] == []
    pty = by_name.get("Link: press → roll applied (pty) p99, firmware in the VM")
    if pty is not None:
        assert pty["detail"]["presses"] == 20
        assert pty["anchor"].startswith("firmware on CPython")
    # Every measured figure is a positive finite number and appears in the printed table.
    for name, row in by_name.items():
        if row["value"] is not None:
            assert math.isfinite(row["value"]) and row["value"] > 0, name
            assert name in result.stdout
    nights = by_name["Game nights: standings and evenings over 12 finished games (p99)"]
    assert nights["detail"]["runs"] == 5 and nights["detail"]["evenings"] == 4
    throughput = by_name["Rules core: random playout throughput"]
    assert throughput["detail"]["ours_games"] == 1
    assert throughput["detail"]["ours_actions"] > 100  # a full game, not a stub
    heap = by_name["Firmware: peak heap, 50 rolls with display and flash (64-bit VM, .mpy)"]
    code = heap["detail"]["at_smallest"]["heap_code_bytes"]
    assert heap["detail"]["smallest_heapsize_bytes"] > code > 0
    assert heap["detail"]["at_smallest"]["rolls"] == 50
    assert heap["detail"]["at_smallest"]["unacked"] == 0
    phones = by_name["Phones: tablet action → 4 pages updated p99"]
    assert phones["detail"]["actions"] == 20 and phones["detail"]["phones"] == 4
    frame = by_name["Firmware: press → display frame shown, p99 (drawn in the VM + I2C)"]
    assert frame["detail"]["run"]["frame_us_median"] > 0  # frames were drawn and timed
    assert frame["value"] > frame["detail"]["i2c_frame_ms"]
    chi = by_name["Firmware: chi-square p, 6,000 rolls (lowest die)"]
    assert set(chi["detail"]["p_values"]) == {"yellow", "red", "event"}
    assert chi["value"] == min(chi["detail"]["p_values"].values())


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]  # 1..100
    assert percentile(values, 50) == 50.0
    assert percentile(values, 99) == 99.0
    assert percentile(values, 100) == 100.0
    assert percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert percentile([7.0], 99) == 7.0
    with pytest.raises(ValueError):
        percentile([], 50)


def test_verdicts_and_table() -> None:
    assert verdict(1.9, below=2) == "meets"
    assert verdict(2.0, below=2) == "misses"
    assert verdict(0.002, above=0.001) == "meets"
    assert verdict(None, below=2) == NOT_AVAILABLE
    rows = [
        Row("Journal", "commit", 0.5, "ms", "< 2 ms", "bare: 0.2 ms", "meets"),
        Row("Link", "press", None, "ms", "p99 < 10 ms", "-", NOT_AVAILABLE),
    ]
    lines = render(rows).splitlines()
    assert len(lines) == 4 and len({len(line) for line in lines}) == 1  # aligned columns
    assert "0.5 ms" in lines[2] and NOT_AVAILABLE in lines[3]


def test_latency_percentiles_of_samples() -> None:
    assert p50_p99([1.0] * 98 + [4.0, 9.0]) == (1.0, 4.0)
