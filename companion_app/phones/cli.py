"""`python -m companion_app.phones serve`: the table server for a journal game, without a window.

It prints one ``SEAT <n> <name> <url>`` line per seat (n counts from 0, as the rules core's
seats do), then ``READY``. Standard input stands in for the tablet, one command a line:

    ACTION <action JSON>   the tablet takes an action        → APPLIED <index> tablet <type>
    UNDO / REDO            through the journal                → UNDONE / REDONE <index> <type>
    PAIR <n>               pair seat n again                  → SEAT <n> <name> <new url>
    STATUS                 → STATUS {"prompt", "waiting", "moves", "connected", "counters"}
    QUIT                   (or end of input) stop

A phone's answer prints ``APPLIED <index> phone <seat> <type>``; a refused command prints
``REFUSED <reason>``. Exit codes: 0 done, 1 an error (message on stderr), 2 bad usage.
"""

from __future__ import annotations

import argparse
import json
import queue
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType

from companion_app.journal import GameSession, Journal, JournalError
from companion_app.phones.pairing import lan_address, qr_text
from companion_app.phones.server import TableServer
from companion_app.phones.table import PhoneTable
from companion_app.rules.actions import Action, action_from_json
from companion_app.rules.errors import IllegalActionError
from companion_app.untrusted_json import JsonLimits, UntrustedJsonError, loads

PROG = "python -m companion_app.phones"
COMMAND_LIMITS = JsonLimits(max_bytes=4096, max_depth=4, max_digits=10, max_items=16)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Each player's hand on their own phone: the table server without a window.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serve = sub.add_parser(
        "serve",
        help="serve a journal game's seat pages; standard input stands in for the tablet",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    serve.add_argument("--journal", type=Path, required=True, metavar="FILE")
    serve.add_argument("--game", type=int, required=True, metavar="ID")
    serve.add_argument(
        "--host", default=None, help="address to listen on (default: this machine's LAN address)"
    )
    serve.add_argument("--port", type=int, default=8765, help="0 picks a free port (default 8765)")
    serve.add_argument("--qr", action="store_true", help="draw each seat's QR code on stderr")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not 0 <= args.port <= 65535:
        print(f"{PROG}: --port {args.port} is not a port number", file=sys.stderr)
        return 2
    try:
        journal = Journal(args.journal, create=False)
    except JournalError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1
    with journal:
        try:
            session = journal.open_game(args.game)
        except JournalError as exc:
            print(f"{PROG}: {exc}", file=sys.stderr)
            return 1
        return _serve(session, args.host or lan_address(), args.port, qr=args.qr)


def _say(line: str) -> None:
    print(line, flush=True)


def _serve(session: GameSession, host: str, port: int, *, qr: bool) -> int:
    tasks: queue.Queue[Callable[[], None] | str | None] = queue.Queue()
    names = session.game.config.names

    def on_answer(seat: int, action: Action) -> None:
        _say(f"APPLIED {len(session.game.history) - 1} phone {seat} {action.type_name}")

    table = PhoneTable(lambda: session.game, session.apply, on_answer=on_answer)
    try:
        server = table.serve(tasks.put, host=host, port=port)
    except OSError as exc:
        print(f"{PROG}: cannot listen on {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
        return 1

    def seat_line(seat: int, url: str) -> None:
        _say(f"SEAT {seat} {names[seat]} {url}")
        if qr:
            print(f"{names[seat]}:\n{qr_text(url)}", file=sys.stderr, flush=True)

    for seat in range(len(names)):
        seat_line(seat, table.url(seat))

    def read_stdin() -> None:
        for line in sys.stdin:
            tasks.put(line)
        tasks.put(None)

    def on_signal(_signum: int, _frame: FrameType | None) -> None:
        tasks.put(None)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    threading.Thread(target=read_stdin, name="stdin", daemon=True).start()
    _say("READY")
    try:
        while True:
            item = tasks.get()
            if item is None:
                break
            if callable(item):
                item()
                continue
            if not _command(item.strip(), session, table, server, seat_line):
                break
    finally:
        table.stop()
    return 0


def _command(
    line: str,
    session: GameSession,
    table: PhoneTable,
    server: TableServer,
    seat_line: Callable[[int, str], None],
) -> bool:
    """Run one tablet command; False to stop."""
    word, _, rest = line.partition(" ")
    word = word.upper()
    try:
        if word == "QUIT":
            return False
        if word == "ACTION":
            action = action_from_json(loads(rest, COMMAND_LIMITS))
            index = session.apply(action)
            _say(f"APPLIED {index} tablet {action.type_name}")
            table.publish()
        elif word in ("UNDO", "REDO"):
            step = session.undo() if word == "UNDO" else session.redo()
            table.publish()
            _say(f"{word}NE {step.index} {step.type_name}")
        elif word == "PAIR":
            seat = int(rest)
            if not 0 <= seat < session.game.player_count:
                raise ValueError(f"no seat {seat}")
            seat_line(seat, table.pair(seat))
        elif word == "STATUS":
            status = {
                "prompt": str(session.game.describe_prompt()),
                "waiting": table.waiting_for(),
                "moves": len(session.game.history),
                "connected": {str(k): v for k, v in server.connected().items()},
                "counters": server.counters(),
            }
            _say("STATUS " + json.dumps(status, sort_keys=True))
        elif word:
            raise ValueError(f"unknown command {word!r}")
    except (IllegalActionError, JournalError, UntrustedJsonError, ValueError) as exc:
        _say(f"REFUSED {' '.join(str(exc).split())}")
    return True
