"""Keeps the generated parts of hardware/README.md in step with the pin map.

    python -m hardware.docs [--check]

The README's wiring table and power budget sit between `<!-- generated:NAME -->` and
`<!-- /generated:NAME -->` lines; this rewrites what is between them. --check only reports
whether the README is current (exit 1 if not).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from hardware import pinmap, power

README = Path(__file__).resolve().parent / "README.md"


def blocks(pins: pinmap.PinMap) -> dict[str, str]:
    """The generated README blocks, by name."""
    return {
        "wiring": pinmap.wiring_table(pins),
        "power": power.markdown(pins.led_count),
    }


def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(
        rf"(<!-- generated:{name} [^\n]*-->\n)(.*?)(<!-- /generated:{name} -->)", re.DOTALL
    )


def current_block(text: str, name: str) -> str:
    """What the README holds between the markers of one block."""
    match = _pattern(name).search(text)
    if match is None:
        raise ValueError(f"README has no generated:{name} block")
    return match.group(2)


def render(text: str, pins: pinmap.PinMap) -> str:
    """The README text with every generated block brought up to date."""
    for name, body in blocks(pins).items():
        current_block(text, name)  # the markers must exist
        text = _pattern(name).sub(lambda m, body=body: m.group(1) + body + m.group(3), text)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check, write nothing")
    args = parser.parse_args(argv)
    text = README.read_text(encoding="utf-8")
    new = render(text, pinmap.load())
    if args.check:
        if new != text:
            print(f"{README} is out of date: run `make schematic`")
            return 1
        return 0
    if new != text:
        README.write_text(new, encoding="utf-8")
        print(f"updated {README}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
