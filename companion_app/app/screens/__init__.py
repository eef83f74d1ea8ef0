"""One module + kv file per screen; ``common.kv`` holds the shared button and label styles."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder

from companion_app.app import language  # noqa: F401  (the rules' `_`, before any rule loads)

_COMMON = str(Path(__file__).with_name("common.kv"))
if _COMMON not in Builder.files:
    Builder.load_file(_COMMON)


def load_kv(module_file: str) -> None:
    """Load the kv file next to a screen module once."""
    path = str(Path(module_file).with_suffix(".kv"))
    if path not in Builder.files:
        Builder.load_file(path)
