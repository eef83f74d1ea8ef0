"""`python -m companion_app.rules random-game ...`: play random legal games.

Prints one JSON line per game: ``{"seed", "winner", "turns", "actions"}``; with ``--check`` the
invariants are verified after every action and the first violation ends the run (exit 1); with
``--digest`` each line also carries ``"digest"``, a SHA-256 of the final state JSON, so two
versions of the rules core can be compared game by game.

Developer words: a tool for engineers (JSON lines, invariants), it prints no game words.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

from companion_app.rules.config import SCENARIOS
from companion_app.rules.randomplay import play_random_game


def state_digest(state: object) -> str:
    """SHA-256 (hex) of a state's JSON in one canonical spelling (sorted keys, no spaces)."""
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


SEED_MAX = 2**64 - 1


def _seed(text: str) -> int:
    """A game seed as the command line takes it: a whole number from 0 to 2**64 - 1."""
    digits = text.strip()
    whole = digits.isascii() and digits.isdigit() and len(digits) <= 20
    if not (whole and int(digits) <= SEED_MAX):
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} is not a seed (a whole number 0-{SEED_MAX})"
        )
    return int(digits)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion_app.rules")
    sub = parser.add_subparsers(dest="command", required=True)
    rg = sub.add_parser("random-game", help="play random legal games")
    rg.add_argument("--seed", type=_seed, default=0)
    rg.add_argument("--games", type=int, default=1)
    rg.add_argument("--players", type=int, choices=(3, 4, 5, 6), default=4)
    rg.add_argument("--max-turns", type=int, default=500)
    rg.add_argument("--scenario", choices=SCENARIOS, help="a Seafarers scenario (3-4 players)")
    rg.add_argument("--check", action="store_true", help="verify invariants after every action")
    rg.add_argument(
        "--digest", action="store_true", help="print a hash of each game's final state JSON"
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.seed + args.games - 1 > SEED_MAX:
        parser.error(f"--seed plus --games goes past the last seed, {SEED_MAX}")
    for seed in range(args.seed, args.seed + args.games):
        result = play_random_game(
            seed,
            players=args.players,
            max_turns=args.max_turns,
            check=args.check,
            scenario=args.scenario,
        )
        line = result.to_json()
        if args.digest and result.game is not None:
            line["digest"] = state_digest(result.game.to_json())
        print(json.dumps(line), flush=True)
        if result.violation:
            print(f"invariant violated: {result.violation}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
