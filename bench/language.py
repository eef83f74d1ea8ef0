"""A language switch on the game screen: from the switch to the next frame drawn, p99, under a
private Xvfb (`bench.language_probe`). Anchor, from the same run: a refresh of the game screen in
one language to the next frame (what every tap costs), p99."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from shutil import which

from bench.app import xvfb
from bench.table import NOT_AVAILABLE, Row, percentile, verdict

SECTION = "Language"
TARGET_MS = 300.0
HERE = Path(__file__).resolve().parent


@dataclass
class Sizes:
    switches: int = 60


def run(sizes: Sizes) -> list[Row]:
    name = "language switch on the game screen → next frame, p99"
    if which("Xvfb") is None:
        why = f"{NOT_AVAILABLE}: Xvfb missing (apt-get install xvfb)"
        return [Row(SECTION, name, None, "ms", f"< {TARGET_MS:.0f} ms", "-", why)]
    with tempfile.TemporaryDirectory() as tmp, xvfb() as display:
        out = Path(tmp) / "language.json"
        env = {**os.environ, "DISPLAY": display, "PYTHONPATH": str(HERE.parent)}
        command = [sys.executable, "-m", "bench.language_probe", str(sizes.switches), str(out)]
        subprocess.run(command, env=env, cwd=HERE.parent, capture_output=True, timeout=240)
        data = json.loads(out.read_text()) if out.exists() else {"errors": ["no result"]}
    switch_ms, refresh_ms = data.get("switch_ms") or [], data.get("refresh_ms") or []
    if data.get("errors") or not switch_ms or not refresh_ms:
        why = "; ".join(data.get("errors") or ["no samples"])[:120]
        return [Row(SECTION, name, None, "ms", f"< {TARGET_MS:.0f} ms", "-", why)]
    p99 = percentile(switch_ms, 99)
    anchor = percentile(refresh_ms, 99)
    return [
        Row(
            SECTION,
            name,
            p99,
            "ms",
            f"< {TARGET_MS:.0f} ms",
            f"refresh in one language: p99 {anchor:.0f} ms",
            verdict(p99, below=TARGET_MS),
            {
                "switches": len(switch_ms),
                "switch_p50_ms": percentile(switch_ms, 50),
                "refresh_p50_ms": percentile(refresh_ms, 50),
                "refresh_p99_ms": anchor,
            },
        )
    ]
