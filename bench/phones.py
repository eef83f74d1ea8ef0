"""Phones: a tablet action → every phone's page updated, with four phones connected.

The headless table server (``python -m companion_app.phones serve``) runs a journal game; the
bench plays the tablet on its standard input (``ACTION …``) and four phones on WebSockets.
Per action: the time from writing the command until the server's ``APPLIED`` line (the rules
core checked it and the journal committed it: the anchor, what any tablet action costs), and
until all four phones hold the page of the new position (each page names its move number).
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from bench.journal import scripted_actions
from bench.table import Row, median, percentile, verdict
from companion_app.journal.store import Journal

SECTION = "Phones"
PHONES = 4
TARGET_P99_MS = 200.0


@dataclass
class Sizes:
    actions: int = 1000


async def _measure(journal: Path, game_id: int, script: list[str]) -> tuple[list[float], ...]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "companion_app.phones", "serve", "--journal", str(journal),
        "--game", str(game_id), "--host", "127.0.0.1", "--port", "0",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    urls = []
    while (line := (await proc.stdout.readline()).decode().strip()) != "READY":
        if not line:
            raise RuntimeError("the table server ended before READY")
        urls.append(line.split(" ")[3].replace("http://", "ws://").replace("/s/", "/ws/"))
    applied: list[float] = []
    updated: list[float] = []
    per_phone: list[float] = []
    async with aiohttp.ClientSession() as http:
        sockets = [await http.ws_connect(url) for url in urls[:PHONES]]
        for ws in sockets:
            await ws.receive_json(timeout=30)  # the page as it stands
        for moves, command in enumerate(script, start=1):
            start = time.perf_counter()
            proc.stdin.write(command.encode() + b"\n")
            await proc.stdin.drain()

            async def page_of(ws: aiohttp.ClientWebSocketResponse, moves: int = moves) -> float:
                while True:
                    data = json.loads(await ws.receive_str(timeout=30))
                    if data["type"] == "state" and data["page"]["turn"]["moves"] == moves:
                        return time.perf_counter()

            async def applied_line() -> float:
                line = (await proc.stdout.readline()).decode()  # type: ignore[union-attr]
                if not line.startswith("APPLIED "):
                    raise RuntimeError(f"the server refused a scripted action: {line.strip()}")
                return time.perf_counter()

            done = await asyncio.gather(applied_line(), *(page_of(ws) for ws in sockets))
            applied.append(done[0] - start)
            per_phone += [t - start for t in done[1:]]
            updated.append(max(done[1:]) - start)
        for ws in sockets:
            await ws.close()
    proc.stdin.write(b"QUIT\n")
    await proc.stdin.drain()
    await asyncio.wait_for(proc.wait(), 30)
    return applied, updated, per_phone


def run(sizes: Sizes) -> list[Row]:
    config, actions = scripted_actions(sizes.actions)
    script = ["ACTION " + json.dumps(a.to_json(), separators=(",", ":")) for a in actions]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "j.db"
        with Journal(path) as journal:
            game_id = journal.new_game(config).game_id
        applied, updated, per_phone = asyncio.run(_measure(path, game_id, script))
    ms = 1000.0
    p50, p99 = percentile(updated, 50) * ms, percentile(updated, 99) * ms
    a50, a99 = percentile(applied, 50) * ms, percentile(applied, 99) * ms
    detail = {
        "actions": len(updated),
        "phones": PHONES,
        "applied_p50_ms": a50,
        "applied_p99_ms": a99,
        "one_phone_p50_ms": percentile(per_phone, 50) * ms,
        "one_phone_p99_ms": percentile(per_phone, 99) * ms,
        "worst_ms": max(updated) * ms,
        "median_over_applied_ms": (median(updated) - median(applied)) * ms,
    }
    return [
        Row(
            SECTION,
            f"tablet action → {PHONES} pages updated p50",
            p50,
            "ms",
            "-",
            f"action applied and journaled p50: {a50:.2f} ms",
            "-",
            detail,
        ),
        Row(
            SECTION,
            f"tablet action → {PHONES} pages updated p99",
            p99,
            "ms",
            f"p99 < {TARGET_P99_MS:.0f} ms",
            f"action applied and journaled p99: {a99:.2f} ms",
            verdict(p99, below=TARGET_P99_MS),
            detail,
        ),
    ]
