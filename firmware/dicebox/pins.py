"""The dice box's pin map: the single source of truth for the wiring.

The firmware's hardware module reads these names; `hardware/` draws the schematic and writes the
wiring table from this file, and a test keeps the three in agreement. Numbers are RP2040/RP2350
GPIO numbers (GPn on the Pico's pinout), not physical pin numbers.
"""

# Roll button: momentary, between this GPIO and GND; the internal pull-up holds it high.
BUTTON_GPIO = 15

# WS2812B strip data in (through a series resistor). 7 barbarian track spaces + 1 attack LED.
LED_DATA_GPIO = 16
LED_COUNT = 8

# Optional piezo buzzer (driven with PWM), between this GPIO and GND.
BUZZER_GPIO = 14

# On-board LED, used for link status. "LED" works on both the Pico and the Pico W/2 W.
STATUS_LED = "LED"
