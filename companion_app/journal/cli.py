"""`python -m companion_app.journal list|show|export|import|replay|standings|people`: the journal
from a shell.

What it prints for a person speaks ``--lang``: its own words through the catalogues, numbers and
dates as the language writes them (:func:`companion_app.i18n.number`, :func:`~.i18n.day`). The
options' help, JSON, CSV and the state stay as they are: they are read by programs too.

Exit codes: 0 done, 1 an error (the message is on stderr), 2 bad usage.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Sequence
from datetime import date, datetime
from pathlib import Path

from companion_app.i18n import (
    LANGUAGES,
    SOURCE,
    day,
    moment,
    number,
    render,
    render_error,
    use_language,
)
from companion_app.i18n.current import _, current, n_
from companion_app.journal.errors import JournalError, JournalNotFoundError
from companion_app.journal.exchange import parse_export_text
from companion_app.journal.paths import default_db_path
from companion_app.journal.standings import (
    Evening,
    FinishedGame,
    evenings,
    evenings_csv,
    finished_games,
    games_csv,
    standings,
    standings_csv,
)
from companion_app.journal.store import GameSummary, Journal
from companion_app.journal.upgrade import backup_note
from companion_app.presenters.forms import COLOUR_WORDS
from companion_app.presenters.standings_presenter import HEADER, standing_cells
from companion_app.rules.actions import Action
from companion_app.rules.game import Game
from companion_app.rules.messages import N_

PROG = "python -m companion_app.journal"
_EPILOG = """\
examples:
  %(prog)s list --unfinished
  %(prog)s show 3
  %(prog)s export 3 -o game3.json
  %(prog)s import game3.json
  %(prog)s replay --file game3.json --upto 40
  %(prog)s standings
  %(prog)s standings --games --csv > games.csv

exit codes: 0 done, 1 error (message on stderr), 2 bad usage.
"""


class CliError(Exception):
    """A problem to report on stderr with exit code 1."""


LIST_HEADER = (N_("game"), N_("status"), N_("last played"), N_("actions"), N_("players"))


def build_parser() -> argparse.ArgumentParser:
    default = default_db_path()
    db_help = f"the journal database (default: {default}; $XDG_DATA_HOME moves it)"
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=(
            "The game journal: every game played with the companion app, action by action. "
            "List and inspect games, export one to a JSON file, import or replay such a file."
        ),
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--db", type=Path, default=default, metavar="PATH", help=db_help)
    parser.add_argument(
        "--lang",
        choices=sorted(LANGUAGES),
        default=SOURCE,
        metavar="LL",
        help=(
            "the language it prints in: words, numbers and dates (default: en; "
            + ", ".join(LANGUAGES)
            + ")"
        ),
    )
    # --db is also accepted after the command; there it does not reset the value given before.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", type=Path, default=argparse.SUPPRESS, metavar="PATH", help=db_help)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser(
        "list",
        parents=[common],
        help="list the games, most recently played first",
        description="List the games in the journal, most recently played first.",
    )
    p.add_argument("--unfinished", action="store_true", help="only games without a winner yet")
    p.add_argument("--json", action="store_true", help="one JSON object per line")

    p = sub.add_parser(
        "show",
        parents=[common],
        help="show one game: players, status, whose decision, last actions",
        description="Show one game: players, status, whose decision it is, the last actions.",
    )
    p.add_argument("game_id", type=int, metavar="GAME_ID", help="the game's number (see list)")
    p.add_argument(
        "--actions",
        type=int,
        default=10,
        metavar="N",
        help="how many of the last actions to list (default 10, 0 for none, -1 for all)",
    )
    p.add_argument("--state", action="store_true", help="print the full state JSON instead")

    p = sub.add_parser(
        "export",
        parents=[common],
        help="write a game to a JSON file (config + actions)",
        description=(
            "Write a game (its config and the actions in effect; undone actions are left out) "
            "to one versioned JSON file that `import` and `replay --file` read."
        ),
    )
    p.add_argument("game_id", type=int, metavar="GAME_ID", help="the game's number (see list)")
    p.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write to FILE (default: stdout)"
    )
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")

    p = sub.add_parser(
        "import",
        parents=[common],
        help="add a game from an export file as a new game",
        description=(
            "Check an export file (every action is replayed; the first problem is reported) "
            "and add it to the journal as a new game. Creates the journal if needed."
        ),
    )
    p.add_argument("file", metavar="FILE", help="the export file, - for stdin")

    p = sub.add_parser(
        "replay",
        parents=[common],
        help="replay a game and print its state JSON",
        description=(
            "Replay a game from the journal (GAME_ID) or from an export file (--file) and print "
            "the resulting state as JSON, or a summary."
        ),
    )
    p.add_argument("game_id", type=int, nargs="?", metavar="GAME_ID", help="a game in the journal")
    p.add_argument("--file", metavar="FILE", help="an export file instead (- for stdin)")
    p.add_argument(
        "--upto", type=int, metavar="N", help="stop after the first N actions (default: all)"
    )
    p.add_argument("--summary", action="store_true", help="print a summary, not the state JSON")

    p = sub.add_parser(
        "standings",
        parents=[common],
        help="lifetime standings, evenings, each game's luck",
        description=(
            "Lifetime standings per person (games, wins, average VP, longest roads, Defender "
            "cards, metropolises, luck), then the last evening. Luck: cards the dice gave "
            "against what fair dice would have given the same buildings on average."
        ),
    )
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--games", action="store_true", help="each finished game, seat by seat")
    shown.add_argument("--evenings", action="store_true", help="each evening's games and winners")
    p.add_argument("--csv", action="store_true", help="CSV instead of a table")

    p = sub.add_parser(
        "people",
        parents=[common],
        help="everyone who has played, with their colour; rename one",
        description=(
            "Everyone who has played at this table, most recently played first. With "
            "--rename OLD NEW a person takes another name; their games stay theirs."
        ),
    )
    p.add_argument("--rename", nargs=2, metavar=("OLD", "NEW"), help="give a person a new name")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    use_language(args.lang)
    if args.command == "replay" and (args.game_id is None) == (args.file is None):
        parser.error("replay takes either GAME_ID or --file FILE")
    if getattr(args, "upto", None) is not None and args.upto < 0:
        parser.error("--upto must be >= 0")
    try:
        handler = _COMMANDS[args.command]
        handler(args)
    except (JournalError, CliError) as exc:
        print(f"error: {render_error(exc)}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        with contextlib.suppress(OSError):
            sys.stdout.close()
        return 1
    return 0


# ---- commands --------------------------------------------------------------------------------


def _journal(db: Path, *, create: bool, make_parents: bool = False) -> Journal:
    """The journal at ``db``; an older one upgraded by this open says where its copy went (on
    stderr: standard output stays the command's own)."""
    journal = Journal(db, create=create, make_parents=make_parents)
    if journal.backup is not None:
        print(backup_note(journal.backup), file=sys.stderr)
    return journal


def _cmd_list(args: argparse.Namespace) -> None:
    try:
        journal = _journal(args.db, create=False)
    except JournalNotFoundError:
        if not args.json:
            print(_("No games yet (no journal at {path}).").format(path=args.db))
        return
    with journal:
        games = journal.games(unfinished_only=args.unfinished)
    if args.json:
        for g in games:
            print(json.dumps(g.to_json()))
        return
    if not games:
        print(_("No unfinished games.") if args.unfinished else _("No games."))
        return
    heads = [_(LIST_HEADER[0]), _(LIST_HEADER[1]), _(LIST_HEADER[2]), _(LIST_HEADER[3])]
    rows = [[str(g.id), _status(g), _when(g.updated_at), str(g.action_count)] for g in games]
    table = _table(heads, rows, right={0, 3})
    print(f"{table[0]}  {_(LIST_HEADER[4])}")
    for line, g in zip(table[1:], games, strict=True):
        print(f"{line}  {', '.join(g.players)}")


def _cmd_show(args: argparse.Namespace) -> None:
    with _journal(args.db, create=False) as journal:
        summary = journal.summary(args.game_id)
        session = journal.open_game(args.game_id)
    game = session.game
    if args.state:
        print(json.dumps(game.to_json(), indent=2))
        return
    config = game.config
    names = config.names
    print(_("Game {number}: {status}").format(number=summary.id, status=_status(summary)))
    print(
        _("Players: {players} (seed {seed}, first player {first}, {target} VP to win)").format(
            players=", ".join(names),
            seed=config.seed,
            first=names[config.first_player],
            target=config.vp_target,
        )
    )
    print(
        _("Started: {started}   last change: {changed}").format(
            started=_when(summary.created_at), changed=_when(summary.updated_at)
        )
    )
    if summary.redo_count:
        print(
            _("Actions: {count}, {undone} undone (can be redone)").format(
                count=summary.action_count, undone=summary.redo_count
            )
        )
    else:
        print(_("Actions: {count}").format(count=summary.action_count))
    print(_("Now: {status}").format(status=render(game.describe_prompt())))
    print(_("Victory points: {points}").format(points=_points(game, names)))
    history = session.actions
    count = len(history) if args.actions < 0 else min(args.actions, len(history))
    if count:
        print(_("Last actions:") if count < len(history) else _("Actions:"))
        for index in range(len(history) - count, len(history)):
            print(f"  {index:>5}  {_describe(history[index], names)}")


def _cmd_export(args: argparse.Namespace) -> None:
    with _journal(args.db, create=False) as journal:
        document = journal.export_game(args.game_id)
    text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    if args.output is None:
        sys.stdout.write(text)
        return
    out: Path = args.output
    if out.exists() and not args.force:
        raise CliError(_("{path} exists; use --force to replace it").format(path=out))
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, out)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise CliError(
            _("cannot write {path}: {why}").format(path=out, why=exc.strerror or exc)
        ) from exc
    print(
        _("game {number} exported to {path}").format(number=args.game_id, path=out),
        file=sys.stderr,
    )


def _cmd_import(args: argparse.Namespace) -> None:
    checked = parse_export_text(_read_input(args.file))
    with _journal(args.db, create=True, make_parents=args.db == default_db_path()) as journal:
        session = journal.add_validated(checked)
        print(
            n_(
                "imported as game {number} ({count} action; now {status})",
                "imported as game {number} ({count} actions; now {status})",
                len(session.actions),
                number=session.game_id,
                status=render(session.game.describe_prompt()),
            )
        )


def _cmd_replay(args: argparse.Namespace) -> None:
    if args.file is not None:
        checked = parse_export_text(_read_input(args.file))
        config, actions = checked.config, checked.actions
        source = args.file
    else:
        with _journal(args.db, create=False) as journal:
            session = journal.open_game(args.game_id)
        config, actions = session.game.config, session.actions
        source = _("game {number}").format(number=args.game_id)
    if args.upto is not None:
        if args.upto > len(actions):
            raise CliError(
                n_(
                    "{source} has only {count} action, not {upto}",
                    "{source} has only {count} actions, not {upto}",
                    len(actions),
                    source=source,
                    upto=args.upto,
                )
            )
        actions = actions[: args.upto]
    game = Game.replay(config, actions)
    if args.summary:
        print(
            n_(
                "{source}: {count} action replayed, turn {turn}",
                "{source}: {count} actions replayed, turn {turn}",
                len(actions),
                source=source,
                turn=game.turn,
            )
        )
        print(_("Now: {status}").format(status=render(game.describe_prompt())))
        print(_("Victory points: {points}").format(points=_points(game, config.names)))
        return
    print(json.dumps(game.to_json(), indent=2))


def _cmd_standings(args: argparse.Namespace) -> None:
    try:
        journal = _journal(args.db, create=False)
    except JournalNotFoundError:
        raise CliError(_("no journal at {path}, so no games yet").format(path=args.db)) from None
    with journal:
        rows = standings(journal.conn)
        games = finished_games(journal.conn)
    if args.csv:
        if args.games:
            sys.stdout.write(games_csv(games))
        elif args.evenings:
            sys.stdout.write(evenings_csv(evenings(games)))
        else:
            sys.stdout.write(standings_csv(rows))
        return
    if args.games:
        _print_games(games)
        return
    if args.evenings:
        for evening in evenings(games):
            _print_evening(evening)
        return
    if not rows:
        print(_("No finished games yet."))
        return
    print(n_("Standings after {count} game", "Standings after {count} games", len(games)))
    heads = [_(head) if head else "" for head in HEADER]
    lines = [list(standing_cells(r)) for r in rows]
    for line in _table(heads, lines, right=set(range(1, len(heads)))):
        print(f"  {line}")
    latest = evenings(games)
    if latest:
        print()
        _print_evening(latest[0])


def _print_evening(evening: Evening) -> None:
    """``Fri, Nov 20, 2026: 2 games, won by Ben and Dan``, as the Standings screen says it."""
    games = n_("{count} game", "{count} games", len(evening.games))
    winners = current().join(list(evening.winners)) or _("nobody")
    print(
        _("{date}: {games}, won by {winners}").format(
            date=day(evening.day), games=games, winners=winners
        )
    )


def _print_games(games: Sequence[FinishedGame]) -> None:
    for game in games:
        winner = game.winner
        print(
            _("Game {number}, {date}: won by {winner}").format(
                number=game.game_id,
                date=day(game.evening),
                winner=winner.name if winner else _("nobody"),
            )
        )
        rows = []
        for s in game.seats:
            marks = [_("longest road")] if s.longest_road else []
            if s.defender_cards:
                marks.append(
                    n_("{count} Defender of Catan", "{count} Defenders of Catan", s.defender_cards)
                )
            if s.metropolises:
                marks.append(n_("{count} metropolis", "{count} metropolises", s.metropolises))
            rows.append(
                [
                    s.name,
                    _("{vp} VP").format(vp=s.vp),
                    _("{cards} cards for {expected} expected ({luck})").format(
                        cards=s.produced,
                        expected=number(s.expected_36 / 36, 1),
                        luck=number(s.luck, 1, signed=True),
                    ),
                    ", ".join(marks),
                ]
            )
        for line in _table([], rows, right={1}):
            print(f"  {line}".rstrip())


def _cmd_people(args: argparse.Namespace) -> None:
    try:
        journal = _journal(args.db, create=False)
    except JournalNotFoundError:
        if args.rename:
            raise CliError(
                _("no journal at {path}, so nobody to rename").format(path=args.db)
            ) from None
        print(_("Nobody yet (no journal at {path}).").format(path=args.db))
        return
    with journal:
        if args.rename:
            person = journal.rename_person(*args.rename)
            print(_("{old} is now called {new}").format(old=args.rename[0], new=person.name))
            return
        everyone = journal.people()
    if not everyone:
        print(_("Nobody yet."))
    rows = [
        [
            p.name,
            _(COLOUR_WORDS.get(p.colour, p.colour)),
            _("last played {date}").format(date=_last_played(p.last_played)),
        ]
        for p in everyone
    ]
    for line in _table([], rows, right=set()):
        print(line)


_COMMANDS = {
    "list": _cmd_list,
    "show": _cmd_show,
    "export": _cmd_export,
    "import": _cmd_import,
    "replay": _cmd_replay,
    "standings": _cmd_standings,
    "people": _cmd_people,
}


# ---- helpers ---------------------------------------------------------------------------------


def _read_input(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(name).read_bytes()
    except OSError as exc:
        raise CliError(
            _("cannot read {path}: {why}").format(path=name, why=exc.strerror or exc)
        ) from exc


def _status(summary: GameSummary) -> str:
    if summary.finished:
        return _("won by {winner}").format(winner=summary.winner_name)
    return _("unfinished")


def _points(game: Game, names: Sequence[str]) -> str:
    return ", ".join(f"{n} {game.victory_points(p)}" for p, n in enumerate(names))


def _when(stamp: str) -> str:
    """An ISO 8601 time of the journal in the language's form and the local time zone (the
    stamp as it is if it is not one: rows are untrusted)."""
    try:
        return moment(datetime.fromisoformat(stamp))
    except ValueError:
        return stamp[:40]


def _last_played(stamp: str) -> str:
    """The day of an ISO 8601 time in the language's form (the stamp as it is if it is not
    one: rows are untrusted)."""
    try:
        return day(date.fromisoformat(stamp[:10]))
    except ValueError:
        return stamp[:10]


def _table(heads: Sequence[str], rows: Sequence[Sequence[str]], *, right: set[int]) -> list[str]:
    """The rows (under ``heads``, if any) in columns as wide as their widest text, whatever the
    language's words: the columns in ``right`` aligned right (numbers), the others left."""
    lines = [list(heads), *map(list, rows)] if heads else [list(row) for row in rows]
    if not lines:
        return []
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    return [
        "  ".join(
            cell.rjust(width) if i in right else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(line, widths, strict=True))
        ).rstrip()
        for line in lines
    ]


def _describe(action: Action, names: tuple[str, ...]) -> str:
    who = names[action.player] if 0 <= action.player < len(names) else f"seat {action.player}"
    fields = {k: v for k, v in action.to_json().items() if k not in ("type", "player")}
    details = " ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in fields.items())
    return f"{who}: {action.type_name} {details}".rstrip()
