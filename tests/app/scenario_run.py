"""The pytest side of the touch-driven UI scenarios (see ``scenario_driver.py``): run one in its
own process under a private X display and read back its checks. No Kivy is imported here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def run_scenario(
    script: Path,
    display: str,
    artifacts: Path,
    tmp: Path,
    *,
    timeout: float,
    args: tuple[str, ...] = (),
) -> dict[str, Any]:
    """Run a scenario under the X display ``display``; its result with the journal's path."""
    journal = tmp / "journal.sqlite3"
    result = tmp / "result.json"
    env = {**os.environ, "DISPLAY": display, "KIVY_NO_CONSOLELOG": "1"}
    command = [sys.executable, str(script), "--journal", str(journal)]
    command += ["--artifacts", str(artifacts), "--result", str(result), *args]
    proc = subprocess.run(
        command, env=env, cwd=script.parent, capture_output=True, text=True, timeout=timeout
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    report: dict[str, Any] = json.loads(result.read_text())
    report.update(journal=journal, tmp=tmp, artifacts=artifacts)
    return report


def failure_lines(report: dict[str, Any]) -> str:
    """The failed checks, one line each, for an assertion message."""
    return "\n".join(
        f"{f['name']}: shown {f['shown']}, expected {f['expected']}" for f in report["failures"]
    )
