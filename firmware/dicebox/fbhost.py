"""A stand-in for MicroPython's `framebuf`, for CPython: only what `screen.py` draws with.

The bytes are laid out as MONO_VLSB (each byte a column of 8 pixels, least significant bit on
top, byte rows of 8 pixel rows), the layout of `framebuf.MONO_VLSB` and of the SSD1306/SH1106's
memory, so a frame drawn here is byte for byte the frame drawn by the real module.
"""

MONO_VLSB = 0


class FrameBuffer:
    def __init__(self, buf: bytearray, width: int, height: int, fmt: int) -> None:
        if fmt != MONO_VLSB:
            raise ValueError("only MONO_VLSB is provided")
        if len(buf) < width * ((height + 7) // 8):
            raise ValueError("buffer too small")
        self.buf = buf
        self.width = width
        self.height = height

    def fill(self, c: int) -> None:
        value = 0xFF if c else 0
        buf = self.buf
        for i in range(self.width * ((self.height + 7) // 8)):
            buf[i] = value

    def pixel(self, x: int, y: int, c: int = -1) -> int | None:
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        index = (y >> 3) * self.width + x
        bit = 1 << (y & 7)
        if c < 0:
            return 1 if self.buf[index] & bit else 0
        if c:
            self.buf[index] |= bit
        else:
            self.buf[index] &= ~bit & 0xFF
        return None

    def fill_rect(self, x: int, y: int, w: int, h: int, c: int) -> None:
        x0 = max(0, x)
        y0 = max(0, y)
        x1 = min(self.width, x + w)
        y1 = min(self.height, y + h)
        buf = self.buf
        width = self.width
        for yy in range(y0, y1):
            row = (yy >> 3) * width
            bit = 1 << (yy & 7)
            if c:
                for xx in range(x0, x1):
                    buf[row + xx] |= bit
            else:
                mask = ~bit & 0xFF
                for xx in range(x0, x1):
                    buf[row + xx] &= mask

    def rect(self, x: int, y: int, w: int, h: int, c: int) -> None:
        self.fill_rect(x, y, w, 1, c)
        self.fill_rect(x, y + h - 1, w, 1, c)
        self.fill_rect(x, y, 1, h, c)
        self.fill_rect(x + w - 1, y, 1, h, c)
