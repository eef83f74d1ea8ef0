"""The Pico's hardware: the only module that touches machine, neopixel, the OLED on I2C, the USB
serial port and the watchdog. Everything else gets these through `Rp2Hardware`'s methods.
"""

import asyncio
import os
import select
import sys
import time

import machine
import micropython
import neopixel

from . import pins
from .app import Hardware, Runner
from .core import DiceBox
from .dice import Dice, Xoshiro128
from .store import Store

STORE_PATH = "/dicebox.dat"  # unacknowledged rolls and the standalone track (firmware/README.md)


class Oled:
    """A 128x64 SSD1306 or SH1106 on I2C, written to their datasheets: page addressing (which
    both controllers have), one I2C write per 8-pixel row of the frame. A missing display (no
    ACK from its address) is noted once and the box carries on without it."""

    # Display off; clock; multiplex 64; offset 0; start line 0; charge pump on (SSD1306; the
    # SH1106 ignores 0x8D); page addressing mode; segment remap and COM scan reversed (the
    # module's usual orientation); COM pins alternative; contrast; pre-charge; VCOMH; resume
    # from RAM; normal (not inverted); display on.
    INIT = (
        b"\xae\xd5\x80\xa8\x3f\xd3\x00\x40\x8d\x14\x20\x02\xa1\xc8\xda\x12"
        b"\x81\xcf\xd9\xf1\xdb\x40\xa4\xa6\xaf"
    )

    def __init__(self, i2c: "machine.I2C", addr: int, column_offset: int) -> None:
        self._i2c = i2c
        self._addr = addr
        self._offset = column_offset
        self._row = bytearray(129)  # a data control byte and one page of 128 columns
        self._row[0] = 0x40
        self._cmd = bytearray(2)  # a command control byte and one command
        self.ok = True
        try:
            for byte in self.INIT:
                self._command(byte)
        except OSError:
            self.ok = False

    def _command(self, byte: int) -> None:
        self._cmd[0] = 0x80
        self._cmd[1] = byte
        self._i2c.writeto(self._addr, self._cmd)

    def show(self, buf: bytearray) -> None:
        if not self.ok:
            return
        row = self._row
        try:
            for page in range(8):
                self._command(0xB0 | page)
                self._command(self._offset & 0x0F)
                self._command(0x10 | self._offset >> 4)
                row[1:] = buf[page * 128 : page * 128 + 128]
                self._i2c.writeto(self._addr, row)
        except OSError:
            self.ok = False  # unplugged or broken: the dice box works on without it


class Rp2Hardware(Hardware):
    WDT_MS = 5000  # watchdog: reset the Pico if the main loop stops for this long
    READ_MAX = 256  # bytes taken from the USB serial port per round
    BUZZER_DUTY = 32768

    def __init__(self, watchdog: bool = True) -> None:
        # Ctrl-C (0x03) from the line is an ordinary byte: it must not stop the firmware.
        micropython.kbd_intr(-1)
        self._button = machine.Pin(pins.BUTTON_GPIO, machine.Pin.IN, machine.Pin.PULL_UP)
        self._strip = neopixel.NeoPixel(machine.Pin(pins.LED_DATA_GPIO), pins.LED_COUNT)
        self._status = machine.Pin(pins.STATUS_LED, machine.Pin.OUT)
        self._buzzer = None  # type: machine.PWM | None
        i2c = machine.I2C(
            pins.OLED_I2C_ID,
            sda=machine.Pin(pins.OLED_SDA_GPIO),
            scl=machine.Pin(pins.OLED_SCL_GPIO),
            freq=pins.OLED_I2C_HZ,
        )
        self._oled = Oled(i2c, pins.OLED_ADDR, 2 if pins.OLED_CONTROLLER == "SH1106" else 0)
        self._stdin = sys.stdin.buffer
        self._stdout = sys.stdout.buffer
        self._rx = select.poll()
        self._rx.register(sys.stdin, select.POLLIN)
        self._tx = select.poll()
        self._tx.register(sys.stdout, select.POLLOUT)
        self._last_ticks = time.ticks_ms()
        self._ms = 0
        self._wdt = machine.WDT(timeout=self.WDT_MS) if watchdog else None

    def device_id(self) -> str:
        return "".join(f"{b:02X}" for b in machine.unique_id())

    def ticks_ms(self) -> int:
        # ticks_ms wraps after ~12 days; count the differences so our clock never does.
        now = time.ticks_ms()
        self._ms += time.ticks_diff(now, self._last_ticks)
        self._last_ticks = now
        return self._ms

    def button_pressed(self) -> bool:
        return self._button.value() == 0  # pull-up: pressed pulls the pin to GND

    def read(self) -> bytes | None:
        out = bytearray()
        while len(out) < self.READ_MAX and self._rx.poll(0):
            byte = self._stdin.read(1)
            if not byte:
                break
            out += byte
        return bytes(out)

    def write(self, data: bytes) -> int:
        # The rp2 USB CDC write waits up to 500 ms for room when a host has the port open but
        # does not read, and poll() reports "writable" as soon as a single byte is free. So
        # write one byte per successful poll: that can never wait. When no host has the port
        # open, writes go to the USB FIFO (which keeps the newest data) and return at once.
        n = 0
        for i in range(len(data)):
            if not self._tx.poll(0):
                break
            self._stdout.write(data[i : i + 1])
            n += 1
        return n

    def show(self, frame: list) -> None:
        strip = self._strip
        for i in range(min(len(frame), pins.LED_COUNT)):
            strip[i] = frame[i]
        strip.write()

    def status_led(self, on: bool) -> None:
        self._status.value(1 if on else 0)

    def display(self, buf: bytearray) -> None:
        self._oled.show(buf)

    def tone(self, hz: int) -> None:
        if hz <= 0:
            if self._buzzer is not None:
                self._buzzer.duty_u16(0)
            return
        if self._buzzer is None:
            self._buzzer = machine.PWM(machine.Pin(pins.BUZZER_GPIO))
        self._buzzer.freq(hz)
        self._buzzer.duty_u16(self.BUZZER_DUTY)

    def feed_watchdog(self) -> None:
        if self._wdt is not None:
            self._wdt.feed()

    def fault(self, where: str, exc: BaseException) -> None:
        pass  # nowhere to report it; the task carries on and the watchdog guards the loop


def button_held(ms: int = 60) -> bool:
    """True when the roll button is held down for the whole of ``ms`` (checked at power-up)."""
    pin = machine.Pin(pins.BUTTON_GPIO, machine.Pin.IN, machine.Pin.PULL_UP)
    start = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), start) < ms:
        if pin.value():
            return False
        time.sleep_ms(5)
    return True


def main() -> None:
    """Start the dice box, unless the button is held: then stay in the REPL for updates."""
    if button_held():
        status = machine.Pin(pins.STATUS_LED, machine.Pin.OUT)
        status.value(1)
        print("dicebox: button held at power-up - staying in the REPL (no firmware running)")
        return
    hw = Rp2Hardware()
    # 128 bits from the hardware's entropy source (ROSC on RP2040, TRNG on RP2350).
    dice = Dice(Xoshiro128(seed_bytes=os.urandom(16)).getrandbits)
    boot_id = "".join(f"{b:02X}" for b in os.urandom(4))
    box = DiceBox(dice, hw.device_id(), boot_id, hw.ticks_ms(), pins.LED_COUNT, Store(STORE_PATH))
    runner = Runner(box, hw)
    box.on_roll = runner.refresh  # the display shows a roll before it is written to flash
    try:
        asyncio.run(runner.run())
    finally:
        # Runner.run only returns if stopped; restart cleanly rather than sit in the REPL.
        machine.reset()
