"""What the box's 128x64 OLED shows, drawn with `framebuf` into a MONO_VLSB buffer.

Pure drawing: `Screen.draw(state)` paints one frame from a `DiceBox.screen_state` tuple; the
hardware layer sends `Screen.buf` to the display. Layout, top to bottom:

- y 0-9: whose turn it is (from the tablet's ``SHOW``); a tablet struck through without a
  tablet. On the right, small marks: the dice mode (``BAL`` balanced, ``DECK`` deck; none for
  fair dice), ``USB`` (tablet connected), an arrow up and n (n rolls waiting for the tablet), a
  padlock (disarmed: the tablet refuses rolls now).
- y 12-41: the yellow die (outlined, white pips) and the red die (solid, black pips), shaking for
  `SHAKE_MS` after a press with their final faces; the sum, inverted with the robber's pawn on a
  7. Before the first roll: both dice blank and an arrow pressing the button.
- y 44-53: the event die: a ship, or the castle's colour and its track, and who draws a
  progress card (a card, then ``SHOW draws=`` or ``draw=``: up to six names, in two rows cut to
  their columns when they do not fit beside the track); crossed swords and the ship blinking
  while the barbarians attack.
- y 56-63: the barbarian track, one cell per space, the ship's cell filled.

Text is a 3x5 font of our own and the symbols small bitmaps (`_ICONS`), scaled up with
`fill_rect`, so a frame is the same pixels with MicroPython's `framebuf` and with the CPython
stand-in (`fbhost`). The box's own words are symbols where one reads at arm's length; the
castle's colour stays a word (on a one-colour display no symbol says yellow, blue or green more
plainly), as do the track's name, the mode marks and ``USB``.
"""

try:
    import framebuf
except ImportError:  # CPython: the stand-in with the same bytes
    from . import fbhost as framebuf  # type: ignore[no-redef]

WIDTH = 128
HEIGHT = 64
SHAKE_MS = 300  # the roll animation: the dice shake with their final faces
SHAKE_STEP_MS = 50
_SHAKE_DX = (-2, 2, -1, 2, -1, 1)  # the dice move apart and back: 6 px between them, never touching
_SHAKE_DY = (2, -2, 1, -1, 1, 0)

# One glyph per ASCII character from 32 (space) to 95 (_), by code: 5 rows of 3 bits, the
# top-left pixel in bit 14, 2 bytes a glyph, high byte first (bytes rather than a tuple: less of
# the heap). Characters without a glyph (and the space) are blank. Looked up by the code itself:
# the rp2 port's bytes.find takes no int.
_GLYPHS = (
    b"\x00\x00\x24\x82\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x05\xd0\x00\x00\x01\xc0\x00\x02\x12\xa4\x7b\x6f\x2c\x97\x73\xe7\x72\xcf\x5b\xc9\x79\xcf"
    b"\x79\xef\x72\x52\x7b\xef\x7b\xcf\x04\x10\x00\x00\x00\x00\x00\x00\x00\x00\x62\x82\x00\x00"
    b"\x2b\xed\x6b\xae\x39\x23\x6b\x6e\x79\xa7\x79\xa4\x39\x6b\x5b\xed\x74\x97\x12\x6a\x5b\xad"
    b"\x49\x27\x5f\xed\x6b\x6d\x2b\x6a\x6b\xa4\x2b\x73\x6b\xad\x38\x8e\x74\x92\x5b\x6f\x5b\x6a"
    b"\x5b\xfd\x5a\xad\x5a\x92\x72\xa7\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
)

# Pip positions on a 30-pixel die: column * 3 + row, in thirds (0 left/top, 1 middle, 2
# right/bottom). Bytes rather than tuples of tuples: less of the heap.
_PIPS = (b"", b"\x04", b"\x00\x08", b"\x00\x04\x08", b"\x00\x06\x02\x08",
         b"\x00\x06\x04\x02\x08", b"\x00\x06\x01\x07\x02\x08")  # fmt: skip
DIE = 30
MODE_MARKS = (b"", b"BAL", b"DECK")  # by dice mode (`protocol.DICE_MODES`): fair dice show none

# The event die's castles: the colour printed on the display and the progress track it names.
CASTLES = {
    "trade": (b"YELLOW", b"TRADE"),
    "politics": (b"BLUE", b"POLITICS"),
    "science": (b"GREEN", b"SCIENCE"),
}


# The symbols, one after another: width, height, then a row of 16 bits (2 bytes, the leftmost
# pixel in the top bit) per row. In `text`, the byte 0x80 + n is symbol n. By number:
# 0 the ship (16x10)   1 a castle (14x10)           2 the robber's pawn (7x10)
# 3 crossed swords (10x10)   4 an arrow pressing the button (11x10)   5 a card (5x5)
# 6 a tablet struck through (14x10)   7 a padlock (5x5)   8 an arrow up (5x5)
_ICONS = (
    b"\x10\x0a\x01\x00\x01\xf0\x1f\xf0\x1f\xf0\x1f\xf0\x01\x00\x01\x00\xff\xff\x7f\xfe\x1f\xf8"
    b"\x0e\x0a\xcc\xcc\xcc\xcc\xcc\xcc\xff\xfc\xff\xfc\xff\xfc\xf8\x7c\xf8\x7c\xf8\x7c\xf8\x7c"
    b"\x07\x0a\x38\x00\x7c\x00\x7c\x00\x38\x00\x10\x00\x38\x00\x7c\x00\x7c\x00\xfe\x00\xfe\x00"
    b"\x0a\x0a\xc0\xc0\xe1\xc0\x73\x80\x3f\x00\x1e\x00\x1e\x00\x3f\x00\x52\x80\xc0\xc0\x80\x40"
    b"\x0b\x0a\x0e\x00\x0e\x00\x0e\x00\x3f\x80\x1f\x00\x0e\x00\x04\x00\x00\x00\x7f\xc0\xff\xe0"
    b"\x05\x05\xf0\x00\x98\x00\x88\x00\x88\x00\xf8\x00\x0e\x0a\x80\x00\x7f\xfc\x60\x08\x50\x08"
    b"\x48\x08\x44\x08\x42\x08\x41\x08\x7f\xfc\x00\x04\x05\x05\x70\x00\x88\x00\xf8\x00\xd8\x00"
    b"\xf8\x00\x05\x05\x20\x00\x70\x00\xa8\x00\x20\x00\x20\x00"
)


def _at(n: int) -> int:
    """Where symbol ``n`` starts in `_ICONS`."""
    at = 0
    for _ in range(n):
        at += 2 + 2 * _ICONS[at + 1]
    return at


def text_width(text: bytes, scale: int) -> int:
    width = -1
    for char in text:
        width += _ICONS[_at(char - 128)] + 1 if char >= 128 else 4
    return width * scale if text else 0


class Screen:
    def __init__(self) -> None:
        self.buf = bytearray(WIDTH * HEIGHT // 8)
        self.fb = framebuf.FrameBuffer(self.buf, WIDTH, HEIGHT, framebuf.MONO_VLSB)

    # ---- primitives ---------------------------------------------------------------------------
    def text(self, text: bytes, x: int, y: int, scale: int = 1, c: int = 1) -> int:
        """Draw ``text`` (upper-case ASCII) from (x, y); returns the x after it. Bytes, not str:
        on MicroPython a word written as a str is a qstr, and each character taken from a str
        is interned as one."""
        fb = self.fb
        for char in text:
            if char >= 128:
                x = self.icon(char - 128, x, y, scale, c)
                continue
            if 32 <= char < 96:
                glyph = _GLYPHS[2 * char - 64] << 8 | _GLYPHS[2 * char - 63]
                bit = 14
                for row in range(5):
                    for col in range(3):
                        if glyph >> bit & 1:
                            fb.fill_rect(x + col * scale, y + row * scale, scale, scale, c)
                        bit -= 1
            x += 4 * scale
        return x

    def die(self, x: int, y: int, value: int, solid: bool) -> None:
        fb = self.fb
        if solid:
            fb.fill_rect(x, y, DIE, DIE, 1)
            # rounded corners
            for cx, cy in ((x, y), (x + DIE - 1, y), (x, y + DIE - 1), (x + DIE - 1, y + DIE - 1)):
                fb.pixel(cx, cy, 0)
        else:
            fb.rect(x, y, DIE, DIE, 1)
            fb.rect(x + 1, y + 1, DIE - 2, DIE - 2, 1)
        pip = 0 if solid else 1
        for place in _PIPS[value]:
            px = x + 4 + place // 3 * 8
            py = y + 4 + place % 3 * 8
            fb.fill_rect(px + 1, py, 4, 6, pip)
            fb.fill_rect(px, py + 1, 6, 4, pip)

    def icon(self, n: int, x: int, y: int, scale: int = 1, c: int = 1) -> int:
        """Draw symbol ``n`` of `_ICONS` from (x, y); returns the x after it and a gap."""
        at = _at(n)
        fb = self.fb
        for row in range(_ICONS[at + 1]):
            bits = _ICONS[at + 2 + 2 * row] << 8 | _ICONS[at + 3 + 2 * row]
            for col in range(_ICONS[at]):
                if bits >> (15 - col) & 1:
                    fb.fill_rect(x + col * scale, y + row * scale, scale, scale, c)
        return x + (_ICONS[at] + 1) * scale

    # ---- the frame ----------------------------------------------------------------------------
    def draw(self, state: tuple) -> None:
        """Paint ``state`` (see `DiceBox.screen_state`) into `buf`. A state of 12 values, without
        the dice mode (as drawn before the modes), is fair dice; one of 13, without the sea
        flag, an island."""
        yellow, red, event, shake, pos, length, attack, host, armed, waiting, turn, draw = state[
            :12
        ]
        mode = state[12] if len(state) > 12 else 0
        sea = len(state) > 13 and state[13]
        fb = self.fb
        fb.fill(0)
        # status marks, right-aligned, small
        marks = []
        if mode:
            marks.append(MODE_MARKS[mode])
        if host:
            marks.append(b"USB")
            if not armed:
                marks.append(b"\x87")  # a padlock: the tablet refuses rolls now
        if waiting:
            marks.append(b"\x88%d" % waiting)  # an arrow up: rolls waiting for the tablet
        mark_text = b" ".join(marks)
        mark_x = WIDTH - text_width(mark_text, 1)
        self.text(mark_text, mark_x, 0)
        # whose turn; a tablet struck through when there is none
        if turn:
            self.text(turn.encode()[: (mark_x - 2) // 8], 0, 0, 2)
        elif not host:
            self.icon(6, 0, 0)
        # dice and sum
        if yellow:
            dx = dy = 0
            if shake >= 0:
                dx = _SHAKE_DX[shake % 6]
                dy = _SHAKE_DY[shake % 6]
            self.die(2 + dx, 12 + dy, yellow, False)
            self.die(38 - dx, 12 - dy, red, True)
            total = b"%d" % (yellow + red)
            seven = yellow + red == 7
            w = text_width(total, 4)
            sx = 100 - w // 2
            if seven and sea:  # the 7, the robber's pawn "OR" a ship (the pirate), inverted
                fb.fill_rect(76, 10, 46, 24, 1)
                self.text(total, 80, 12, 4, 0)
                self.text(b"OR", self.icon(2, 96, 12, 1, 0) + 2, 15, 1, 0)
                self.icon(0, 98, 23, 1, 0)
            elif seven:  # the 7 and the robber's pawn, inverted
                fb.fill_rect(76, 10, 46, 24, 1)
                self.text(total, 82, 12, 4, 0)
                self.icon(2, 100, 12, 2, 0)
            else:
                self.text(total, sx, 12, 4)
        else:  # nothing rolled yet: blank dice, and an arrow pressing the button
            self.die(2, 12, 0, False)
            self.die(38, 12, 0, True)
            self.icon(4, 89, 14, 2)
        # event die or the attack
        if attack >= 0:
            if attack % 2 == 0:
                fb.fill_rect(0, 43, WIDTH, 12, 1)
            # the barbarians' ship between crossed swords, blinking
            battle = b"\x83   \x80   \x83"
            self.text(battle, (WIDTH - text_width(battle, 1)) // 2, 44, 1, attack % 2)
        elif event == "ship":
            self.icon(0, 2, 44)
        elif event in CASTLES:
            colour, track = CASTLES[event]
            self.icon(1, 2, 44)
            x = self.text(colour, 22, 44, 2) + 3
            if not draw:
                self.text(track, x, 49)
            elif text_width(b"\x85 " + draw.encode(), 1) <= WIDTH - x:
                self.text(track, x, 44)  # a card, then who draws, under the track's name
                self.text(b"\x85 " + draw.replace(".", " ").encode(), x, 50)
            else:  # more names than fit (up to six): two rows of names, each cut to its column
                names = draw.split(".")
                per_row = (len(names) + 1) // 2
                cut = ((WIDTH - x + 1) // 4 + 1) // per_row - 1
                for i in range(len(names)):
                    column = x + i % per_row * (cut + 1) * 4
                    self.text(names[i][:cut].encode(), column, 44 + i // per_row * 6)
        # barbarian track
        if length > 1:
            cell = WIDTH // length
            left = (WIDTH - cell * length) // 2
            for i in range(length):
                x = left + i * cell
                if i == pos:
                    fb.fill_rect(x + 1, 56, cell - 2, 8, 1)
                else:
                    fb.rect(x + 1, 56, cell - 2, 8, 1)
                    if i < pos:
                        fb.fill_rect(x + cell // 2 - 1, 59, 2, 2, 1)
                    if i == length - 1:
                        fb.rect(x + 3, 58, cell - 6, 4, 1)
