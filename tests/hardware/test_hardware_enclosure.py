"""The enclosure builds from source with OpenSCAD and follows its parameters."""

from __future__ import annotations

from pathlib import Path

import pytest
from hw_helpers import read_ascii_stl
from PIL import Image

from hardware import enclosure, pinmap

FN = 16  # coarse circles keep the renders to a few seconds


@pytest.fixture(scope="module")
def params() -> enclosure.Params:
    return enclosure.Params(led_count=pinmap.load().led_count, fn=FN)


def _outer_length(params: enclosure.Params) -> float:
    """The box length enclosure.scad derives: the strip plus margins, or room for the button."""
    inner = max(params.strip_len + 20, params.button_bezel_d + 2 * 21 + 30)
    return inner + 2 * 2.4


@pytest.mark.slow
@pytest.mark.parametrize("part", enclosure.PARTS)
def test_part_renders_to_a_closed_stl_of_the_right_size(
    tmp_path: Path, params: enclosure.Params, part: str
) -> None:
    out = enclosure.render_stl(params, part, tmp_path / f"{part}.stl")
    stl = read_ascii_stl(out)
    assert stl.facets > 200
    assert stl.open_edges == 0, "the surface is not closed (not printable)"
    length, width, height = stl.size
    assert length == pytest.approx(_outer_length(params), abs=0.05)
    assert length >= params.strip_len + 2 * 2.4
    assert width > params.button_bezel_d
    if part == "lid":
        assert height == pytest.approx(3 + 3, abs=0.05)  # plate + piezo ring
    else:
        assert height > 40


@pytest.mark.slow
def test_strip_length_comes_from_led_count(tmp_path: Path, params: enclosure.Params) -> None:
    longer = enclosure.Params(led_count=params.led_count + 4, fn=FN)
    stl = read_ascii_stl(enclosure.render_stl(longer, "lid", tmp_path / "lid.stl"))
    assert stl.size[0] == pytest.approx(_outer_length(longer), abs=0.05)
    assert _outer_length(longer) - _outer_length(params) == pytest.approx(
        4 * enclosure.LED_PITCH_MM
    )


@pytest.mark.slow
def test_button_hole_follows_the_parameter(tmp_path: Path) -> None:
    # A lid for a much bigger button: the box widens with the bezel.
    big = enclosure.Params(led_count=pinmap.load().led_count, button_d=40, button_bezel_d=90, fn=FN)
    small = enclosure.Params(led_count=pinmap.load().led_count, fn=FN)
    big_stl = read_ascii_stl(enclosure.render_stl(big, "lid", tmp_path / "big.stl"))
    small_stl = read_ascii_stl(enclosure.render_stl(small, "lid", tmp_path / "small.stl"))
    assert big_stl.size[1] - small_stl.size[1] == pytest.approx(90 - 62, abs=0.05)


@pytest.mark.slow
def test_picture_renders(tmp_path: Path, params: enclosure.Params) -> None:
    out = enclosure.render_picture(params, tmp_path / "enclosure.png")
    with Image.open(out) as image:
        assert image.size == (1200, 900)
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50, "the picture is blank"


def test_committed_picture_exists_and_is_a_png() -> None:
    with Image.open(enclosure.PICTURE) as image:
        assert image.format == "PNG" and image.size == (1200, 900)
