"""The frames a phone may send, read as hostile input.

A phone sends four kinds of frame: an answer to the decision on its page,
``{"type": "answer", "id": 7, "action": {...the action's JSON...}}``; ``{"type": "build",
"id": 8}``, the seat's wish to build in the special build phase (a request the tablet shows,
not an action); ``{"type": "hint", "id": 9}``, "What would the Expert do?" about the seat's
own decision (games with a seat the tablet plays); and ``{"type": "ping"}`` when it wakes up,
to learn whether its connection still lives (the server answers ``pong``).
Anything else (too long, not JSON, nested, unknown fields, an action that does not parse) is
refused here with a one-line reason; the server counts it and tells the phone, and the game
never sees it.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion_app.rules.actions import Action, action_from_json
from companion_app.rules.errors import MalformedActionError
from companion_app.untrusted_json import JsonLimits, UntrustedJsonError, loads

MAX_FRAME_BYTES = 2048
"""The longest frame a phone may send; an answer is under 200 bytes."""
FRAME_LIMITS = JsonLimits(max_bytes=MAX_FRAME_BYTES, max_depth=4, max_digits=10, max_items=16)
MAX_ANSWER_ID = 2**31 - 1
MAX_REASON = 160
"""Characters of a refusal sent back (a reason may quote the frame)."""


class PhoneMessageError(ValueError):
    """A frame refused; the message says why in one line."""


@dataclass(frozen=True, slots=True)
class PhoneAnswer:
    id: int
    """The phone's number for the answer, echoed in the result."""
    action: Action


@dataclass(frozen=True, slots=True)
class PhonePing:
    pass


@dataclass(frozen=True, slots=True)
class PhoneBuildRequest:
    """ "I'll build": the seat asks the table for its special build (5-6 players)."""

    id: int


@dataclass(frozen=True, slots=True)
class PhoneHintRequest:
    """ "What would the Expert do?": the seat asks for the Expert's choice of its decision."""

    id: int


def parse_frame(
    text: str | bytes,
) -> PhoneAnswer | PhoneBuildRequest | PhoneHintRequest | PhonePing:
    """Read one frame from a phone. :raises PhoneMessageError: naming the problem."""
    try:
        data = loads(text, FRAME_LIMITS)
    except UntrustedJsonError as exc:
        raise PhoneMessageError(short(f"not a message: {exc}")) from None
    if not isinstance(data, dict):
        raise PhoneMessageError("a message is a JSON object")
    if data == {"type": "ping"}:
        return PhonePing()
    kind = data.get("type")
    if kind not in ("answer", "build", "hint"):
        raise PhoneMessageError("unknown message type (known: 'answer', 'build', 'hint', 'ping')")
    extra = sorted(set(data) - ({"type", "id", "action"} if kind == "answer" else {"type", "id"}))
    if extra:
        raise PhoneMessageError(short(f"unexpected fields: {', '.join(extra)}"))
    answer_id = data.get("id")
    if type(answer_id) is not int or not 0 <= answer_id <= MAX_ANSWER_ID:
        raise PhoneMessageError(f"'id' must be a whole number from 0 to {MAX_ANSWER_ID}")
    if kind == "build":
        return PhoneBuildRequest(answer_id)
    if kind == "hint":
        return PhoneHintRequest(answer_id)
    try:
        action = action_from_json(data.get("action"))
    except (MalformedActionError, ValueError, TypeError, KeyError) as exc:
        raise PhoneMessageError(short(f"not an action: {exc}")) from None
    return PhoneAnswer(answer_id, action)


def short(text: str) -> str:
    """One line of at most :data:`MAX_REASON` characters."""
    line = " ".join(text.split())
    return line if len(line) <= MAX_REASON else line[: MAX_REASON - 1] + "…"
