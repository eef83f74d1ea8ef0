"""`python -m companion_app.journal`: see :mod:`companion_app.journal.cli`."""

from __future__ import annotations

import sys

from companion_app.journal.cli import main

if __name__ == "__main__":
    sys.exit(main())
