"""Build files of the dice box: pin map helpers, schematic, power budget and enclosure generators.

Everything here is derived from `firmware/dicebox/pins.py`, the single source of truth for the
wiring. Run `make schematic` and `make enclosure` to regenerate the committed pictures.
"""
