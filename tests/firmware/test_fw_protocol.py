"""Protocol v1 codec against the golden vectors (CPython and the MicroPython VM)."""

from __future__ import annotations

import binascii
import json
import subprocess

import pytest
from conftest import venv_tool
from fwtools import FIRMWARE, VECTORS, SimBox, encode_message, hw_host, load_vectors, p, raw
from hypothesis import given
from hypothesis import strategies as st

SCHEMAS = {"device": p.HOST_MESSAGES, "host": hw_host.DEVICE_MESSAGES}  # keyed by receiver


def test_crc_is_crc16_ccitt_false() -> None:
    assert p.crc16(b"123456789") == 0x29B1  # the catalogued check value
    assert p.crc16(b"") == 0xFFFF


@given(st.binary(max_size=200))
def test_crc_matches_an_independent_implementation(data: bytes) -> None:
    assert p.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


def test_vector_files_cover_every_message_and_error() -> None:
    device = {v["type"] for v in load_vectors("device.jsonl") + load_vectors("modes-device.jsonl")}
    host = {v["type"] for v in load_vectors("host.jsonl") + load_vectors("modes-host.jsonl")}
    errors = {v["error"] for v in load_vectors("invalid.jsonl")}
    assert device == set(hw_host.DEVICE_MESSAGES)
    assert host == set(p.HOST_MESSAGES)
    assert errors == {"long", "frame", "crc", "unknown", "field", "range"}  # docs/protocol.md


@pytest.mark.parametrize(
    ("name", "schema"),
    [
        ("device.jsonl", "host"),
        ("host.jsonl", "device"),
        ("modes-device.jsonl", "host"),
        ("modes-host.jsonl", "device"),
        ("names-device.jsonl", "host"),
        ("names-host.jsonl", "device"),
        ("sea-host.jsonl", "device"),
    ],
)
def test_valid_vectors_decode_and_encode(name: str, schema: str) -> None:
    vectors = load_vectors(name)
    assert len(vectors) >= {"m": 4, "n": 1, "s": 3}.get(name[0], 16)
    for v in vectors:
        kind, fields = p.decode(raw(v["line"]), SCHEMAS[schema])
        assert (kind, fields) == (v["type"], v["fields"]), v["note"]
        if v["canonical"]:
            message_schema = hw_host.DEVICE_MESSAGES if schema == "host" else p.HOST_MESSAGES
            line = encode_message(kind, fields, message_schema)
            assert line == raw(v["line"]) + b"\r\n", v["note"]


def test_invalid_vectors_are_rejected_with_their_code() -> None:
    vectors = load_vectors("invalid.jsonl") + load_vectors("modes-invalid.jsonl")
    vectors += load_vectors("names-invalid.jsonl") + load_vectors("sea-invalid.jsonl")
    assert len(vectors) >= 42
    for v in vectors:
        with pytest.raises(p.ProtocolError) as info:
            p.decode(raw(v["line"]), SCHEMAS[v["to"]])
        assert info.value.code == v["error"], v["note"]


def test_stream_vectors_split_the_same_whole_or_byte_by_byte() -> None:
    for v in load_vectors("streams.jsonl"):
        stream = raw(v["stream"])
        whole = p.LineSplitter().feed(stream)
        splitter = p.LineSplitter()
        pieces = [line for i in range(len(stream)) for line in splitter.feed(stream[i : i + 1])]
        assert [raw(line) for line in v["lines"]] == whole == pieces, v["note"]
    long_line = load_vectors("streams.jsonl")[2]["lines"][0]
    assert len(long_line) == p.MAX_LINE + 1


def test_every_line_the_firmware_sends_decodes() -> None:
    sim = SimBox()
    sim.advance(1500)
    sim.press()
    sim.send("HB")
    sim.send("ALCH", (("y", 3), ("r", 4)))
    sim.press()
    sim.send("DISARM")
    sim.press()
    sim.send("PING", (("n", "x1"),))
    sim.box.feed(b"junk\n", sim.now)
    kinds = [kind for kind, _ in sim.out()]
    assert set(kinds) == set(hw_host.DEVICE_MESSAGES)
    assert all(len(line) - 2 <= p.MAX_LINE for line in sim.lines)


@given(st.binary(max_size=300))
def test_random_bytes_give_protocol_errors_only(data: bytes) -> None:
    for line in p.LineSplitter().feed(data + b"\n"):
        for schema in (p.HOST_MESSAGES, hw_host.DEVICE_MESSAGES):
            try:
                p.decode(line, schema)
            except p.ProtocolError as exc:
                assert exc.code in ("long", "frame", "crc", "unknown")


@given(
    st.integers(1, 10**9 - 1),
    st.integers(1, 6),
    st.integers(1, 6),
    st.sampled_from(p.EVENTS),
    st.integers(0, 10**9 - 1),
    st.booleans(),
    st.booleans(),
)
def test_roll_round_trip(seq: int, y: int, r: int, e: str, t: int, off: bool, alc: bool) -> None:
    fields = {"seq": seq, "y": y, "r": r, "e": e, "t": t}
    if off:
        fields["off"] = 1
    if alc:
        fields["alc"] = 1
    line = encode_message("ROLL", fields, hw_host.DEVICE_MESSAGES)
    assert p.decode(line[:-2], hw_host.DEVICE_MESSAGES) == ("ROLL", fields)


# The codec under MicroPython: the VM reads every vector and prints what it decodes.
VM_SCRIPT = """
import sys, json
sys.path.insert(0, sys.argv[1])
from dicebox import hw_host
from dicebox import protocol as p
schemas = {"device": p.HOST_MESSAGES, "host": hw_host.DEVICE_MESSAGES}
def raw(s):
    return bytes([ord(c) for c in s])
for name, to in (("device.jsonl", "host"), ("host.jsonl", "device"), ("invalid.jsonl", None),
                 ("modes-device.jsonl", "host"), ("modes-host.jsonl", "device"),
                 ("modes-invalid.jsonl", None), ("names-device.jsonl", "host"),
                 ("names-host.jsonl", "device"), ("names-invalid.jsonl", None),
                 ("sea-host.jsonl", "device"), ("sea-invalid.jsonl", None)):
    for text in open(sys.argv[2] + "/" + name):
        v = json.loads(text)
        try:
            kind, fields = p.decode(raw(v["line"]), schemas[to or v["to"]])
            print(json.dumps({"line": v["line"], "type": kind, "fields": fields}))
        except p.ProtocolError as exc:
            print(json.dumps({"line": v["line"], "error": exc.code}))
for text in open(sys.argv[2] + "/streams.jsonl"):
    v = json.loads(text)
    lines = p.LineSplitter().feed(raw(v["stream"]))
    print(json.dumps({"stream": v["stream"], "lines": [l.decode() for l in lines]}))
"""


@pytest.mark.micropython
def test_vectors_in_the_micropython_vm() -> None:
    result = subprocess.run(
        [venv_tool("micropython"), "-c", VM_SCRIPT, str(FIRMWARE), str(VECTORS)],
        capture_output=True,
        timeout=60,
        check=True,
    )
    got = [json.loads(line) for line in result.stdout.decode().splitlines()]
    expected = []
    for prefix in ("", "modes-", "names-", "sea-"):
        # (a sea board changes only what a host sends: no sea-device.jsonl)
        for name in ("device.jsonl", "host.jsonl")[prefix == "sea-" :]:
            expected += [
                {"line": v["line"], "type": v["type"], "fields": v["fields"]}
                for v in load_vectors(prefix + name)
            ]
        invalid = load_vectors(prefix + "invalid.jsonl")
        expected += [{"line": v["line"], "error": v["error"]} for v in invalid]
    streams = load_vectors("streams.jsonl")
    expected += [{"stream": v["stream"], "lines": v["lines"]} for v in streams]
    assert len(got) == len(expected) > 70
    for g, e in zip(got, expected, strict=True):
        assert g == e
