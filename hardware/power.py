"""The dice box's power budget, and what the firmware's LED colours draw.

Everything runs from the tablet's USB port (5 V on the Pico's VBUS). The WS2812B strip is the only
large load, so the budget rests on one agreed cap: no LED is ever driven brighter than
`MAX_CHANNEL_SUM` (the sum of its 8-bit R, G and B values), i.e. one third of full white.
`firmware_colours()` reads every colour constant in the firmware so a test can hold it to the cap,
and honours a brightness constant (any name containing BRIGHTNESS) if the firmware defines one.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from hardware import pinmap

FIRMWARE_DIR = pinmap.REPO / "firmware" / "dicebox"

# ---- the agreed cap ---------------------------------------------------------------------------
MAX_CHANNEL_SUM = 255  # R + G + B of any LED, out of 765 (full white): 1/3 of full white

# ---- part figures (datasheets and rules of thumb, rounded up) ---------------------------------
MA_PER_CHANNEL_FULL = 20.0  # one WS2812B colour channel at 255 (60 mA for full white)
MA_IDLE_PER_LED = 1.0  # a WS2812B's own controller, even when dark
MA_PICO = 50.0  # Pico / Pico 2 running MicroPython with USB active (typ. 20-30 mA) + status LED
MA_BUZZER = 5.0  # piezo driven by PWM straight from a GPIO
# 128x64 OLED module on 3V3: about 25 mA with every pixel lit (SSD1306 charge pump included);
# through the Pico's buck-boost regulator (about 85 %) that is 3.3 / 5 / 0.85 x 25 mA at 5 V.
MA_OLED_3V3 = 25.0
MA_OLED = MA_OLED_3V3 * 3.3 / 5.0 / 0.85
MA_USB_REQUESTED = 250.0  # MicroPython's USB descriptor asks the host for 250 mA
MA_USB2_PORT = 500.0  # a USB 2.0 port (and a typical tablet OTG port) after enumeration
MA_UNCONFIGURED = 100.0  # what a USB device may draw before the host configures it


def led_ma(channel_sum: float) -> float:
    """Current of one WS2812B showing a colour whose R+G+B is channel_sum."""
    return MA_PER_CHANNEL_FULL * channel_sum / 255


@dataclass(frozen=True)
class Row:
    what: str
    how: str
    ma: float


def budget(led_count: int) -> list[Row]:
    """Worst case at the cap: every LED at the cap, the buzzer on."""
    return [
        Row("Pico / Pico 2 board", "MicroPython, USB active, status LED (typ. 20–30 mA)", MA_PICO),
        Row(
            "WS2812B controllers",
            f"{led_count} × {MA_IDLE_PER_LED:g} mA, lit or not",
            led_count * MA_IDLE_PER_LED,
        ),
        Row(
            "WS2812B light at the cap",
            f"{led_count} × {led_ma(MAX_CHANNEL_SUM):g} mA (R+G+B ≤ {MAX_CHANNEL_SUM} of 765)",
            led_count * led_ma(MAX_CHANNEL_SUM),
        ),
        Row("piezo buzzer", "PWM from a GPIO", MA_BUZZER),
        Row(
            "OLED 128x64 (SSD1306 / SH1106)",
            f"every pixel lit, {MA_OLED_3V3:g} mA at 3.3 V from the Pico's regulator",
            MA_OLED,
        ),
    ]


def total_ma(led_count: int) -> float:
    return sum(row.ma for row in budget(led_count))


def uncapped_ma(led_count: int) -> float:
    """The same box with every LED at full white: what the cap protects against."""
    return total_ma(led_count) - led_count * led_ma(MAX_CHANNEL_SUM) + led_count * led_ma(765)


def markdown(led_count: int) -> str:
    """The budget table for the README."""
    lines = ["| load | condition | current at 5 V |", "|---|---|---:|"]
    for row in budget(led_count):
        lines.append(f"| {row.what} | {row.how} | {row.ma:.0f} mA |")
    total = total_ma(led_count)
    lines.append(
        f"| **worst case** | all LEDs at the cap, buzzer on, display all lit | **{total:.0f} mA** |"
    )
    lines.append("")
    lines.append("| supply | limit | headroom |")
    lines.append("|---|---:|---:|")
    for what, limit in (
        ("what the firmware asks the tablet for (MicroPython's USB descriptor)", MA_USB_REQUESTED),
        ("a USB 2.0 / typical tablet OTG port", MA_USB2_PORT),
    ):
        lines.append(f"| {what} | {limit:.0f} mA | {limit - total:.0f} mA |")
    lines.append("")
    lines.append(
        f"Without the cap, {led_count} LEDs at full white would draw "
        f"{led_count * led_ma(765):.0f} mA and the box {uncapped_ma(led_count):.0f} mA: more "
        f"than the {MA_USB_REQUESTED:.0f} mA it asks for and than a "
        f"{MA_USB2_PORT:.0f} mA port gives."
    )
    return "\n".join(lines) + "\n"


# ---- the firmware's side -----------------------------------------------------------------------
def _number(node: ast.expr) -> float | None:
    """The value of a numeric literal or simple arithmetic on literals (e.g. 32 / 255)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        if isinstance(node.value, bool):
            return None
        return float(node.value)
    if isinstance(node, ast.BinOp):
        left, right = _number(node.left), _number(node.right)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.Div) and right:
            return left / right
        if isinstance(node.op, ast.FloorDiv) and right:
            return float(left // right)
        if isinstance(node.op, ast.Mult):
            return left * right
    return None


def _assignments(tree: ast.Module) -> list[tuple[str, ast.expr]]:
    """Module- and class-level `NAME = value` assignments."""
    found: list[tuple[str, ast.expr]] = []
    bodies = [tree.body] + [n.body for n in tree.body if isinstance(n, ast.ClassDef)]
    for body in bodies:
        for node in body:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        found.append((target.id, node.value))
            elif (
                isinstance(node, ast.AnnAssign)
                and node.value is not None
                and isinstance(node.target, ast.Name)
            ):
                found.append((node.target.id, node.value))
    return found


def _firmware_trees(firmware_dir: Path) -> list[tuple[Path, ast.Module]]:
    return [
        (path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        for path in sorted(firmware_dir.rglob("*.py"))
    ]


def firmware_brightness(firmware_dir: Path = FIRMWARE_DIR) -> tuple[str, float] | None:
    """The firmware's brightness constant as a scale factor 0..1, if it defines one.

    A value in (0, 1] is a scale factor; an integer 1..255 a full-scale channel value (scale
    value/255). The first constant whose name contains BRIGHTNESS wins.
    """
    for path, tree in _firmware_trees(firmware_dir):
        for name, value in _assignments(tree):
            if "BRIGHTNESS" not in name.upper():
                continue
            number = _number(value)
            if number is None or number <= 0:
                continue
            scale = number if number <= 1 else number / 255
            return f"{path.name}:{name}", min(scale, 1.0)
    return None


def _colour_tuples(node: ast.AST) -> list[tuple[int, int, int]]:
    found: list[tuple[int, int, int]] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Tuple) and len(sub.elts) == 3:
            values = [
                e.value
                for e in sub.elts
                if isinstance(e, ast.Constant) and type(e.value) is int and 0 <= e.value <= 255
            ]
            if len(values) == 3:
                found.append((values[0], values[1], values[2]))
    return found


def firmware_colours(firmware_dir: Path = FIRMWARE_DIR) -> dict[str, tuple[int, int, int]]:
    """Every (r, g, b) constant in the firmware, by where it is defined."""
    colours: dict[str, tuple[int, int, int]] = {}
    for path, tree in _firmware_trees(firmware_dir):
        for name, value in _assignments(tree):
            for index, rgb in enumerate(_colour_tuples(value)):
                colours[f"{path.name}:{name}[{index}]"] = rgb
    return colours


def brightest(firmware_dir: Path = FIRMWARE_DIR) -> tuple[str, float]:
    """The firmware's brightest colour and its R+G+B after any brightness constant."""
    colours = firmware_colours(firmware_dir)
    if not colours:
        raise ValueError(f"no (r, g, b) colour constants found under {firmware_dir}")
    found = firmware_brightness(firmware_dir)
    scale = found[1] if found else 1.0
    where, rgb = max(colours.items(), key=lambda item: sum(item[1]))
    return where, sum(rgb) * scale
