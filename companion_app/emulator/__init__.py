"""An emulated dice box: the real firmware behind a pseudo-terminal (see box.py, __main__.py)."""

from companion_app.emulator.box import Emulator, MadeRoll, VirtualDiceBox
from companion_app.emulator.faults import FaultPlan

__all__ = ["Emulator", "FaultPlan", "MadeRoll", "VirtualDiceBox"]
