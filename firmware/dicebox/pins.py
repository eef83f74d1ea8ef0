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

# 128x64 OLED on I2C0 (SSD1306 0.96" or SH1106 1.3", 4-pin modules: GND VCC SCL SDA), at 400 kHz.
# The modules carry their own 4.7k-10k pull-ups to VCC (3V3 here).
OLED_I2C_ID = 0
OLED_SDA_GPIO = 4
OLED_SCL_GPIO = 5
OLED_ADDR = 0x3C
OLED_I2C_HZ = 400000
# "SSD1306" or "SH1106" (the SH1106's 132-column memory shows columns 2-129).
OLED_CONTROLLER = "SSD1306"
