"""The headless table server as a user runs it: SEAT lines, READY, the tablet on stdin, a phone
over a real socket, re-pairing, and refusals for bad arguments."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
from phones_helpers import ServeProcess, seven_discard, write_journal_game

from companion_app.journal import Journal
from companion_app.phones.server import CLOSE_REPAIRED
from companion_app.rules.actions import DiscardCard


def ws_url(page_url: str) -> str:
    return page_url.replace("http://", "ws://").replace("/s/", "/ws/")


async def first_page(url: str) -> dict[str, Any]:
    async with aiohttp.ClientSession() as http, http.ws_connect(ws_url(url)) as ws:
        msg = await ws.receive(timeout=30)
        return dict(json.loads(msg.data)["page"])


def test_serve_prints_a_seat_line_per_seat_and_answers_reach_the_journal(tmp_path: Path) -> None:
    journal_path = tmp_path / "j.db"
    game = write_journal_game(journal_path, seven_discard)
    seat = game.prompt.player
    count = game.prompt.count
    before = len(game.history)

    with ServeProcess(journal_path, 1) as serve:
        assert sorted(serve.seats) == [0, 1, 2, 3]
        assert [serve.seats[s][0] for s in range(4)] == ["Red", "Blue", "White", "Orange"]
        urls = [serve.seats[s][1] for s in range(4)]
        assert len({u.rsplit("/", 1)[1] for u in urls}) == 4
        assert all(u.startswith("http://127.0.0.1:") for u in urls)

        async def phone() -> None:
            async with aiohttp.ClientSession() as http, http.ws_connect(ws_url(urls[seat])) as ws:
                page = json.loads((await ws.receive(timeout=30)).data)["page"]
                for i in range(count):
                    action = page["decision"]["choices"][0]["action"]
                    await ws.send_json({"type": "answer", "id": i, "action": action})
                    while True:
                        data = json.loads((await ws.receive(timeout=30)).data)
                        if data["type"] == "state":
                            page = data["page"]
                        if data["type"] == "result":
                            assert data["ok"], data
                            break

        assert serve.status()["waiting"] == ""
        asyncio.run(phone())
        for i in range(count):
            assert serve.expect("APPLIED ") == f"APPLIED {before + i} phone {seat} discard"
        status = serve.status()
        assert status["moves"] == before + count
        assert status["counters"]["answers:taken"] == count

        # The tablet undoes the phone's last answer like any other action.
        serve.send("UNDO")
        assert serve.expect("UNDONE ") == f"UNDONE {before + count - 1} discard"

        # Pairing a seat again: a new URL, and the old one's socket is closed.
        async def repair() -> None:
            async with aiohttp.ClientSession() as http, http.ws_connect(ws_url(urls[2])) as ws:
                await ws.receive(timeout=30)
                serve.send("PAIR 2")
                msg = await ws.receive(timeout=30)
                assert (msg.type, msg.data) == (aiohttp.WSMsgType.CLOSE, CLOSE_REPAIRED)
                async with http.get(urls[2]) as old:
                    assert old.status == 403

        asyncio.run(repair())
        _, seat2, name, new_url = serve.expect("SEAT ").split(" ")
        assert (seat2, name) == ("2", "White") and new_url != urls[2]
        assert asyncio.run(first_page(new_url))["seat"] == 2

        serve.send('ACTION {"type": "end_turn", "player": 0}')
        assert serve.expect("REFUSED ").startswith("REFUSED ")
        serve.send("ACTION [[[[[[[[[[")
        assert "nesting" in serve.expect("REFUSED ")
        assert serve.close() == 0

    with Journal(journal_path, create=False) as journal:
        history = journal.open_game(1).game.history
    assert len(history) == before + count - 1
    assert all(isinstance(a, DiscardCard) and a.player == seat for a in history[before:])


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion_app.phones", *args],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def test_serve_refuses_a_missing_journal_and_an_unknown_game_in_one_line(tmp_path: Path) -> None:
    missing = run_cli("serve", "--journal", str(tmp_path / "none.db"), "--game", "1")
    assert missing.returncode == 1 and "Traceback" not in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "none.db").exists()

    write_journal_game(tmp_path / "j.db", seven_discard)
    unknown = run_cli("serve", "--journal", str(tmp_path / "j.db"), "--game", "7")
    assert unknown.returncode == 1 and "Traceback" not in unknown.stderr
    assert "7" in unknown.stderr

    usage = run_cli("serve", "--journal", str(tmp_path / "j.db"))
    assert usage.returncode == 2
