"""Both codecs of protocol v1 (the firmware's and the host's) give the same verdict on any line:
the same message and fields, or the same error code. Lines are drawn near the protocol (its
types, keys and value alphabets, with a right or wrong CRC) so that most of them get deep into
the decoders, and from raw bytes."""

from __future__ import annotations

import binascii

from fwtools import hw_host
from fwtools import p as fw
from hypothesis import given, settings
from hypothesis import strategies as st

from companion_app.device import protocol as host

CODES = {"long", "frame", "crc", "unknown", "field", "range"}
_types = [*sorted(set(host.DEVICE_MESSAGES) | set(host.HOST_MESSAGES)), "FOO", "ping", "A1"]
_spec_keys = {
    key
    for schema in (host.DEVICE_MESSAGES, host.HOST_MESSAGES)
    for spec in schema.values()
    for key, _, _ in spec
}
_keys = [*sorted(_spec_keys), "Q", "a1", "x_y", "pad", ""]
_value_chars = "0123456789ABCDEFabcdefship.-_/=*: Q"
_values = st.sampled_from(["0", "1", "6", "7", "01", "ship", "trade", "D1CE", "1.0.0"]) | st.text(
    alphabet=_value_chars, max_size=12
)
_fields = st.lists(st.tuples(st.sampled_from(_keys), _values), max_size=8)


@st.composite
def _lines(draw: st.DrawFn) -> bytes:
    body = " ".join([draw(st.sampled_from(_types))] + [f"{k}={v}" for k, v in draw(_fields)])
    raw = body.encode("ascii")
    crc = binascii.crc_hqx(raw, 0xFFFF)
    if draw(st.booleans()) and draw(st.booleans()):
        crc ^= draw(st.integers(min_value=1, max_value=0xFFFF))
    return raw + b"*%04X" % crc


def _fw_verdict(line: bytes, schema: dict[str, str]) -> object:
    try:
        kind, fields = fw.decode(line, schema)
    except fw.ProtocolError as exc:
        assert exc.code in CODES
        return exc.code
    return (kind, fields)


def _host_verdict(line: bytes, schema: object) -> object:
    try:
        message = host.decode(line, schema)  # type: ignore[arg-type]
    except host.ProtocolError as exc:
        assert exc.code in CODES
        return exc.code
    return (message.type, dict(message.fields))


@settings(max_examples=1500)
@given(_lines() | st.binary(max_size=140))
def test_both_codecs_agree_on_every_line_both_ways(line: bytes) -> None:
    assert _fw_verdict(line, hw_host.DEVICE_MESSAGES) == _host_verdict(line, host.DEVICE_MESSAGES)
    assert _fw_verdict(line, fw.HOST_MESSAGES) == _host_verdict(line, host.HOST_MESSAGES)


@settings(max_examples=500)
@given(_lines())
def test_an_accepted_line_has_only_lower_case_keys_and_token_values(line: bytes) -> None:
    try:
        host.decode(line, host.DEVICE_MESSAGES)
    except host.ProtocolError:
        return
    for token in line[: line.rindex(b"*")].decode().split(" ")[1:]:
        key, _, value = token.partition("=")
        assert key.isalpha() and key.islower()
        assert value and all(c.isalnum() or c in "._-" for c in value)
