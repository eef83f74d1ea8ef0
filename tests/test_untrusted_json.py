"""The untrusted JSON reader: what fits its limits reads exactly as ``json`` reads it; anything
else is one UntrustedJsonError naming the first problem, never another exception."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion_app import untrusted_json
from companion_app.untrusted_json import JsonLimits, UntrustedJsonError, loads

SMALL = JsonLimits(max_bytes=10_000, max_depth=8, max_digits=12, max_items=20)

_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**12) + 1, max_value=10**12 - 1)
    | st.floats(allow_nan=False, allow_infinity=False).filter(
        lambda f: sum(c.isdigit() for c in repr(f)) <= 12
    )
    | st.text(max_size=20)
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner, max_size=5)
    ),
    max_leaves=30,
)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


@settings(max_examples=400)
@given(_values)
def test_json_within_the_limits_reads_as_json_reads_it(value: object) -> None:
    text = json.dumps(value, ensure_ascii=False)
    if _depth(value) <= SMALL.max_depth:
        assert loads(text, SMALL) == json.loads(text)
        assert loads(text.encode(), SMALL) == json.loads(text)


@settings(max_examples=600)
@given(st.binary(max_size=200) | st.text(max_size=200))
def test_any_input_reads_or_is_refused_with_one_error(data: bytes | str) -> None:
    try:
        loads(data, SMALL)
    except UntrustedJsonError as exc:
        assert "\n" not in str(exc) and str(exc)


_json_alphabet = st.sampled_from(list('[]{},:"0123456789-.eE \\atrufnlsx'))


@settings(max_examples=1000)
@given(
    st.lists(_json_alphabet, max_size=120).map("".join),
    st.integers(min_value=1, max_value=8),
    st.integers(min_value=1, max_value=12),
    st.integers(min_value=1, max_value=20),
)
def test_the_glance_passes_only_what_the_scan_passes(
    text: str, depth: int, digits: int, items: int
) -> None:
    """Short texts skip the scan when counts show they cannot break a limit: whatever the
    glance passes, the scan passes too, so no refusal is lost."""
    limits = JsonLimits(max_bytes=10_000, max_depth=depth, max_digits=digits, max_items=items)
    if untrusted_json._within_at_a_glance(text, limits):
        untrusted_json._scan(text, limits)


def test_the_glance_sends_each_limit_to_the_scan() -> None:
    limits = JsonLimits(max_bytes=10_000, max_depth=2, max_digits=3, max_items=2)
    assert untrusted_json._within_at_a_glance('[{"a": [1, 2]}, "123"]', SMALL)
    for text, refusal in (
        ("[[[]]]", "nesting deeper than 2 at byte 2"),
        ("[1234]", "a number of 4 digits at byte 1 (at most 3)"),
        ("[1, 2, 3]", "more than 2 elements in one array or object at byte 5"),
    ):
        assert not untrusted_json._within_at_a_glance(text, limits)
        with pytest.raises(UntrustedJsonError) as refused:
            loads(text, limits)
        assert str(refused.value) == refusal


@settings(max_examples=600)
@given(st.lists(_json_alphabet, max_size=120).map("".join))
def test_json_like_noise_reads_or_is_refused_with_one_error(text: str) -> None:
    try:
        value = loads(text, SMALL)
    except UntrustedJsonError:
        return
    assert value == json.loads(text)


@given(st.integers(min_value=1, max_value=40))
def test_nesting_is_refused_beyond_the_depth_limit_naming_where(depth: int) -> None:
    text = "[" * depth + "]" * depth
    if depth <= SMALL.max_depth:
        assert _depth(loads(text, SMALL)) == depth
    else:
        with pytest.raises(UntrustedJsonError, match=r"^nesting deeper than 8 at byte 8$"):
            loads(text, SMALL)


def test_a_million_brackets_are_refused_without_recursion() -> None:
    with pytest.raises(UntrustedJsonError, match="nesting deeper than 64 at byte 64"):
        loads("[" * 1_000_000 + "]" * 1_000_000, JsonLimits(max_bytes=3_000_000))
    with pytest.raises(UntrustedJsonError, match="nesting deeper than 64 at byte 320"):
        loads('{"a":' + '{"a":' * 100 + "1" + "}" * 101)


def test_brackets_inside_strings_do_not_count() -> None:
    text = json.dumps({"note": "[" * 500 + '\\"{' * 100})
    assert loads(text) == json.loads(text)


def test_a_5000_digit_number_is_refused_before_python_converts_it() -> None:
    text = '{"seed": ' + "9" * 5000 + "}"
    with pytest.raises(
        UntrustedJsonError, match=r"^a number of 5000 digits at byte 9 \(at most 40\)$"
    ):
        loads(text)
    with pytest.raises(UntrustedJsonError, match="a number of 41 digits"):
        loads("1." + "1" * 40)
    assert loads("-" + "9" * 40) == -int("9" * 40)


def test_size_items_constants_duplicates_and_encoding_are_refused() -> None:
    with pytest.raises(UntrustedJsonError, match=r"^10001 bytes, more than 10000$"):
        loads(b" " * 10_001, SMALL)
    with pytest.raises(UntrustedJsonError, match="more than 10000 bytes"):
        loads(" " * 10_001, SMALL)
    with pytest.raises(
        UntrustedJsonError, match=r"^more than 20 elements in one array or object at byte 40$"
    ):
        loads("[" + ",".join(["1"] * 21) + "]", SMALL)
    assert loads("[" + ",".join(["1"] * 20) + "]", SMALL) == [1] * 20
    for constant in ("NaN", "Infinity", "-Infinity"):
        with pytest.raises(UntrustedJsonError, match="is not a JSON number"):
            loads(f"[{constant}]")
    with pytest.raises(UntrustedJsonError, match="the number 1e999 is too large"):
        loads("1e999")
    with pytest.raises(UntrustedJsonError, match="the key 'a' appears twice in one object"):
        loads('{"a": 1, "b": 2, "a": 3}')
    with pytest.raises(
        UntrustedJsonError, match=r"^not UTF-8 text \(invalid start byte at byte 3\)$"
    ):
        loads(b'"ab\xff"')
    with pytest.raises(UntrustedJsonError, match=r"^not JSON: Expecting value at byte 7$"):
        loads('{"é": }')
    assert loads(b"\xef\xbb\xbf[1]") == [1]
    assert isinstance(UntrustedJsonError("x"), ValueError)
