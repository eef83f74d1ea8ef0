"""Table companion for Catan: Cities & Knights.

Packages:
    rules   -- the pure, typed rules core (no kivy, serial, files or clock)
    device  -- the dice box link (serial discovery today; protocol v1 link later)
    app     -- the Kivy tablet app (screens, widgets; shows the rules core, holds no rules)
"""

APP_NAME = "Catan Companion"
__version__ = "0.1.0"
