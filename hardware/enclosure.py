"""Renders the enclosure (hardware/enclosure.scad) with OpenSCAD.

    python -m hardware.enclosure [--out-dir DIR] [--button-d MM] [--button-bezel-d MM]
                                 [--fn N] [--no-picture]

The strip length comes from the firmware's pin map: LED_COUNT LEDs at the strip's LED pitch.
Writes base.stl and lid.stl (print these) into --out-dir, and the picture for the README
(hardware/enclosure.png) unless --no-picture. The picture needs an X display: it is rendered
under `xvfb-run` when no DISPLAY is set.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from hardware import pinmap

HERE = Path(__file__).resolve().parent
SCAD = HERE / "enclosure.scad"
BUILD_DIR = HERE / "build"
PICTURE = HERE / "enclosure.png"

# A 60 LEDs/m WS2812B strip; the BOM's strip. Keep in step with led_pitch in enclosure.scad.
LED_PITCH_MM = 1000 / 60
DEFAULT_BUTTON_D = 30.0
DEFAULT_BUTTON_BEZEL_D = 62.0
PARTS = ("base", "lid")


@dataclass(frozen=True)
class Params:
    """What the enclosure is built for."""

    led_count: int
    button_d: float = DEFAULT_BUTTON_D
    button_bezel_d: float = DEFAULT_BUTTON_BEZEL_D
    fn: int = 64

    @property
    def strip_len(self) -> float:
        return self.led_count * LED_PITCH_MM

    def defines(self) -> list[str]:
        """OpenSCAD -D arguments (the pitch is passed too, so both sides use this one value)."""
        return [
            "-D",
            f"led_count={self.led_count}",
            "-D",
            f"led_pitch={LED_PITCH_MM!r}",
            "-D",
            f"button_d={self.button_d!r}",
            "-D",
            f"button_bezel_d={self.button_bezel_d!r}",
            "-D",
            f"fn={self.fn}",
        ]


def openscad() -> str:
    found = shutil.which("openscad")
    if found is None:
        raise SystemExit("openscad is missing: apt-get install openscad (make test installs it)")
    return found


def _run(cmd: list[str]) -> None:
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{result.stdout}\n{result.stderr}")


def render_stl(params: Params, part: str, out: Path) -> Path:
    """Render one printable part ("base" or "lid") to an STL file."""
    if part not in PARTS:
        raise ValueError(f"part must be one of {PARTS}, not {part!r}")
    out.parent.mkdir(parents=True, exist_ok=True)
    _run([openscad(), "-o", str(out), "-D", f'part="{part}"', *params.defines(), str(SCAD)])
    return out


def render_picture(params: Params, out: Path = PICTURE) -> Path:
    """Render the exploded assembly to a PNG (OpenSCAD's preview, so colours show)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [
        openscad(),
        "-o",
        str(out),
        "-D",
        'part="assembly"',
        *params.defines(),
        "--imgsize=1200,900",
        "--viewall",
        "--autocenter",
        "--colorscheme=Tomorrow",
        "--camera=0,0,0,55,0,-35,0",
        str(SCAD),
    ]
    if not os.environ.get("DISPLAY"):
        xvfb_run = shutil.which("xvfb-run")
        if xvfb_run is None:
            raise SystemExit("xvfb-run is missing: apt-get install xvfb xauth")
        cmd = [xvfb_run, "-a", *cmd]
    _run(cmd)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", type=Path, default=BUILD_DIR)
    parser.add_argument("--button-d", type=float, default=DEFAULT_BUTTON_D)
    parser.add_argument("--button-bezel-d", type=float, default=DEFAULT_BUTTON_BEZEL_D)
    parser.add_argument("--fn", type=int, default=64)
    parser.add_argument("--no-picture", action="store_true")
    args = parser.parse_args(argv)
    params = Params(
        led_count=pinmap.load().led_count,
        button_d=args.button_d,
        button_bezel_d=args.button_bezel_d,
        fn=args.fn,
    )
    print(f"LED_COUNT={params.led_count}: strip {params.strip_len:.1f} mm")
    for part in PARTS:
        print(f"wrote {render_stl(params, part, args.out_dir / f'{part}.stl')}")
    if not args.no_picture:
        print(f"wrote {render_picture(params)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
