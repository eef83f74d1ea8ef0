"""Draws the dice box's schematic from the pin map (`firmware/dicebox/pins.py`).

    python -m hardware.schematic [OUT.svg] [--pins PATH]

Every GPIO label, header pin number and net name in the picture comes from the pin map, so a
changed pins.py gives a changed schematic; `tests/hardware/` checks the committed SVG is current.
Text is written as SVG <text> elements so the labels stay searchable (and testable).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import schemdraw
import schemdraw.elements as elm

from hardware import pinmap

HERE = Path(__file__).resolve().parent
SCHEMATIC_SVG = HERE / "schematic.svg"

# Part values, shared with the BOM and the README.
R1_LABEL = "R1 330 Ω"
C1_LABEL = "C1 100 µF\n10 V"
D1_LABEL = "D1 1N4001"
NET_COLOR = "#1f5fbf"


def draw(pins: pinmap.PinMap) -> schemdraw.Drawing:
    """The schematic as a schemdraw Drawing (not yet saved)."""
    schemdraw.svgconfig.text = "text"  # plain <text>, the same with or without ziamath installed
    d = schemdraw.Drawing(show=False)
    d.config(fontsize=12, unit=2.5, font="sans-serif", bgcolor="white", margin=0.6)

    def gpio_pin(name: str, slot: str, side: str = "right") -> elm.IcPin:
        gpio = pins.gpio(name)
        return elm.IcPin(
            name=f"GP{gpio}",
            pin=str(pinmap.physical_pin(gpio)),
            side=side,
            slot=slot,
            anchorname=name,
        )

    pico = elm.Ic(
        pins=[
            elm.IcPin(name="VBUS", pin=str(pinmap.VBUS_PIN), side="right", slot="5/5"),
            gpio_pin("LED_DATA_GPIO", "4/5"),
            gpio_pin("BUTTON_GPIO", "3/5"),
            gpio_pin("BUZZER_GPIO", "2/5"),
            elm.IcPin(name="GND", pin=str(pinmap.GND_PIN), side="right", slot="1/5"),
            elm.IcPin(name="USB", side="left", slot="5/5", anchorname="USB"),
            elm.IcPin(name="3V3", pin=str(pinmap.V3_PIN), side="left", slot="3/5", anchorname="V3"),
            gpio_pin("OLED_SDA_GPIO", "2/5", "left"),
            gpio_pin("OLED_SCL_GPIO", "1/5", "left"),
        ],
        pinspacing=1.2,
        edgepadH=0.6,
        edgepadW=1.6,
        leadlen=0.8,
    )
    d.add(pico)
    box = pico.get_bbox(transform=True, includetext=False)
    middle = (box.xmin + box.xmax) / 2
    d.add(
        elm.Label()
        .at((middle, box.ymax + 0.2))
        .label("U1  Raspberry Pi Pico / Pico 2", loc="top", fontsize=13)
    )
    d.add(
        elm.Label()
        .at((middle, box.ymin - 0.6))
        .label(f"on-board LED ({pins.status_led!r}):\nlink status (STATUS_LED)", loc="bottom")
    )

    # USB to the tablet: power and serial.
    d.add(
        elm.Line()
        .left()
        .at(pico.USB)
        .length(2.2)
        .label("USB cable\nto tablet", loc="top", fontsize=11)
    )
    d.add(elm.Dot(open=True))

    # The strip: DIN on the left, +5V on top, GND at the bottom.
    x_strip = 21.0
    strip = elm.Ic(
        pins=[
            elm.IcPin(name="DIN", side="left", anchorname="DIN"),
            elm.IcPin(name="+5V", side="top", anchorname="VDD"),
            elm.IcPin(name="GND", side="bottom", anchorname="GND"),
        ],
        size=(5.0, 3.0),
        leadlen=0.8,
        lofst=0.3,
    )
    d.add(strip.right().anchor("DIN").at((x_strip, pico.LED_DATA_GPIO[1])))
    d.add(elm.Ground().at(strip.GND))
    strip_box = strip.get_bbox(transform=True, includetext=False)
    strip_middle = (strip_box.xmin + strip_box.xmax) / 2
    d.add(
        elm.Label()
        .at((strip_middle + 0.4, strip.DIN[1] - 0.1))
        .label(f"LED strip\n{pins.led_count} × WS2812B", loc="center", fontsize=12)
    )
    d.add(
        elm.Label()
        .at((strip.GND[0] - 0.5, strip.GND[1] - 0.6))
        .label(
            f"LED 1–{pins.led_count - 1}: barbarian track\nLED {pins.led_count}: attack",
            loc="left",
            fontsize=10,
        )
    )

    # VBUS -> D1 -> strip +5V, C1 across the strip supply.
    d.add(elm.Line().right().at(pico.VBUS).length(1.5))
    d.add(elm.Line().up().length(3.2).label("VBUS 5 V", loc="bottom", ofst=0.2))
    d.add(elm.Diode().right().label(D1_LABEL, loc="top"))
    node = d.add(elm.Dot())
    d.add(
        elm.Capacitor(polar=True)
        .down()
        .at(node.center)
        .length(2.2)
        .label(C1_LABEL, loc="bottom", ofst=0.2)
    )
    d.add(elm.Ground())
    d.add(elm.Line().right().at(node.center).tox(strip.VDD).label("≈4.3 V", loc="top"))
    d.add(elm.Line().toy(strip.VDD))

    # Data: GPIO -> R1 (near the strip) -> DIN.
    d.add(
        elm.Line()
        .right()
        .at(pico.LED_DATA_GPIO)
        .tox(x_strip - 3.5)
        .label("LED_DATA_GPIO", loc="top", color=NET_COLOR, fontsize=11)
    )
    d.add(elm.Resistor().right().tox(strip.DIN).label(R1_LABEL, loc="top"))

    # Roll button: GPIO -> SW1 -> GND (internal pull-up).
    x_button = 13.0
    d.add(
        elm.Line()
        .right()
        .at(pico.BUTTON_GPIO)
        .tox(x_button)
        .label("BUTTON_GPIO", loc="top", color=NET_COLOR, fontsize=11)
    )
    d.add(elm.Dot())
    d.add(elm.Button().down().length(2.4).label("SW1 roll\nbutton", loc="bottom", ofst=0.25))
    d.add(elm.Line().down().length(0.8))
    d.add(elm.Ground())

    # Piezo buzzer (optional): GPIO -> BZ1 -> GND.
    x_buzzer = 9.0
    d.add(
        elm.Line()
        .right()
        .at(pico.BUZZER_GPIO)
        .tox(x_buzzer)
        .label("BUZZER_GPIO", loc="top", color=NET_COLOR, fontsize=11)
    )
    d.add(elm.Dot())
    d.add(elm.Line().down().length(0.5))
    bz = d.add(elm.Speaker().anchor("in1").right().label("BZ1 piezo\n(optional)", loc="right"))
    d.add(elm.Line().at(bz.in2).down().length(0.6))
    d.add(elm.Ground())

    # The display: a 4-pin I2C OLED module on the Pico's left, powered from 3V3.
    oled = elm.Ic(
        pins=[
            elm.IcPin(name="VCC", side="right", slot="3/3", anchorname="VCC"),
            elm.IcPin(name="SDA", side="right", slot="2/3", anchorname="SDA"),
            elm.IcPin(name="SCL", side="right", slot="1/3", anchorname="SCL"),
            elm.IcPin(name="GND", side="bottom", anchorname="GND"),
        ],
        pinspacing=1.2,
        edgepadH=0.5,
        edgepadW=2.6,
        leadlen=0.6,
    )
    x_oled = box.xmin - 6.0
    d.add(oled.right().anchor("SDA").at((x_oled, pico.OLED_SDA_GPIO[1])))
    d.add(elm.Ground().at(oled.GND))
    oled_box = oled.get_bbox(transform=True, includetext=False)
    d.add(
        elm.Label()
        .at(((oled_box.xmin + oled_box.xmax) / 2, oled_box.ymax + 0.5))
        .label("DS1  OLED 128×64, I2C\nSSD1306 / SH1106", loc="top", fontsize=11)
    )
    d.add(elm.Line().at(pico.V3).tox(oled.VCC).label("3V3", loc="top", fontsize=11))
    d.add(
        elm.Line()
        .at(pico.OLED_SDA_GPIO)
        .tox(oled.SDA)
        .label("OLED_SDA_GPIO", loc="top", color=NET_COLOR, fontsize=11)
    )
    d.add(
        elm.Line()
        .at(pico.OLED_SCL_GPIO)
        .tox(oled.SCL)
        .label("OLED_SCL_GPIO", loc="top", color=NET_COLOR, fontsize=11)
    )

    # Pico GND.
    d.add(elm.Line().right().at(pico.GND).length(1.0))
    d.add(elm.Ground())

    return d


def render_svg(pins: pinmap.PinMap) -> bytes:
    """The schematic as SVG bytes, on an opaque white background (readable in dark themes)."""
    drawing = draw(pins)
    svg: bytes = drawing.get_imagedata("svg")
    match = re.search(rb'<svg [^>]*viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"[^>]*>', svg)
    if match is None:
        raise RuntimeError("schemdraw wrote an SVG without a viewBox")
    x, y, width, height = (g.decode() for g in match.groups())
    background = f'<rect x="{x}" y="{y}" width="{width}" height="{height}" fill="white"/>'
    return svg[: match.end()] + background.encode() + svg[match.end() :]


def write(out: Path = SCHEMATIC_SVG, pins_path: Path = pinmap.PINS_PY) -> Path:
    """Generate the schematic from a pins.py file into `out`."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(render_svg(pinmap.load(pins_path)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=SCHEMATIC_SVG)
    parser.add_argument("--pins", type=Path, default=pinmap.PINS_PY, help="pins.py to draw")
    args = parser.parse_args(argv)
    print(f"wrote {write(args.out, args.pins)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
