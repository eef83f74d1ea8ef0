"""`python -m companion_app.rules random-game ...`: play random legal games.

Prints one JSON line per game: ``{"seed", "winner", "turns", "actions"}``; with ``--check`` the
invariants are verified after every action and the first violation ends the run (exit 1).
"""

from __future__ import annotations

import argparse
import json
import sys

from companion_app.rules.randomplay import play_random_game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion_app.rules")
    sub = parser.add_subparsers(dest="command", required=True)
    rg = sub.add_parser("random-game", help="play random legal games")
    rg.add_argument("--seed", type=int, default=0)
    rg.add_argument("--games", type=int, default=1)
    rg.add_argument("--players", type=int, choices=(3, 4), default=4)
    rg.add_argument("--max-turns", type=int, default=500)
    rg.add_argument("--check", action="store_true", help="verify invariants after every action")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    for seed in range(args.seed, args.seed + args.games):
        result = play_random_game(
            seed, players=args.players, max_turns=args.max_turns, check=args.check
        )
        print(json.dumps(result.to_json()), flush=True)
        if result.violation:
            print(f"invariant violated: {result.violation}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
