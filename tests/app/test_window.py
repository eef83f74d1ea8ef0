"""The window takes its screen: which display, fullscreen or not, and the density's two rules,
with numbers (Kivy-free: `companion_app.presenters.display` and the command line's `screen_for`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion_app.__main__ import parse_args, screen_for
from companion_app.presenters.display import (
    DisplaySize,
    choose_density,
    edid_size_mm,
    read_drm_display,
    window_on_screen,
)

PI_7_INCH = DisplaySize(800, 480, 154.08, 85.92, "DSI-1, a known panel")


def test_the_window_rule_is_the_short_side_over_800_at_least_1() -> None:
    for (w, h), expected in {
        (1280, 800): 1.0,
        (800, 1280): 1.0,
        (1920, 1200): 1.5,
        (1024, 600): 1.0,
        (800, 480): 1.0,
        (2560, 1600): 2.0,
    }.items():
        density = choose_density(DisplaySize(w, h))
        assert (density.rule, density.value) == ("window", expected), (w, h)


def test_the_physical_rule_makes_44_dp_at_least_7_mm() -> None:
    # A 10.1" 1920x1200 Android tablet: 216.96 x 135.6 mm, 8.85 px/mm: 44 dp = 7 mm needs
    # 61.9 px, a density of 1.408 (the window rule would say 1.5).
    tablet = DisplaySize(1920, 1200, 216.96, 135.6, "Android")
    density = choose_density(tablet)
    assert density.rule == "physical"
    assert density.value == pytest.approx(7.0 * 1920 / 216.96 / 44)
    assert 44 * density.value / (1920 / 216.96) == pytest.approx(7.0)
    # A portrait 10" 1600x2560 tablet at 300 dpi: 11.81 px/mm, density 1.879, 852x1362 dp.
    portrait = choose_density(DisplaySize(1600, 2560, 135.5, 216.8, "Android"))
    assert portrait.value == pytest.approx(7.0 * 2560 / 216.8 / 44, rel=1e-3)
    assert "44 dp = 7.0 mm" in portrait.why and "capped" not in portrait.why


def test_the_physical_rule_keeps_the_window_as_large_as_the_checked_layouts() -> None:
    """A dense small screen would need more than the layouts have room for: the density stops
    where the window is the smallest layout the tour checks, and the line says so."""
    # A phone-dense 6" 2400x1080 screen: 20 px/mm would need 3.18; 1080 / 480 = 2.25.
    phone = choose_density(DisplaySize(2400, 1080, 120.0, 54.0, "Android"))
    assert phone.value == 2.25
    assert phone.why.endswith(
        "44 dp = 5.0 mm, capped at 2.250: the layouts are checked down to 800x480 dp"
    )
    # Touch Display 2: 720x1280 on 87x155 mm, 8.28 px/mm would need 1.317; portrait layouts
    # are checked down to 720x1280 dp, so it stays at 1 (44 dp = 5.3 mm).
    touch_display_2 = choose_density(DisplaySize(720, 1280, 87.0, 155.0, "DSI-1"))
    assert touch_display_2.value == 1.0
    assert "44 dp = 5.3 mm, capped at 1.000: the layouts are checked down to 720x1280 dp" in (
        touch_display_2.why
    )


def test_the_physical_rule_never_shrinks_dp_below_pixels() -> None:
    """The Pi's 7" panel is coarse (5.19 px/mm across): 44 px are already 8.5 mm, so dp stay
    pixels, the 800x480 layout the tour checks."""
    density = choose_density(PI_7_INCH)
    assert (density.rule, density.value) == ("physical", 1.0)
    assert "44 dp = 7.9 mm" in density.why  # along the denser axis: 480 px / 85.92 mm
    big_tv = choose_density(DisplaySize(1920, 1080, 1210.0, 680.0, "HDMI-A-1's EDID"))
    assert (big_tv.rule, big_tv.value) == ("physical", 1.0)


@pytest.mark.parametrize(
    ("mm", "reason"),
    [
        ((None, None), "does not say"),
        ((0.0, 0.0), "not a real display's size"),
        ((16.0, 9.0), "not a real display's size"),  # an EDID's aspect ratio, not a size
        ((300.0, 90.0), "not the pixels' shape"),
        ((40.0, 25.0), "px/mm, not a real display's"),  # 48 px/mm
    ],
)
def test_an_unbelievable_size_falls_back_to_the_window_rule(
    mm: tuple[float | None, float | None], reason: str
) -> None:
    density = choose_density(DisplaySize(1920, 1200, mm[0], mm[1], "X"))
    assert (density.rule, density.value) == ("window", 1.5)
    assert reason in density.why


def edid(w_mm: int, h_mm: int, w_cm: int, h_cm: int, *, timing: bool = True) -> bytes:
    block = bytearray(128)
    block[:8] = b"\x00\xff\xff\xff\xff\xff\xff\x00"
    block[21], block[22] = w_cm, h_cm
    if timing:
        block[54], block[55] = 0x02, 0x3A  # a pixel clock: a detailed timing descriptor
        block[66], block[67] = w_mm & 0xFF, h_mm & 0xFF
        block[68] = (w_mm >> 8) << 4 | (h_mm >> 8)
    return bytes(block)


def test_edid_sizes() -> None:
    assert edid_size_mm(edid(527, 296, 53, 30)) == (527.0, 296.0)  # a 24" monitor
    assert edid_size_mm(edid(1210, 680, 121, 68)) == (1210.0, 680.0)  # > 255 mm: high bits
    assert edid_size_mm(edid(0, 0, 53, 30, timing=False)) == (530.0, 300.0)
    assert edid_size_mm(edid(0, 0, 0, 0, timing=False)) is None
    assert edid_size_mm(b"") is None
    assert edid_size_mm(b"\x01" * 128) is None


def fake_connector(root: Path, name: str, modes: str, edid_bytes: bytes, status: str) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "status").write_text(status + "\n")
    (folder / "modes").write_text(modes)
    (folder / "edid").write_bytes(edid_bytes)


def test_drm_finds_the_connected_display(tmp_path: Path) -> None:
    fake_connector(tmp_path, "card1-HDMI-A-1", "", b"", "disconnected")
    fake_connector(tmp_path, "card1-DSI-1", "800x480\n", b"", "connected")
    assert read_drm_display(tmp_path) == PI_7_INCH
    hdmi = tmp_path / "hdmi"
    fake_connector(
        hdmi, "card0-HDMI-A-1", "1920x1080\n1280x720\n", edid(527, 296, 53, 30), "connected"
    )
    assert read_drm_display(hdmi) == DisplaySize(1920, 1080, 527.0, 296.0, "HDMI-A-1's EDID")
    unknown = tmp_path / "unknown"
    fake_connector(unknown, "card0-DSI-1", "1024x600\n", b"", "connected")
    assert read_drm_display(unknown) == DisplaySize(1024, 600, source="DSI-1")
    assert read_drm_display(tmp_path / "none") is None


def never(*_args: object) -> None:
    raise AssertionError("not asked")


def test_size_forces_a_window_and_the_window_rule() -> None:
    display, fullscreen = screen_for(
        parse_args(["--size", "800x480"]), {"SDL_VIDEODRIVER": "kmsdrm"}, never, never
    )
    assert (display, fullscreen) == (DisplaySize(800, 480, source="--size"), False)
    assert choose_density(display).rule == "window"


def test_a_kiosk_takes_its_display_whole() -> None:
    display, fullscreen = screen_for(
        parse_args([]), {"SDL_VIDEODRIVER": "kmsdrm"}, lambda: PI_7_INCH
    )
    assert (display, fullscreen) == (PI_7_INCH, True)
    assert choose_density(display).rule == "physical"


def test_a_desktop_gets_a_window_unless_asked_for_the_whole_screen() -> None:
    assert screen_for(parse_args([]), {}, never, lambda: (1920, 1080)) == (
        DisplaySize(1280, 800, source="the default window"),
        False,
    )
    display, fullscreen = screen_for(parse_args(["--fullscreen"]), {}, never, lambda: (720, 1280))
    assert (display, fullscreen) == (DisplaySize(720, 1280, source="the desktop"), True)


def test_display_mm_gives_the_physical_rule() -> None:
    args = parse_args(["--size", "1920x1200", "--display-mm", "216.96x135.6"])
    display, _ = screen_for(args, {}, never, never)
    assert (display.width_mm, display.height_mm) == (216.96, 135.6)
    assert choose_density(display).value == pytest.approx(1.408, abs=1e-3)


def test_a_bad_display_mm_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        parse_args(["--display-mm", "wide"])
    assert stopped.value.code == 2
    assert "--display-mm must look like WIDTHxHEIGHT" in capsys.readouterr().err


def test_a_window_is_never_larger_than_its_screen() -> None:
    """1280x800 where it fits; on a smaller screen (a Pi's 800x480 desktop) the screen's own
    size, which the layouts are checked at, and its window rule keeps dp as pixels."""
    default = (1280, 800)
    for screen, expected in {
        (1920, 1080): (1280, 800),
        (1280, 800): (1280, 800),
        (800, 480): (800, 480),
        (1024, 600): (1024, 600),
        (800, 1280): (800, 1280),  # a portrait panel: too narrow, its portrait layout
        (1366, 768): (1366, 768),  # too low by 32 px
    }.items():
        window = window_on_screen(default, screen)
        assert (window.width_px, window.height_px) == expected, screen
        assert window.width_px <= screen[0] and window.height_px <= screen[1]
    assert window_on_screen(default, None) == DisplaySize(1280, 800, source="the default window")
    small, fullscreen = screen_for(parse_args([]), {}, never, lambda: (800, 480))
    assert (small.width_px, small.height_px, fullscreen) == (800, 480, False)
    assert "smaller than 1280x800" in small.source
    assert choose_density(small).value == 1.0
    forced, _ = screen_for(parse_args(["--size", "1280x800"]), {}, never, never)
    assert (forced.width_px, forced.height_px) == (1280, 800)  # --size is taken as asked
