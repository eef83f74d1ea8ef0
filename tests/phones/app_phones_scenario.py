"""The app with phones on, run as a script under an X display by test_app_phones.py.

Resumes a journal game waiting for a 7's discard, opens Phones (screenshot of the QR codes),
connects the deciding seat's phone (the banner says "Waiting for …'s phone"), answers the
discard from the phone, and writes what it saw as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import threading
from pathlib import Path
from typing import Any

import aiohttp

from companion_app.app.main import configure_kivy
from companion_app.i18n import render

configure_kivy(1280, 800)

from kivy.clock import Clock  # noqa: E402

from companion_app.app.companion import CompanionApp, save_screenshot  # noqa: E402
from companion_app.device.discovery import DiceSource  # noqa: E402


def phone(url: str, count: int, connected: threading.Event, go: threading.Event) -> None:
    """The deciding seat's phone: connect, wait for the go, answer ``count`` discards."""

    async def run() -> None:
        ws_url = url.replace("http://", "ws://").replace("/s/", "/ws/")
        async with aiohttp.ClientSession() as http, http.ws_connect(ws_url) as ws:
            page = json.loads(await ws.receive_str(timeout=30))["page"]
            connected.set()
            await asyncio.get_running_loop().run_in_executor(None, go.wait, 60)
            for i in range(count):
                action = page["decision"]["choices"][0]["action"]
                await ws.send_json({"type": "answer", "id": i, "action": action})
                while True:
                    data = json.loads(await ws.receive_str(timeout=30))
                    if data["type"] == "state":
                        page = data["page"]
                    elif data["type"] == "result":
                        break

    asyncio.run(run())


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--journal", type=Path, required=True)
    parser.add_argument("--artifacts", type=Path, required=True)
    parser.add_argument("--result", type=Path, required=True)
    args = parser.parse_args()
    result: dict[str, Any] = {}
    app = CompanionApp(dice=DiceSource(None), journal_path=args.journal)
    connected, go = threading.Event(), threading.Event()

    def step1(_dt: float) -> None:
        app.resume_game(1)
        game = app.session.game
        result["seat"] = seat = game.prompt.player
        result["count"] = count = game.prompt.count
        result["before"] = len(game.history)
        app.open_phones()
        result["urls"] = [app.phones.url(s) for s in range(game.player_count)]
        threading.Thread(
            target=phone, args=(result["urls"][seat], count, connected, go), daemon=True
        ).start()
        Clock.schedule_once(step2, 1.0)

    def step2(_dt: float) -> None:
        save_screenshot(args.artifacts / "app_phones_popup.png")
        for popup in list(app.root_window.children):
            if type(popup).__name__ == "PhonesPopup":
                popup.dismiss()
        if not connected.wait(30):
            result["error"] = "the phone did not connect"
            app.stop()
            return
        app.refresh()
        result["waiting"] = app.root.get_screen("game").details
        Clock.schedule_once(step3, 0.5)

    def step3(_dt: float) -> None:
        save_screenshot(args.artifacts / "app_phones_waiting.png")
        go.set()
        Clock.schedule_once(step4, 0.2)

    def step4(_dt: float) -> None:
        game = app.session.game
        if len(game.history) < result["before"] + result["count"]:
            Clock.schedule_once(step4, 0.2)
            return
        result["after"] = [a.to_json() for a in game.history[result["before"] :]]
        result["prompt_after"] = render(game.describe_prompt())
        result["can_undo"] = app.can_undo
        save_screenshot(args.artifacts / "app_phones_answered.png")
        app.show("home")
        result["stopped"] = app.phones is None
        app.stop()

    Clock.schedule_once(step1, 0.5)
    app.run()
    args.result.write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
