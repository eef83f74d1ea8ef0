"""Each player's hand on their own phone: a private page per seat, paired from the tablet.

The table server (aiohttp, on its own thread and loop) serves each seat's page and a
WebSocket; the tablet stays the referee. See ``docs/phones.md``.
"""
