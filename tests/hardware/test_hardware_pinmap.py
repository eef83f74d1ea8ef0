"""The pin map, the schematic, the README's wiring table and the firmware agree.

`firmware/dicebox/pins.py` is the single source of truth. Each test here fails when one side
changes alone: a pin moved in pins.py without `make schematic`, a schematic edited by hand, a
firmware hardware module that hard-codes a GPIO or stops using the pin map's names.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hw_helpers import svg_labels, write_pins

from hardware import docs, pinmap, schematic

REPO = pinmap.REPO
FIRMWARE = REPO / "firmware"
HARDWARE_MODULES = ("machine", "neopixel")


# ---- the pin map itself -------------------------------------------------------------------------
def test_pin_map_defines_every_name_and_fits_the_pico_header() -> None:
    pins = pinmap.load()
    for name in pinmap.GPIO_NAMES:
        gpio = pins.gpio(name)
        assert pinmap.PICO_HEADER[pinmap.physical_pin(gpio)] == f"GP{gpio}"
    assert pins.led_count >= 2, "at least one track space and the attack LED"


def test_pico_header_table_matches_the_board() -> None:
    header = pinmap.PICO_HEADER
    assert len(header) == 40
    assert [n for n, name in header.items() if name == "GND"] == [3, 8, 13, 18, 23, 28, 33, 38]
    assert header[1] == "GP0" and header[20] == "GP15" and header[21] == "GP16"
    assert header[36] == "3V3(OUT)" and header[39] == "VSYS" and header[40] == "VBUS"
    gpios = sorted(int(name[2:]) for name in header.values() if name.startswith("GP"))
    assert gpios == [*range(0, 23), 26, 27, 28]


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"BUTTON_GPIO": 25}, "not on the Pico"),
        ({"BUTTON_GPIO": 16}, "share a GPIO"),
        ({"LED_COUNT": 1}, "LED_COUNT"),
        ({"BUZZER_GPIO": "GP14"}, "GPIO number"),
        ({"OLED_SDA_GPIO": 5, "OLED_SCL_GPIO": 4}, "SDA/SCL pair of I2C0"),
        ({"OLED_I2C_ID": 1}, "SDA/SCL pair of I2C1"),
        ({"OLED_I2C_ID": 2}, "OLED_I2C_ID must be 0 or 1"),
        ({"OLED_SDA_GPIO": 16, "OLED_SCL_GPIO": 17}, "share a GPIO"),
    ],
)
def test_pin_map_rejects_what_cannot_be_wired(
    tmp_path: Path, values: dict[str, object], message: str
) -> None:
    good: dict[str, object] = {
        "BUTTON_GPIO": 15,
        "LED_DATA_GPIO": 16,
        "LED_COUNT": 8,
        "BUZZER_GPIO": 14,
        "STATUS_LED": "LED",
        "OLED_SDA_GPIO": 4,
        "OLED_SCL_GPIO": 5,
        "OLED_I2C_ID": 0,
    }
    with pytest.raises(ValueError, match=message):
        pinmap.load(write_pins(tmp_path / "pins.py", **{**good, **values}))


def test_pin_map_missing_a_name_is_an_error(tmp_path: Path) -> None:
    path = write_pins(tmp_path / "pins.py", BUTTON_GPIO=15, LED_DATA_GPIO=16, LED_COUNT=8)
    with pytest.raises(ValueError, match="BUZZER_GPIO"):
        pinmap.load(path)


# ---- the schematic ----------------------------------------------------------------------------
def test_committed_schematic_is_the_one_the_pin_map_generates() -> None:
    committed = (REPO / "hardware" / "schematic.svg").read_bytes()
    fresh = schematic.render_svg(pinmap.load())
    assert committed == fresh, "hardware/schematic.svg is stale: run `make schematic`"


def test_schematic_labels_are_the_pin_map_values() -> None:
    pins = pinmap.load()
    labels = svg_labels((REPO / "hardware" / "schematic.svg").read_bytes())
    for name in pinmap.GPIO_NAMES:
        gpio = pins.gpio(name)
        assert name in labels, f"net label {name} missing"
        assert f"GP{gpio}" in labels
        assert str(pinmap.physical_pin(gpio)) in labels
    assert "VBUS" in labels and str(pinmap.VBUS_PIN) in labels
    assert f"{pins.led_count} × WS2812B" in labels
    assert f"LED {pins.led_count}: attack" in labels
    assert any("STATUS_LED" in label for label in labels)


def test_schematic_builds_from_a_changed_pin_map(tmp_path: Path) -> None:
    """Generated from source into a tmp dir, from another pin map: the drawing follows it."""
    pins_py = write_pins(
        tmp_path / "pins.py",
        BUTTON_GPIO=10,
        LED_DATA_GPIO=22,
        LED_COUNT=12,
        BUZZER_GPIO=2,
        STATUS_LED="LED",
        OLED_SDA_GPIO=20,
        OLED_SCL_GPIO=21,
        OLED_I2C_ID=0,
    )
    out = tmp_path / "out" / "schematic.svg"
    subprocess.run(
        [sys.executable, "-m", "hardware.schematic", str(out), "--pins", str(pins_py)],
        cwd=REPO,
        check=True,
        capture_output=True,
        timeout=120,
    )
    labels = svg_labels(out.read_bytes())
    assert {"GP10", "14", "GP22", "29", "GP2", "4", "12 × WS2812B", "LED 12: attack"} <= labels
    assert not {"GP15", "GP16", "GP14", "8 × WS2812B"} & labels


# ---- the README's generated tables -----------------------------------------------------------
def test_readme_generated_tables_are_current() -> None:
    text = docs.README.read_text(encoding="utf-8")
    assert docs.render(text, pinmap.load()) == text, "hardware/README.md: run `make schematic`"


def test_readme_wiring_table_lists_every_pin_of_the_pin_map() -> None:
    pins = pinmap.load()
    table = docs.current_block(docs.README.read_text(encoding="utf-8"), "wiring")
    for name in pinmap.GPIO_NAMES:
        gpio = pins.gpio(name)
        row = f"| `{name}` | GP{gpio} | {pinmap.physical_pin(gpio)} |"
        assert row in table


def test_readme_tables_follow_a_changed_pin_map(tmp_path: Path) -> None:
    pins = pinmap.load(
        write_pins(
            tmp_path / "pins.py",
            BUTTON_GPIO=3,
            LED_DATA_GPIO=4,
            LED_COUNT=10,
            BUZZER_GPIO=5,
            STATUS_LED="LED",
            OLED_SDA_GPIO=6,
            OLED_SCL_GPIO=7,
            OLED_I2C_ID=1,
        )
    )
    text = docs.render(docs.README.read_text(encoding="utf-8"), pins)
    assert "| `BUTTON_GPIO` | GP3 | 5 |" in docs.current_block(text, "wiring")
    assert "10 × 20 mA" in docs.current_block(text, "power")


# ---- the firmware ---------------------------------------------------------------------------
def _firmware_sources() -> dict[Path, ast.Module]:
    return {
        path: ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for path in sorted(FIRMWARE.rglob("*.py"))
    }


def _imported_modules(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.module:
                names.add(node.module.split(".")[0])
            names.update(f"from:{alias.name}" for alias in node.names)
    return names


def _hardware_modules() -> dict[Path, ast.Module]:
    """The firmware modules that touch the Pico's hardware (import machine or neopixel)."""
    return {
        path: tree
        for path, tree in _firmware_sources().items()
        if _imported_modules(tree) & set(HARDWARE_MODULES)
    }


def _pins_attributes(tree: ast.Module) -> set[str]:
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "pins"
    }


def test_firmware_hardware_module_uses_the_pin_map_names() -> None:
    modules = _hardware_modules()
    assert modules, "the firmware has no module importing machine/neopixel"
    used: set[str] = set()
    for path, tree in modules.items():
        assert "from:pins" in _imported_modules(tree) or "pins" in _imported_modules(tree), (
            f"{path.name} touches the hardware but does not import the pin map"
        )
        used |= _pins_attributes(tree)
    missing = set(pinmap.REQUIRED_NAMES) - used
    assert not missing, f"the hardware module does not use {sorted(missing)} from pins.py"


def test_firmware_never_hard_codes_a_pin_number() -> None:
    for path, tree in _hardware_modules().items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name == "Pin" and node.args:
                first = node.args[0]
                assert not isinstance(first, ast.Constant), (
                    f"{path.name}:{node.lineno} Pin({ast.unparse(first)}) bypasses pins.py"
                )


def test_only_pins_py_defines_the_pin_map_and_every_name_used_exists() -> None:
    """No GPIO is defined twice; a copy of LED_COUNT elsewhere (a host runner) must agree."""
    pins = pinmap.load()
    defined = set(pinmap.REQUIRED_NAMES) - {"LED_COUNT"}
    pins_py = FIRMWARE / "dicebox" / "pins.py"
    pins_values = {
        t.id
        for node in ast.parse(pins_py.read_text(encoding="utf-8")).body
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name)
    }
    for path, tree in _firmware_sources().items():
        if path == pins_py:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if not isinstance(target, ast.Name):
                        continue
                    assert target.id not in defined, (
                        f"{path.name}:{node.lineno} redefines {target.id} outside pins.py"
                    )
                    if target.id == "LED_COUNT" and isinstance(node.value, ast.Constant):
                        assert node.value.value == pins.led_count, (
                            f"{path.name}:{node.lineno} has LED_COUNT = {node.value.value}, "
                            f"pins.py has {pins.led_count}"
                        )
        unknown = _pins_attributes(tree) - pins_values
        assert not unknown, f"{path.name} uses pins.{sorted(unknown)}, not in pins.py"


def test_enclosure_source_defaults_agree_with_the_pin_map() -> None:
    scad = (REPO / "hardware" / "enclosure.scad").read_text(encoding="utf-8")
    match = re.search(r"^led_count = (\d+);", scad, re.MULTILINE)
    assert match is not None
    assert int(match.group(1)) == pinmap.load().led_count
