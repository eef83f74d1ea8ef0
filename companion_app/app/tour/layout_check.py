"""The layout check of the screenshot tour: what a person at the table would trip over.

For every visible label its text must fit its box (measured as if nothing were cut short:
a shortened or truncated text counts as not fitting) and no widget drawn after it may paint
over its text (a neighbour's background or text hiding a line); no two touch targets may
overlap; every widget outside a scroll view must lie inside the window; every touch target
must be at least ``MIN_TARGET_DP`` on each side; every piece, token and spot marker on a board
must be drawn at least ``MIN_DRAWN_DP`` (read from across the table). The rules are plain
geometry (:func:`problems`, no Kivy); :func:`collect` measures a Kivy window into :class:`Box`
rows.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion_app.presenters.board_picture import MIN_DRAWN_DP
from companion_app.presenters.board_taps import MIN_TARGET_DP

TOLERANCE_PX = 1.0
"""Rounding of layouts: a pixel either way is not a problem."""

Rect = tuple[float, float, float, float]
"""x, y, width, height in window pixels (y grows upwards, as in Kivy)."""


@dataclass(frozen=True)
class Box:
    """One widget (or one board spot) as the check sees it."""

    name: str
    rect: Rect
    scrolled: bool = False
    """Inside a scroll view's content: may lie outside the window, clipped by the view."""
    visible: Rect | None = None
    """The part inside every scroll view around it (``rect`` when there is none)."""
    target: bool = False
    round: bool = False
    """A round target (a board spot): ``rect`` is its bounding square."""
    needs: tuple[float, float] | None = None
    """A label's text: the width and height it needs to show in full."""
    room: tuple[float, float] | None = None
    """A label's text: the width and height it has."""
    parent: Rect | None = None
    """The layout it belongs in: sticking out of it means under a neighbour or cut off."""
    drawn: float | None = None
    """A thing drawn on a board (a piece, a token, a spot's marker): its size in pixels."""
    text: Rect | None = None
    """A label's text as drawn (its lines, not its whole box), the part in sight."""
    paints: tuple[Rect, ...] = ()
    """What the widget paints over whatever was drawn before it (backgrounds, images, its
    text), the parts in sight. Boxes come in drawing order: a later box paints over earlier ones."""


def _overlap(a: Rect, b: Rect) -> float:
    """The smaller side of the intersection of two rectangles (0 when they do not meet)."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0.0, min(w, h))


def clip(rect: Rect, to: Rect | None) -> Rect | None:
    """The part of ``rect`` inside ``to`` (None when nothing is left)."""
    if to is None:
        return rect
    x0, y0 = max(rect[0], to[0]), max(rect[1], to[1])
    x1 = min(rect[0] + rect[2], to[0] + to[2])
    y1 = min(rect[1] + rect[3], to[1] + to[3])
    if x1 - x0 <= 0 or y1 - y0 <= 0:
        return None
    return (x0, y0, x1 - x0, y1 - y0)


def inside(rect: Rect, room: Rect) -> bool:
    """``rect`` lies within ``room``, give or take ``TOLERANCE_PX``."""
    x, y, w, h = rect
    rx, ry, rw, rh = room
    t = TOLERANCE_PX
    return x >= rx - t and y >= ry - t and x + w <= rx + rw + t and y + h <= ry + rh + t


def _round_overlap(a: Box, b: Box) -> bool:
    ax, ay = a.rect[0] + a.rect[2] / 2, a.rect[1] + a.rect[3] / 2
    bx, by = b.rect[0] + b.rect[2] / 2, b.rect[1] + b.rect[3] / 2
    return math.hypot(ax - bx, ay - by) < (a.rect[2] + b.rect[2]) / 2 - TOLERANCE_PX


def problems(  # noqa: PLR0912 - a checklist of independent checks on each box
    boxes: Sequence[Box], window: tuple[float, float], dp: float
) -> list[str]:
    """One line per problem; ``dp`` is the pixels of one dp."""
    found: list[str] = []
    width, height = window
    screen = (0.0, 0.0, width, height)
    shown = [b for b in boxes if (b.visible if b.scrolled else b.rect) is not None]
    for box in shown:
        if box.needs is not None and box.room is not None:
            (nw, nh), (rw, rh) = box.needs, box.room
            if nw > rw + TOLERANCE_PX or nh > rh + TOLERANCE_PX:
                found.append(
                    f"{box.name}: text needs {nw:.0f}x{nh:.0f} px, its box is {rw:.0f}x{rh:.0f}"
                )
        if not box.scrolled and not inside(box.rect, screen):
            x, y, w, h = box.rect
            found.append(f"{box.name}: lies outside the window ({x:.0f},{y:.0f} {w:.0f}x{h:.0f})")
        if box.parent is not None and not box.scrolled and not inside(box.rect, box.parent):
            found.append(f"{box.name}: sticks out of its layout")
        if box.target:
            side = min(box.rect[2], box.rect[3]) / dp
            if side < MIN_TARGET_DP - 0.5:
                found.append(f"{box.name}: touch target {side:.0f} dp, at least 44 dp needed")
        if box.drawn is not None and box.drawn / dp < MIN_DRAWN_DP - 0.5:
            found.append(f"{box.name}: drawn {box.drawn / dp:.0f} dp, at least 44 dp needed")
    found.extend(_hidden_texts(shown))
    targets = [b for b in shown if b.target]
    for i, a in enumerate(targets):
        for b in targets[i + 1 :]:
            if a.round and b.round:
                hit = _round_overlap(a, b)
            else:
                ra = a.visible or a.rect
                rb = b.visible or b.rect
                hit = _overlap(ra, rb) > TOLERANCE_PX
            if hit:
                found.append(f"{a.name} and {b.name}: touch targets overlap")
    return found


def _hidden_texts(shown: Sequence[Box]) -> list[str]:
    """Texts painted over by a widget drawn after them (a neighbour panel's background, another
    label's text): the first such widget of each."""
    found = []
    for i, box in enumerate(shown):
        if box.text is None:
            continue
        for later in shown[i + 1 :]:
            if any(_overlap(box.text, paint) > TOLERANCE_PX for paint in later.paints):
                found.append(f"{box.name}: its text is under {later.name}")
                break
    return found


# ---- measuring a Kivy window ------------------------------------------------------------------


def _name(widget: Any) -> str:
    text = getattr(widget, "text", "")
    label = f" {text[:40]!r}" if isinstance(text, str) and text.strip() else ""
    return f"{type(widget).__name__}{label}"


def _is_target(widget: Any) -> bool:
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.slider import Slider
    from kivy.uix.switch import Switch
    from kivy.uix.textinput import TextInput

    return isinstance(widget, ButtonBehavior | TextInput | Slider | Switch)


def _measured(core: Any, **changes: Any) -> tuple[float, float]:
    """The texture size a core label with ``changes`` to its options would have: laid out, not
    drawn (the same layout the label's own texture has). Remembered by its options: a look
    measures the same texts as the one before."""
    options = {**core.options, **changes}
    key = (type(core), repr(sorted(options.items())))
    size = _MEASURED.get(key)
    if size is None:
        if len(_MEASURED) > MEASURED_KEPT:
            _MEASURED.clear()
        measure = type(core)(**options)
        measure.resolve_font_name()
        width, height = measure.render()
        # As a refreshed label: no text drawn is a texture of one pixel.
        size = _MEASURED[key] = (1.0, 1.0) if width <= 1 or height <= 1 else (width, height)
    return size


_MEASURED: dict[tuple[type, str], tuple[float, float]] = {}
MEASURED_KEPT = 20_000
"""Measured texts remembered at most (a tour measures a few thousand)."""


def _text_needs(label: Any) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The size the label's whole text needs (nothing shortened, no line dropped) and its room."""
    if not label.text.strip():
        return None
    core = label._label
    tw, th = label.text_size
    if tw is None:
        text_size: tuple[float | None, None] = (None, None)
    else:
        text_size = (None if label.shorten else tw, None)
    needs_w, needs_h = _measured(
        core, text=label.text, shorten=False, max_lines=0, text_size=text_size
    )
    if tw is None:
        return (needs_w, needs_h), (label.width, label.height)
    room_h = th if th is not None else label.height
    if not label.shorten:
        # Wrapped to its width, the height tells whether it fits; but a word wider than the
        # box is broken inside ("Phone / s"), so the longest words must fit on a line.
        needs_w = max([min(needs_w, tw), *(_width(core, word) for word in _longest_words(label))])
    return (needs_w, needs_h), (tw, min(room_h, label.height))


def _longest_words(label: Any, count: int = 3) -> list[str]:
    """The few longest words of a label's text (markup tags are not words)."""
    text = label.text
    if label.markup:
        import re

        text = re.sub(r"\[[^\]]*\]", " ", text)
    return sorted(set(text.split()), key=len, reverse=True)[:count]


def _width(core: Any, word: str) -> float:
    return _measured(core, text=word, text_size=(None, None), shorten=False, max_lines=0)[0]


def _spots(board: Any, visible: Rect | None) -> Iterable[Box]:
    """A board's offered spots as round touch targets."""
    if not board.spots or not getattr(board, "highlight_spots", True):
        return
    clipped = _zoomed_view(board, visible)
    for target in board.touch_targets():
        r = target.reach
        x, y = board.to_window(target.x, target.y)
        rect = (x - r, y - r, 2 * r, 2 * r)
        shown = clip(rect, clipped) if clipped else rect
        yield Box(
            f"board spot {target.spot}",
            rect,
            scrolled=clipped is not None,
            visible=shown,
            target=True,
            round=True,
        )


def _zoomed_view(board: Any, visible: Rect | None) -> Rect | None:
    """A zoomed board's window rectangle: it clips what it draws, like a scroll view; None for
    a board drawn whole."""
    if not getattr(board, "zooms", False) or getattr(board, "overview", True):
        return None
    x, y = board.to_window(*board.pos)
    return clip((x, y, float(board.width), float(board.height)), visible)


def _drawn(board: Any) -> Iterable[Box]:
    """What a board drew (its pieces, tokens and spot markers) with their drawn sizes: those in
    sight, and none on the overview of a board that zooms (a tap shows them at full size)."""
    if getattr(board, "overview", False):
        return
    clipped = _zoomed_view(board, None)
    for thing in getattr(board, "drawn", ()):
        if not board.collide_point(thing.x, thing.y):
            continue
        x, y = board.to_window(thing.x, thing.y)
        rect = (x - thing.width / 2, y - thing.height / 2, thing.width, thing.height)
        yield Box(
            f"board {thing.kind} {thing.spot}",
            rect,
            scrolled=clipped is not None,
            visible=clip(rect, clipped) if clipped else rect,
            drawn=thing.shown_size,
        )


def smallest_drawn(boxes: Iterable[Box], dp: float) -> dict[str, float]:
    """The smallest drawn size in dp of each kind of thing on the boards among ``boxes``."""
    least: dict[str, float] = {}
    for box in boxes:
        if box.drawn is not None:
            kind = box.name.removeprefix("board ").split(" (")[0]
            least[kind] = min(least.get(kind, math.inf), box.drawn / dp)
    return least


def _text_rect(label: Any, x: float, y: float, width: float, height: float) -> Rect:
    """Where a label's lines are inside its text texture drawn at ``x, y`` (its own
    coordinates): the texture spans the whole ``text_size``, the lines sit in it by their
    alignment."""
    core = label._label
    used = getattr(core, "_internal_size", None) or (width, height)
    w, h = min(float(used[0]), width), min(float(used[1]), height)
    valign = core.options.get("valign", "bottom")
    halign = core.options.get("halign", "left")
    if valign == "top":
        y += height - h
    elif valign in ("middle", "center"):
        y += (height - h) / 2
    if halign in ("center", "centre"):
        x += (width - w) / 2
    elif halign == "right":
        x += width - w
    elif halign == "justify":
        w = width
    return (x, y, w, h)


def _paints(widget: Any, is_label: bool) -> tuple[list[Rect], Rect | None]:
    """What ``widget``'s own canvas (before its children) paints, in its own coordinates, and
    its text's rectangle where it is a label; a stencil's mask and transparent colours paint
    nothing."""
    from kivy.graphics import (
        BorderImage,
        Canvas,
        Color,
        Ellipse,
        InstructionGroup,
        Mesh,
        Rectangle,
        RoundedRectangle,
        StencilPop,
        StencilPush,
        StencilUnUse,
        StencilUse,
    )

    rects: list[Rect] = []
    text: Rect | None = None
    alpha = 1.0
    masking = False
    texture = widget.texture if is_label else None

    def visit(group: Any) -> None:
        nonlocal alpha, masking, text
        for instruction in group.children:
            if isinstance(instruction, Canvas):
                continue  # a child widget's canvas: its own box
            if isinstance(instruction, StencilPush | StencilUnUse):
                masking = True
            elif isinstance(instruction, StencilUse | StencilPop):
                masking = False
            elif isinstance(instruction, Color):
                alpha = instruction.a
            elif isinstance(instruction, InstructionGroup):
                visit(instruction)
            elif masking or alpha <= 0.01:
                continue
            elif isinstance(instruction, Rectangle | RoundedRectangle | BorderImage | Ellipse):
                (x, y), (w, h) = instruction.pos, instruction.size
                if w < 1 or h < 1:
                    continue
                if texture is not None and instruction.texture is texture:
                    text = _text_rect(widget, x, y, w, h)
                    rects.append(text)
                else:
                    rects.append((x, y, w, h))
            elif isinstance(instruction, Mesh):
                rects.append((widget.x, widget.y, widget.width, widget.height))

    for group in (widget.canvas.before, widget.canvas):
        if group is not None:
            visit(group)
    return rects, text


def _in_window(widget: Any, rect: Rect, view: Rect | None) -> Rect | None:
    """A rectangle of ``widget``'s coordinates in window pixels, the part inside ``view``."""
    x, y = widget.to_window(rect[0], rect[1])
    return clip((x, y, rect[2], rect[3]), view)


def collect(window: Any) -> list[Box]:
    """The topmost layer of the window (an open popup, else the screen) as boxes, in the order
    they are drawn (a widget before its children, the last child added drawn last)."""
    from kivy.uix.label import Label
    from kivy.uix.layout import Layout
    from kivy.uix.scrollview import ScrollView
    from kivy.uix.stencilview import StencilView

    boxes: list[Box] = []
    layer = window.children[0] if window.children else None

    def walk(widget: Any, view: Rect | None, scrolled: bool, parent: Rect | None) -> None:
        if widget.opacity <= 0.01 or widget.width < 1 or widget.height < 1:
            return
        x, y = widget.to_window(*widget.pos)
        rect = (x, y, float(widget.width), float(widget.height))
        visible = clip(rect, view) if scrolled else rect
        if scrolled and visible is None:
            return
        is_label = isinstance(widget, Label)
        needs = _text_needs(widget) if is_label else None
        painted, text = _paints(widget, is_label and needs is not None)
        # A stencil view (a board, a scroll view) draws nothing outside its box.
        shown_view = visible if isinstance(widget, StencilView) else view if scrolled else None
        paints = [r for r in (_in_window(widget, p, shown_view) for p in painted) if r]
        boxes.append(
            Box(
                _name(widget),
                rect,
                scrolled=scrolled,
                visible=visible,
                target=_is_target(widget) and not getattr(widget, "not_a_target", False),
                needs=needs[0] if needs else None,
                room=needs[1] if needs else None,
                parent=parent,
                text=_in_window(widget, text, shown_view) if text else None,
                paints=tuple(paints),
            )
        )
        if hasattr(widget, "spots") and hasattr(widget, "geometry"):
            boxes.extend(_spots(widget, visible))
            boxes.extend(_drawn(widget))
        inner_view, inner_scrolled = view, scrolled
        if isinstance(widget, ScrollView):
            inner_view, inner_scrolled = clip(rect, view) if scrolled else rect, True
        inner_parent = rect if isinstance(widget, Layout) else None
        for child in reversed(widget.children):
            walk(child, inner_view, inner_scrolled, inner_parent)

    if layer is not None:
        walk(layer, None, False, None)
    return boxes
