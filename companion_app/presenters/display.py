"""The screen the app runs on: its size in pixels and, where the platform knows it, on the glass.

Kivy-free, so the rules are tested with numbers. Two density rules:

- **physical**: the display's size in millimetres is known (Android's display metrics, a
  kiosk display's EDID through DRM, or ``--display-mm``): a touch target of 44 dp is at least
  7 mm on the glass, but dp are never smaller than pixels and the window never smaller in dp
  than the layouts are checked at (`SMALLEST_CHECKED_DP`);
- **window**: nothing is known of the glass: the window's short side / 800, at least 1 (the
  layouts are laid out for 800 dp on the short side; 1920x1200 scales them by 1.5).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

TARGET_DP = 44
"""The smallest touch target the layouts draw."""
TARGET_MM = 7.0
"""What a finger needs: a 44 dp target is at least this on the glass."""
DESIGN_SHORT_SIDE = 800
"""The window rule: the layouts are laid out for at least 800 dp on the short side."""
PLAUSIBLE_MM = (20.0, 3000.0)
"""A display side outside this is a placeholder (EDID's 0, a projector's aspect-only size)."""
PLAUSIBLE_PX_PER_MM = (1.0, 40.0)
"""From a wall-sized TV to a phone's glass; outside it a reported size is wrong."""
SMALLEST_CHECKED_DP = {"landscape": (800, 480), "portrait": (720, 1280)}
"""The smallest windows the screenshot tour checks, in dp. The physical rule never makes the
window smaller than these in dp (the layouts are not checked there): on a dense small panel
(Touch Display 2: 720x1280 at 8.3 px/mm) 44 dp then stay below 7 mm, and the log says so."""


@dataclass(frozen=True)
class DisplaySize:
    """A display as a platform reports it; millimetres are None where it does not know them."""

    width_px: int
    height_px: int
    width_mm: float | None = None
    height_mm: float | None = None
    source: str = "the window"


@dataclass(frozen=True)
class Density:
    """The dp-to-pixel ratio a run uses, and the rule that gave it."""

    value: float
    rule: str
    """``physical`` or ``window``."""
    why: str

    def line(self) -> str:
        return f"density {self.value:.3f} by the {self.rule} rule: {self.why}"


def choose_density(display: DisplaySize) -> Density:
    """The physical rule where the glass's size is known and believable, else the window rule."""
    physical = _px_per_mm(display)
    if isinstance(physical, float):
        needed = TARGET_MM * physical / TARGET_DP
        room = _largest_checked_density(display.width_px, display.height_px)
        value = max(1.0, min(needed, room))
        capped = (
            f", capped at {value:.3f}: the layouts are checked down to "
            f"{_smallest_checked(display.width_px, display.height_px)} dp"
            if needed > value
            else ""
        )
        return Density(
            value,
            "physical",
            f"{display.width_px}x{display.height_px} px on {display.width_mm:g}x"
            f"{display.height_mm:g} mm ({display.source}), {physical:.2f} px/mm: "
            f"{TARGET_DP} dp = {TARGET_DP * value / physical:.1f} mm{capped}",
        )
    short = min(display.width_px, display.height_px)
    value = max(1.0, short / DESIGN_SHORT_SIDE)
    return Density(
        value,
        "window",
        f"short side {short} px / {DESIGN_SHORT_SIDE}, at least 1 ({physical})",
    )


def window_on_screen(default: tuple[int, int], screen: tuple[int, int] | None) -> DisplaySize:
    """A desktop's window: ``default`` where the screen has room for it, else the screen's own
    size (a Pi's 800x480 panel, a 1024x600 netbook: the layouts are checked there), so no part
    of the window is ever off the screen. An unknown screen keeps the default."""
    if screen is None:
        return DisplaySize(*default, source="the default window")
    width, height = screen
    if width >= default[0] and height >= default[1]:
        return DisplaySize(*default, source="the default window")
    return DisplaySize(width, height, source=f"a screen smaller than {default[0]}x{default[1]}")


def _smallest_checked(width_px: int, height_px: int) -> str:
    w, h = SMALLEST_CHECKED_DP["portrait" if height_px > width_px else "landscape"]
    return f"{w}x{h}"


def _largest_checked_density(width_px: int, height_px: int) -> float:
    """The density that makes the window the smallest checked layout of its orientation."""
    w, h = SMALLEST_CHECKED_DP["portrait" if height_px > width_px else "landscape"]
    return min(width_px / w, height_px / h)


def _px_per_mm(display: DisplaySize) -> float | str:
    """Pixels per millimetre along the denser axis, or why the size on the glass is not used."""
    w_mm, h_mm = display.width_mm, display.height_mm
    if w_mm is None or h_mm is None:
        return f"{display.source} does not say the size on the glass"
    low, high = PLAUSIBLE_MM
    if not (low <= w_mm <= high and low <= h_mm <= high):
        return f"{display.source} says {w_mm:g}x{h_mm:g} mm, not a real display's size"
    across, down = display.width_px / w_mm, display.height_px / h_mm
    if max(across, down) > 1.25 * min(across, down):
        return f"{display.source} says {w_mm:g}x{h_mm:g} mm, not the pixels' shape"
    denser = max(across, down)
    if not PLAUSIBLE_PX_PER_MM[0] <= denser <= PLAUSIBLE_PX_PER_MM[1]:
        return f"{display.source} says {denser:.2f} px/mm, not a real display's"
    return denser


def parse_size(text: str, what: str) -> tuple[float, float]:
    """``WIDTHxHEIGHT`` as two positive numbers. :raises ValueError: with a one-line reason."""
    parts = text.lower().split("x")
    try:
        width, height = (float(v) for v in parts)
    except ValueError:
        raise ValueError(f"{what} must look like WIDTHxHEIGHT, got {text!r}") from None
    if not (width > 0 and height > 0):
        raise ValueError(f"{what} must be positive, got {text!r}")
    return width, height


# ---- a kiosk: the display behind DRM/KMS -----------------------------------------------------

KNOWN_PANELS: dict[tuple[int, int], tuple[float, float]] = {
    (800, 480): (154.08, 85.92),  # Raspberry Pi 7" Touch Display (active area)
    (480, 800): (85.92, 154.08),
    (720, 1280): (87.0, 155.0),  # Raspberry Pi Touch Display 2, 7" (from its diagonal)
    (1280, 720): (155.0, 87.0),
}
"""DSI panels have no EDID; the official ones are known by their mode."""


def edid_size_mm(edid: bytes) -> tuple[float, float] | None:
    """The image size an EDID block states: the first detailed timing's millimetres, else the
    basic block's centimetres; None for a short block or a zero size."""
    if len(edid) < 128 or edid[:8] != b"\x00\xff\xff\xff\xff\xff\xff\x00":
        return None
    timing = edid[54:72]
    if timing[0] or timing[1]:  # a detailed timing descriptor (pixel clock set)
        w_mm = timing[12] | (timing[14] >> 4) << 8
        h_mm = timing[13] | (timing[14] & 0x0F) << 8
        if w_mm and h_mm:
            return float(w_mm), float(h_mm)
    if edid[21] and edid[22]:
        return edid[21] * 10.0, edid[22] * 10.0
    return None


def read_drm_display(root: Path = Path("/sys/class/drm")) -> DisplaySize | None:
    """The first connected DRM connector's preferred mode and its size on the glass (EDID for
    HDMI, the table of official panels for DSI); None without a connected display."""
    for connector in sorted(root.glob("card*-*")):
        try:
            if (connector / "status").read_text().strip() != "connected":
                continue
            modes = (connector / "modes").read_text().split()
        except OSError:
            continue
        if not modes:
            continue
        try:
            width_px, height_px = (int(v) for v in modes[0].split("x")[:2])
        except ValueError:
            continue
        name = connector.name.split("-", 1)[1]
        try:
            mm = edid_size_mm((connector / "edid").read_bytes())
        except OSError:
            mm = None
        source = f"{name}'s EDID"
        if mm is None and name.startswith("DSI"):
            mm, source = KNOWN_PANELS.get((width_px, height_px)), f"{name}, a known panel"
        if mm is None:
            return DisplaySize(width_px, height_px, source=name)
        return DisplaySize(width_px, height_px, mm[0], mm[1], source)
    return None


def sdl_desktop_size() -> tuple[int, int] | None:
    """The first display's desktop mode in pixels, from the SDL2 library Kivy uses (opened
    and closed again before Kivy starts); None where SDL cannot tell."""
    import ctypes
    import ctypes.util
    import importlib.util

    spec = importlib.util.find_spec("kivy")
    bundled = []
    if spec is not None and spec.origin is not None:
        bundled = sorted(Path(spec.origin).parents[1].glob("Kivy.libs/libSDL2-2*.so*"))
    name = str(bundled[0]) if bundled else ctypes.util.find_library("SDL2")
    if name is None:
        return None

    class Mode(ctypes.Structure):
        _fields_ = (
            ("format", ctypes.c_uint32),
            ("w", ctypes.c_int),
            ("h", ctypes.c_int),
            ("refresh_rate", ctypes.c_int),
            ("driverdata", ctypes.c_void_p),
        )

    video = 0x20  # SDL_INIT_VIDEO
    try:
        sdl = ctypes.CDLL(name)
        if sdl.SDL_InitSubSystem(video) != 0:
            return None
        try:
            mode = Mode()
            if sdl.SDL_GetDesktopDisplayMode(0, ctypes.byref(mode)) != 0:
                return None
            return (mode.w, mode.h) if mode.w > 0 and mode.h > 0 else None
        finally:
            sdl.SDL_QuitSubSystem(video)
    except (OSError, AttributeError):
        return None


def on_kiosk(environ: Mapping[str, str] = os.environ) -> bool:
    """SDL draws straight to the display (KMS/DRM), with no desktop around the app."""
    return environ.get("SDL_VIDEODRIVER", "") == "kmsdrm"
