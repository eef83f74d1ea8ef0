"""The power budget holds, the firmware's colours respect the agreed cap, the BOM is complete."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from hw_helpers import svg_labels

from hardware import pinmap, power, schematic

BOM = pinmap.REPO / "hardware" / "bom.csv"
PRICE = "rough price (USD line total)"


# ---- power --------------------------------------------------------------------------------------
def test_worst_case_fits_what_the_box_asks_the_tablet_for() -> None:
    count = pinmap.load().led_count
    assert power.total_ma(count) <= power.MA_USB_REQUESTED
    assert power.total_ma(count) < power.MA_USB2_PORT


def test_budget_numbers_for_eight_leds() -> None:
    rows = {row.what: row.ma for row in power.budget(8)}
    assert rows["WS2812B light at the cap"] == pytest.approx(160.0)
    assert rows["WS2812B controllers"] == pytest.approx(8.0)
    assert rows["OLED 128x64 (SSD1306 / SH1106)"] == pytest.approx(19.4, abs=0.1)
    assert power.total_ma(8) == pytest.approx(242.4, abs=0.1)
    assert power.uncapped_ma(8) == pytest.approx(562.4, abs=0.1)


def test_the_cap_is_what_keeps_the_box_within_a_usb_port() -> None:
    assert power.uncapped_ma(pinmap.load().led_count) > power.MA_USB2_PORT


def test_firmware_colours_stay_within_the_cap() -> None:
    colours = power.firmware_colours()
    assert len(colours) >= 3, "the firmware's LED colours were not found"
    where, channel_sum = power.brightest()
    assert channel_sum <= power.MAX_CHANNEL_SUM, (
        f"{where} is R+G+B={channel_sum:.0f}, above the power budget's cap of "
        f"{power.MAX_CHANNEL_SUM} (hardware/README.md, Power budget)"
    )


def test_firmware_brightness_constant_when_present_is_a_scale() -> None:
    found = power.firmware_brightness()
    if found is None:
        # No constant: the colours are used as they are, so they alone must respect the cap.
        assert power.brightest()[1] == max(sum(rgb) for rgb in power.firmware_colours().values())
    else:
        name, scale = found
        assert 0 < scale <= 1, name


@pytest.mark.parametrize(
    ("source", "expected_sum"),
    [
        ("BRIGHTNESS = 0.25\nWHITE = (255, 255, 255)\n", 765 * 0.25),
        ("MAX_BRIGHTNESS = 64\nWHITE = (255, 255, 255)\n", 765 * 64 / 255),
        ("class Lights:\n    BRIGHTNESS_CAP = 32 / 255\n    RED = (255, 0, 0)\n", 32.0),
        ("RED = (200, 0, 0)\nPALETTE = {'a': (10, 20, 30), 'b': (100, 100, 0)}\n", 200.0),
    ],
)
def test_firmware_reader_honours_a_brightness_constant(
    tmp_path: Path, source: str, expected_sum: float
) -> None:
    (tmp_path / "lights.py").write_text(source, encoding="utf-8")
    assert power.brightest(tmp_path)[1] == pytest.approx(expected_sum)


# ---- BOM ---------------------------------------------------------------------------------------
def _bom() -> list[dict[str, str]]:
    with BOM.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_bom_has_the_columns_and_sane_numbers() -> None:
    rows = _bom()
    assert rows
    for row in rows:
        assert row["part"] and row["example part number"]
        assert int(row["quantity"]) >= 1
        assert 0 <= float(row[PRICE]) < 50
    assert 15 < sum(float(row[PRICE]) for row in rows) < 80


def test_bom_has_every_part_of_the_schematic() -> None:
    labels = " ".join(svg_labels((pinmap.REPO / "hardware" / "schematic.svg").read_bytes()))
    refs = {row["ref"] for row in _bom() if row["ref"]}
    for ref in ("U1", "SW1", "R1", "C1", "D1", "BZ1", "DS1"):
        assert ref in refs, f"{ref} missing from bom.csv"
        assert ref in labels, f"{ref} missing from the schematic"


def test_bom_values_match_the_schematic() -> None:
    by_ref = {row["ref"]: row for row in _bom()}
    assert "330 Ω" in by_ref["R1"]["part"] and "330 Ω" in schematic.R1_LABEL
    assert "100 µF" in by_ref["C1"]["part"] and "100 µF" in schematic.C1_LABEL
    assert "1N4001" in by_ref["D1"]["part"] and "1N4001" in schematic.D1_LABEL


def test_bom_strip_has_led_count_leds() -> None:
    count = pinmap.load().led_count
    strip = [row for row in _bom() if "WS2812B" in row["part"]]
    assert len(strip) == 1
    assert strip[0]["ref"] == f"LED1-LED{count}"
    assert int(strip[0]["quantity"]) == count and strip[0]["unit"] == "LEDs"
