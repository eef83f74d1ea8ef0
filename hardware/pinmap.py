"""The dice box's pin map, read from the firmware, plus what the Pico's header looks like.

`firmware/dicebox/pins.py` is the single source of truth. This module loads it by path (it is
plain constants, no MicroPython imports), checks it against the Pico's header, and turns it into
the wiring rows that the schematic and the wiring table are drawn from.
"""

from __future__ import annotations

import runpy
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PINS_PY = REPO / "firmware" / "dicebox" / "pins.py"

# The names pins.py must define; every one of them appears in the schematic and the wiring table.
GPIO_NAMES = ("BUTTON_GPIO", "LED_DATA_GPIO", "BUZZER_GPIO", "OLED_SDA_GPIO", "OLED_SCL_GPIO")
REQUIRED_NAMES = (*GPIO_NAMES, "LED_COUNT", "STATUS_LED", "OLED_I2C_ID")

# The RP2040/RP2350's I2C controllers: which GPIOs can be SDA and SCL of each.
I2C_SDA = {0: (0, 4, 8, 12, 16, 20), 1: (2, 6, 10, 14, 18, 26)}
I2C_SCL = {0: (1, 5, 9, 13, 17, 21), 1: (3, 7, 11, 15, 19, 27)}

# Raspberry Pi Pico / Pico 2 (and their W variants) 40-pin header: physical pin -> signal.
# GP23, GP24, GP25 and GP29 are not on the header (they are used on the board itself).
_LEFT = ["GP0", "GP1", "GND", "GP2", "GP3", "GP4", "GP5", "GND", "GP6", "GP7"]
_LEFT += ["GP8", "GP9", "GND", "GP10", "GP11", "GP12", "GP13", "GND", "GP14", "GP15"]
_RIGHT = ["GP16", "GP17", "GND", "GP18", "GP19", "GP20", "GP21", "GND", "GP22", "RUN"]
_RIGHT += ["GP26", "GP27", "GND", "GP28", "ADC_VREF", "3V3(OUT)", "3V3_EN", "GND", "VSYS", "VBUS"]
PICO_HEADER: dict[int, str] = {number: name for number, name in enumerate(_LEFT + _RIGHT, start=1)}

# Power pins the build uses (not in pins.py: they are fixed by the board).
VBUS_PIN = 40
GND_PIN = 38
V3_PIN = 36  # 3V3(OUT): the OLED's supply


@dataclass(frozen=True)
class PinMap:
    """The values of pins.py that the hardware depends on."""

    button_gpio: int
    led_data_gpio: int
    buzzer_gpio: int
    led_count: int
    status_led: str
    oled_sda_gpio: int
    oled_scl_gpio: int
    oled_i2c_id: int

    def gpio(self, name: str) -> int:
        """The GPIO number of one of GPIO_NAMES."""
        value: int = {
            "BUTTON_GPIO": self.button_gpio,
            "LED_DATA_GPIO": self.led_data_gpio,
            "BUZZER_GPIO": self.buzzer_gpio,
            "OLED_SDA_GPIO": self.oled_sda_gpio,
            "OLED_SCL_GPIO": self.oled_scl_gpio,
        }[name]
        return value


def physical_pin(gpio: int) -> int:
    """The Pico header pin number (1-40) that carries GPn."""
    for number, name in PICO_HEADER.items():
        if name == f"GP{gpio}":
            return number
    raise ValueError(f"GP{gpio} is not on the Pico's 40-pin header")


def load(path: Path = PINS_PY) -> PinMap:
    """Read and check a pins.py file."""
    values = runpy.run_path(str(path))
    missing = [name for name in REQUIRED_NAMES if name not in values]
    if missing:
        raise ValueError(f"{path.name} does not define {', '.join(missing)}")
    for name in GPIO_NAMES:
        gpio = values[name]
        if not isinstance(gpio, int) or isinstance(gpio, bool):
            raise ValueError(f"{name} must be a GPIO number, not {gpio!r}")
        physical_pin(gpio)
    gpios = [values[name] for name in GPIO_NAMES]
    if len(set(gpios)) != len(gpios):
        raise ValueError(f"two signals share a GPIO in {path.name}: {gpios}")
    bus = values["OLED_I2C_ID"]
    if bus not in I2C_SDA:
        raise ValueError(f"OLED_I2C_ID must be 0 or 1, not {bus!r}")
    if values["OLED_SDA_GPIO"] not in I2C_SDA[bus] or values["OLED_SCL_GPIO"] not in I2C_SCL[bus]:
        raise ValueError(
            f"OLED_SDA_GPIO/OLED_SCL_GPIO must be an SDA/SCL pair of I2C{bus}: "
            f"SDA one of {I2C_SDA[bus]}, SCL one of {I2C_SCL[bus]}"
        )
    count = values["LED_COUNT"]
    if not isinstance(count, int) or isinstance(count, bool) or not 2 <= count <= 64:
        raise ValueError(f"LED_COUNT must be an integer 2..64, not {count!r}")
    return PinMap(
        button_gpio=values["BUTTON_GPIO"],
        led_data_gpio=values["LED_DATA_GPIO"],
        buzzer_gpio=values["BUZZER_GPIO"],
        led_count=count,
        status_led=str(values["STATUS_LED"]),
        oled_sda_gpio=values["OLED_SDA_GPIO"],
        oled_scl_gpio=values["OLED_SCL_GPIO"],
        oled_i2c_id=bus,
    )


@dataclass(frozen=True)
class Wire:
    """One row of the wiring table: from a Pico header pin to a part."""

    signal: str  # the pins.py name, or the board's power pin
    pico: str  # GPn / VBUS / GND
    pin: int  # physical header pin
    to: str  # where the wire goes
    via: str  # parts in series on the way, or "direct"


def wires(pins: PinMap) -> list[Wire]:
    """Every wire from the Pico, in the order the wiring table lists them."""
    return [
        Wire(
            "BUTTON_GPIO",
            f"GP{pins.button_gpio}",
            physical_pin(pins.button_gpio),
            "roll button SW1, one contact (the other contact to GND)",
            "direct (internal pull-up)",
        ),
        Wire(
            "LED_DATA_GPIO",
            f"GP{pins.led_data_gpio}",
            physical_pin(pins.led_data_gpio),
            f"LED strip DIN (first of {pins.led_count} WS2812B)",
            "R1 330 Ω in series, close to the strip",
        ),
        Wire(
            "BUZZER_GPIO",
            f"GP{pins.buzzer_gpio}",
            physical_pin(pins.buzzer_gpio),
            "piezo buzzer BZ1 (optional), other lead to GND",
            "direct (PWM)",
        ),
        Wire(
            "OLED_SDA_GPIO",
            f"GP{pins.oled_sda_gpio}",
            physical_pin(pins.oled_sda_gpio),
            f"OLED DS1 SDA (I2C{pins.oled_i2c_id} data)",
            "direct (the module's own pull-ups to 3V3)",
        ),
        Wire(
            "OLED_SCL_GPIO",
            f"GP{pins.oled_scl_gpio}",
            physical_pin(pins.oled_scl_gpio),
            f"OLED DS1 SCL (I2C{pins.oled_i2c_id} clock)",
            "direct (the module's own pull-ups to 3V3)",
        ),
        Wire(
            "3V3",
            "3V3(OUT)",
            V3_PIN,
            "OLED DS1 VCC",
            "direct (the Pico's 3.3 V regulator, not VBUS)",
        ),
        Wire(
            "VBUS",
            "VBUS",
            VBUS_PIN,
            "LED strip +5V, C1 + lead",
            "D1 1N4001, anode at VBUS (strip runs at about 4.3 V)",
        ),
        Wire(
            "GND",
            "GND",
            GND_PIN,
            "LED strip GND, C1 − lead, SW1, BZ1, OLED DS1 GND",
            "direct (any GND pin works)",
        ),
    ]


def wiring_table(pins: PinMap) -> str:
    """The wiring table as Markdown, generated from the pin map."""
    lines = [
        "| pins.py name | Pico pin | header pin | goes to | via |",
        "|---|---|---|---|---|",
    ]
    for wire in wires(pins):
        lines.append(f"| `{wire.signal}` | {wire.pico} | {wire.pin} | {wire.to} | {wire.via} |")
    lines.append(
        f"| `STATUS_LED` | on-board LED (`{pins.status_led!r}`) | — | nothing to wire | — |"
    )
    return "\n".join(lines) + "\n"
