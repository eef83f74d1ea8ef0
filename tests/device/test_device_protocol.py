"""The host's protocol v1 codec against the golden vectors both ends share (docs/protocol.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion_app.device import protocol as p

VECTORS = Path(__file__).resolve().parents[1] / "protocol_vectors"


def load(name: str) -> list[dict[str, Any]]:
    with open(VECTORS / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def raw(text: str) -> bytes:
    return text.encode("latin-1")


DEVICE = load("device.jsonl") + load("modes-device.jsonl") + load("names-device.jsonl")
HOST = load("host.jsonl") + load("modes-host.jsonl") + load("names-host.jsonl")
HOST += load("sea-host.jsonl")
INVALID = load("invalid.jsonl") + load("modes-invalid.jsonl") + load("names-invalid.jsonl")
INVALID += load("sea-invalid.jsonl")
STREAMS = load("streams.jsonl")


def test_vector_files_are_not_empty() -> None:
    assert (len(DEVICE), len(HOST), len(INVALID), len(STREAMS)) >= (10, 10, 30, 3)
    assert sum("dice" in v.get("fields", {}) for v in DEVICE + HOST) >= 8  # the modes' vectors
    assert sum(v["to"] == "host" for v in INVALID) >= 7


def test_crc_is_ccitt_false() -> None:
    assert p.crc16(b"123456789") == 0x29B1
    assert p.frame("HB") == b"HB*F1EC\r\n"


@pytest.mark.parametrize("vector", DEVICE, ids=lambda v: v["note"])
def test_device_lines_decode(vector: dict[str, Any]) -> None:
    message = p.decode(raw(vector["line"]))
    assert message.type == vector["type"]
    assert dict(message.fields) == vector["fields"]
    if vector.get("canonical"):
        assert p.encode_device(vector["type"], vector["fields"]) == raw(vector["line"]) + b"\r\n"


@pytest.mark.parametrize("vector", HOST, ids=lambda v: v["note"])
def test_host_commands_encode_exactly(vector: dict[str, Any]) -> None:
    message = p.decode(raw(vector["line"]), p.HOST_MESSAGES)
    assert (message.type, dict(message.fields)) == (vector["type"], vector["fields"])
    if vector.get("canonical"):
        assert p.encode(vector["type"], vector["fields"]) == raw(vector["line"]) + b"\r\n"


@pytest.mark.parametrize("vector", INVALID, ids=lambda v: f"{v['to']}: {v['note']}")
def test_invalid_lines_are_rejected_with_their_code(vector: dict[str, Any]) -> None:
    schema = p.DEVICE_MESSAGES if vector["to"] == "host" else p.HOST_MESSAGES
    with pytest.raises(p.ProtocolError) as caught:
        p.decode(raw(vector["line"]), schema)
    assert caught.value.code == vector["error"]


@pytest.mark.parametrize("vector", STREAMS, ids=lambda v: v["note"])
def test_streams_split_into_lines(vector: dict[str, Any]) -> None:
    splitter = p.LineSplitter()
    assert splitter.feed(raw(vector["stream"])) == [raw(line) for line in vector["lines"]]
    assert splitter.pending <= p.MAX_LINE + 1


def test_streams_split_the_same_byte_by_byte() -> None:
    for vector in STREAMS:
        splitter = p.LineSplitter()
        lines = [line for byte in raw(vector["stream"]) for line in splitter.feed(bytes([byte]))]
        assert lines == [raw(line) for line in vector["lines"]]


def test_encode_refuses_what_the_box_would_reject() -> None:
    with pytest.raises(p.ProtocolError) as unknown:
        p.encode("ROLL", {"seq": 1})
    assert unknown.value.code == "unknown"
    with pytest.raises(p.ProtocolError) as missing:
        p.encode("ACK")
    assert missing.value.code == "field"
    with pytest.raises(p.ProtocolError) as die:
        p.encode("ALCH", {"y": 7, "r": 1})
    assert die.value.code == "range"
    with pytest.raises(p.ProtocolError) as extra:
        p.encode("HB", {"up": 1})
    assert extra.value.code == "field"


def test_unknown_fields_are_ignored_for_later_versions() -> None:
    message = p.decode(p.frame("ROLL seq=3 y=1 r=2 e=science t=9 spin=4")[:-2])
    assert dict(message.fields) == {"seq": 3, "y": 1, "r": 2, "e": "science", "t": 9}
