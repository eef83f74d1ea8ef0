"""Taps at the table, counted on the real widgets under a private Xvfb.

- A 7 with two players over the hand limit (``tests/app/seven_taps_scenario.py``): from the roll
  to the robber, every tap of both discarding players, the tablet's passing included (each
  player's "Show my cards"), confirming the picker's suggestion. Anchor, from the same 7: the
  taps a one-button-per-card discard takes (each player's reveal, then one tap per card).
- A turn in which nobody special-builds (5-6 players, ``special_build_taps_scenario.py``): End
  turn and "Nobody builds", the dice box rolling. Target: one tap more than a turn of four
  players (End turn), counted the same way.
- Taps per turn over the long scripted game the UI tests play (``long_game_scenario.py``): every
  tap from one End turn to the next, the median over the game's turns. Anchor: the planned
  actions per turn (median), the count if every action were one tap.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from shutil import which

from bench.app import xvfb
from bench.table import NOT_AVAILABLE, Row, verdict

SECTION = "UI"
HERE = Path(__file__).resolve().parent
SCENARIOS = HERE.parent / "tests" / "app"
SEVEN_TARGET = 8


@dataclass
class Sizes:
    long_game: bool = True


def _run(name: str, display: str, tmp: Path, timeout: int) -> dict[str, object]:
    if str(SCENARIOS) not in sys.path:
        sys.path.insert(0, str(SCENARIOS))
    from scenario_run import run_scenario  # the UI tests' runner: the same process setup

    artifacts = tmp / "artifacts"
    artifacts.mkdir(exist_ok=True)
    work = tmp / name
    work.mkdir()
    return run_scenario(SCENARIOS / f"{name}.py", display, artifacts, work, timeout=timeout)


def run(sizes: Sizes) -> list[Row]:
    seven_name = "taps: 7 with two players over the limit"
    turn_name = "taps per turn (long scripted game, median)"
    if which("Xvfb") is None:
        why = f"{NOT_AVAILABLE}: Xvfb missing (apt-get install xvfb)"
        return [Row(SECTION, seven_name, None, "taps", f"≤ {SEVEN_TARGET}", "-", why)]
    rows = []
    with tempfile.TemporaryDirectory() as tmp, xvfb() as display:
        rows.append(
            _special_build_row(_run("special_build_taps_scenario", display, Path(tmp), 300))
        )
        seven = _run("seven_taps_scenario", display, Path(tmp), 300)
        passes = seven.get("passes") or []
        taps = next((p["taps"] for p in passes if not p["changed"]), None)  # type: ignore[index]
        per_card = seven.get("per_card_taps")
        if seven.get("error") or taps is None:
            rows.append(
                Row(SECTION, seven_name, None, "taps", f"≤ {SEVEN_TARGET}", "-", "scenario failed")
            )
        else:
            rows.append(
                Row(
                    SECTION,
                    seven_name,
                    float(taps),
                    "taps",
                    f"≤ {SEVEN_TARGET}",
                    f"one tap per card: {per_card} taps",
                    verdict(float(taps), below=SEVEN_TARGET + 0.5),
                    {"passes": passes},
                )
            )
        if sizes.long_game:
            game = _run("long_game_scenario", display, Path(tmp), 1500)
            per_turn = game.get("taps_per_turn") or []
            actions = game.get("actions_per_turn") or []
            if game.get("error") or not per_turn:
                rows.append(Row(SECTION, turn_name, None, "taps", "-", "-", "scenario failed"))
            else:
                rows.append(
                    Row(
                        SECTION,
                        turn_name,
                        float(statistics.median(per_turn)),  # type: ignore[arg-type]
                        "taps",
                        "-",
                        f"planned actions per turn (median): {statistics.median(actions)}",  # type: ignore[arg-type]
                        "-",
                        {"turns": len(per_turn), "taps": game.get("taps")},
                    )
                )
    return rows


def _special_build_row(report: dict[str, object]) -> Row:
    """The taps of a turn where nobody special-builds, against a turn of four players."""
    name = "taps: a turn where nobody special-builds (5-6 players)"
    taps = report.get("taps") or {}
    if report.get("error") or not isinstance(taps, dict) or "nobody" not in taps:
        return Row(SECTION, name, None, "taps", "four players' + 1", "-", "scenario failed")
    four, nobody = int(taps["four"]), int(taps["nobody"])
    return Row(
        SECTION,
        name,
        float(nobody),
        "taps",
        f"≤ {four + 1} (four players' + 1)",
        f"four players: {four} taps; the next player's roll ending it: {taps.get('roll')} taps",
        verdict(float(nobody), below=four + 1.5),
        {"taps": taps},
    )
