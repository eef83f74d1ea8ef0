"""``python -m companion_app.i18n extract|update|compile|check``: the catalogues' upkeep."""

from __future__ import annotations

import argparse
import sys

from companion_app.i18n import catalogues


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion_app.i18n",
        description="Extract message ids, update the languages' catalogues, compile, check.",
    )
    parser.add_argument(
        "command",
        choices=["extract", "update", "compile", "check"],
        help="extract: code → companion.pot; update: .pot → each .po; compile: .po → .mo; "
        "check: what make test checks",
    )
    args = parser.parse_args(argv)
    try:
        import babel  # noqa: F401
    except ImportError:
        print("error: the catalogues need Babel (pip install '.[test]')", file=sys.stderr)
        return 2
    if args.command == "extract":
        catalogues.extract()
    elif args.command == "update":
        catalogues.update()
    elif args.command == "compile":
        for path in catalogues.compile_all():
            print(path)
    else:
        problems = catalogues.check(current=catalogues.template())
        for problem in problems:
            print(problem)
        print(f"{len(problems)} problems")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
