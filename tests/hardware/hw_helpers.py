"""Small readers shared by the hardware tests: SVG labels, ASCII STL geometry, a pins.py copy."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

SVG_NS = "{http://www.w3.org/2000/svg}"


def svg_labels(svg: bytes) -> set[str]:
    """Every text line drawn in an SVG (multi-line labels give one entry per line)."""
    root = ET.fromstring(svg)
    labels: set[str] = set()
    for text in root.iter(f"{SVG_NS}text"):
        parts = [text.text or ""] + [span.text or "" for span in text.iter(f"{SVG_NS}tspan")]
        for part in parts:
            if part.strip():
                labels.add(part.strip())
    return labels


@dataclass(frozen=True)
class Stl:
    facets: int
    bbox_min: tuple[float, float, float]
    bbox_max: tuple[float, float, float]
    open_edges: int  # directed edges without exactly one opposite: 0 for a closed solid

    @property
    def size(self) -> tuple[float, float, float]:
        lo, hi = self.bbox_min, self.bbox_max
        return (hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2])


_FACET = re.compile(
    r"facet normal\s+\S+\s+\S+\s+\S+\s+outer loop\s+"
    r"vertex\s+(\S+ \S+ \S+)\s+vertex\s+(\S+ \S+ \S+)\s+vertex\s+(\S+ \S+ \S+)\s+"
    r"endloop\s+endfacet"
)


def read_ascii_stl(path: Path) -> Stl:
    """Parse an ASCII STL strictly: header, facets of three vertices, footer, closed surface."""
    text = path.read_text(encoding="ascii")
    assert text.startswith("solid"), "an ASCII STL starts with 'solid'"
    assert text.rstrip().split("\n")[-1].startswith("endsolid"), "an ASCII STL ends 'endsolid'"
    facets = _FACET.findall(text)
    assert len(facets) == text.count("endfacet"), "every facet has exactly three vertices"
    directed: Counter[tuple[str, str]] = Counter()
    points: list[tuple[float, float, float]] = []
    for a, b, c in facets:
        for u, v in ((a, b), (b, c), (c, a)):
            directed[(u, v)] += 1
        for vertex in (a, b, c):
            x, y, z = (float(n) for n in vertex.split())
            points.append((x, y, z))
    open_edges = sum(1 for (u, v), n in directed.items() if n != 1 or directed.get((v, u), 0) != 1)
    xs, ys, zs = zip(*points, strict=True) if points else ((0.0,), (0.0,), (0.0,))
    return Stl(
        facets=len(facets),
        bbox_min=(min(xs), min(ys), min(zs)),
        bbox_max=(max(xs), max(ys), max(zs)),
        open_edges=open_edges,
    )


def write_pins(path: Path, **values: object) -> Path:
    """A pins.py with the given constants (the real file's names, other values)."""
    lines = ['"""A test pin map."""', ""]
    lines += [f"{name} = {value!r}" for name, value in values.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
