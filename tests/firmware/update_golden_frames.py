"""Rewrite the display's golden frames after a deliberate change of its layout, by hand:

    .venv/bin/python tests/firmware/update_golden_frames.py [FOLDER]

then look at them and commit them. FOLDER defaults to tests/firmware/golden_frames. Under CI
(``CI`` set) it refuses and writes nothing: there the frames are what the code is checked
against, never something the code writes.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from screen_frames import FRAMES, GOLDEN, draw_cpython


def main(argv: list[str]) -> int:
    if os.environ.get("CI"):
        print("refused: CI is set; golden frames are rewritten only by hand", file=sys.stderr)
        return 2
    folder = Path(argv[0]) if argv else GOLDEN
    for name, state in FRAMES.items():
        (folder / f"{name}.txt").write_text("\n".join(draw_cpython(state)) + "\n")
    print(f"{len(FRAMES)} frames written to {folder}; look at them before committing them")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
