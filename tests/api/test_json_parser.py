"""BoundedJSONParser's lone-surrogate check: a raw-bytes pre-check, then the walk.

An ordinary UTF-8 body skips the walk over every parsed string; a body with a surrogate escape
in its raw bytes (or in another charset) is walked. Both paths must still refuse what they
should and pass what they should.
"""

import io
import json

import pytest
from rest_framework.exceptions import ParseError

from labeling.api import parsers
from labeling.api.parsers import BoundedJSONParser, raw_may_hold_surrogate


def parse(raw: bytes, encoding: str = "utf-8"):
    return BoundedJSONParser().parse(io.BytesIO(raw), None, {"encoding": encoding})


@pytest.fixture
def walks(monkeypatch):
    """Counts the parser's walks over parsed strings."""
    calls: list[object] = []
    real = parsers.json_has_surrogate

    def counted(value):
        calls.append(value)
        return real(value)

    monkeypatch.setattr(parsers, "json_has_surrogate", counted)
    return calls


@pytest.mark.parametrize(
    ("raw", "may"),
    [
        (b'{"a": "plain", "b": ["\\u00e9", "\\ud7ff", "\\ue000"]}', False),
        ('{"a": "é 😀"}'.encode(), False),
        (b'{"a": "\\ud800"}', True),
        (b'{"a": "\\uDFFF"}', True),
        (b'{"a": "\\uDc00"}', True),
        (b'{"a": "\\\\ud800"}', True),  # an escaped backslash: a false alarm the walk clears
    ],
)
def test_the_raw_pre_check_flags_exactly_the_surrogate_escapes(raw, may):
    assert raw_may_hold_surrogate(raw, "utf-8") is may


def test_a_body_in_another_charset_is_always_walked():
    assert raw_may_hold_surrogate(b"{}", "utf-16") is True
    assert raw_may_hold_surrogate(b"{}", "no-such-charset") is True
    assert raw_may_hold_surrogate(b"{}", "UTF8") is False


def test_an_ordinary_body_parses_without_the_walk(walks):
    body = {"labels": [{"step": i, "rating": 1, "note": "é ☃ \u2028"} for i in range(20)]}
    assert parse(json.dumps(body).encode()) == body
    # Raw astral characters, as JSON.stringify sends them (Python's ensure_ascii would escape
    # them as surrogate pairs: a body that is walked).
    astral = {"note": "😀 𝔸"}
    assert parse(json.dumps(astral, ensure_ascii=False).encode()) == astral
    assert walks == []
    assert parse(json.dumps(astral).encode()) == astral
    assert len(walks) == 1


@pytest.mark.parametrize(
    "raw",
    [
        b'{"a": "\\ud800"}',
        b'{"a": ["x", {"y": "a\\uDFFFb"}]}',
        b'{"\\udc00": 1}',
        b'{"a": "\\ude00\\ud83d"}',  # a pair in the wrong order is two lone halves
    ],
)
def test_a_lone_surrogate_escape_is_walked_and_refused(walks, raw):
    with pytest.raises(ParseError, match="lone surrogates"):
        parse(raw)
    assert len(walks) == 1


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        (b'{"a": "\\ud83d\\ude00"}', "\U0001f600"),  # a proper pair: one character
        (b'{"a": "\\\\ud800"}', "\\ud800"),  # backslash, then the letters
    ],
)
def test_a_flagged_body_without_a_lone_surrogate_is_walked_and_passes(walks, raw, value):
    assert parse(raw) == {"a": value}
    assert len(walks) == 1


def test_a_surrogate_in_another_charset_is_walked_and_refused(walks):
    raw = '{"a": "\\ud800"}'.encode("utf-16")
    with pytest.raises(ParseError, match="lone surrogates"):
        parse(raw, "utf-16")
    assert len(walks) == 1


def test_raw_utf8_bytes_of_a_surrogate_do_not_decode(walks):
    with pytest.raises(ParseError, match="JSON parse error"):
        parse(b'{"a": "\xed\xa0\x80"}')
    assert walks == []


def test_the_depth_bound_still_holds_on_both_paths():
    deep = b'{"a": ' * 200 + b"1" + b"}" * 200
    with pytest.raises(ParseError, match="nested deeper"):
        parse(deep)
    with pytest.raises(ParseError, match="nested deeper"):
        parse(b'{"s": "\\ud800", "d": ' + b"[" * 200 + b"]" * 200 + b"}")
