"""Runs at power-up on the Pico: the dice box firmware.

Hold the roll button while plugging the Pico in to skip it and stay in the MicroPython REPL
(needed for `make flash` and `mpremote` once the firmware is installed).
"""

from dicebox import hw_rp2

hw_rp2.main()
