"""`python -m companion_app.phones serve ...`: see :mod:`companion_app.phones.cli`."""

from __future__ import annotations

import sys

from companion_app.phones.cli import main

if __name__ == "__main__":
    sys.exit(main())
