"""Crash-test worker: applies a seeded operation script through the journal, printing the
number of committed operations after each commit, until it is killed.

usage: python journal_crash_worker.py DB SEED LENGTH
"""

from __future__ import annotations

import sys

# Run as a script, so its own directory (with journal_helpers) is on sys.path.
from journal_helpers import APPLY, UNDO, op_script

from companion_app.journal import Journal


def main() -> None:
    db, seed, length = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    config, ops = op_script(seed, length)
    out = sys.stdout
    out.write("ready\n")
    out.flush()
    with Journal(db) as journal:
        session = journal.new_game(config)
        out.write(f"game {session.game_id}\n")
        out.flush()
        for done, op in enumerate(ops, 1):
            if op.kind == APPLY:
                assert op.action is not None
                session.apply(op.action)
            elif op.kind == UNDO:
                session.undo()
            else:
                session.redo()
            out.write(f"{done}\n")
            out.flush()
    out.write("done\n")
    out.flush()


if __name__ == "__main__":
    main()
