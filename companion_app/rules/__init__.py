"""The Cities & Knights rules core: pure Python, fully typed, no I/O.

Nothing in this package may import kivy, serial, sqlite3 or read a clock: the app, the journal
and the dice link talk to it only through its public API.
"""

# Loads every declaration, which fills the tables of the layers below: the action types by
# name (actions.ACTION_TYPES) and the decks (cards.PROGRESS_DECKS).
from companion_app.rules import registry  # noqa: F401
