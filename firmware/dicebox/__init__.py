"""Dice box firmware: a Raspberry Pi Pico with a roll button and a barbarian-track LED strip.

Only `hw_rp2` touches the Pico's hardware; every other module is plain Python that runs the same
under MicroPython (on the Pico and in the unix VM) and CPython (`hw_host` stands in for the
hardware there).
"""

FIRMWARE_VERSION = "1.1.0"
