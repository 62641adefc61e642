"""Stable external ids: a re-import of the same content finds the rows it made before."""

import hashlib
import json
import unicodedata
from functools import lru_cache

# json.dumps with these options builds a new encoder on every call; an import hashes every row.
_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
# One string as that encoder writes it (the same C function it calls for each string).
_string = json.encoder.encode_basestring


def normalize(text: str) -> str:
    """NFC, whitespace runs collapsed to one space, ends stripped."""
    if _plain(text):
        return text
    return " ".join(unicodedata.normalize("NFC", text).split())


def _plain(text: str) -> bool:
    """Already normal: ASCII (NFC leaves it as it is) whose only whitespace is single spaces
    inside (every other ASCII whitespace is a control character, which is not printable).
    Most steps are; the split and join cost more than these tests (issue 26)."""
    return (
        text.isascii()
        and text.isprintable()
        and "  " not in text
        and text[:1] != " "
        and text[-1:] != " "
    )


def _norm(value: object) -> object:
    if isinstance(value, str):
        return normalize(value)
    if isinstance(value, list | tuple):
        return [_norm(v) for v in value]
    return value


def _digest(normalized: list) -> str:
    return "sha256:" + hashlib.sha256(_encode(normalized).encode()).hexdigest()


def content_id(*parts: object) -> str:
    """`sha256:<hex>` of the normalized JSON of `parts` (strings inside are normalized)."""
    return _digest([_norm(part) for part in parts])


def _sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


# A file's lines repeat their problem's text (a problem's solutions, one a line): its
# normalization and id are computed once per distinct text among the last few hundred, for
# texts of up to CACHED_MAX characters (a line may hold megabytes: the cache stays under 3 MB).
CACHED_MAX = 4096


def _problem_normal(text: str) -> str:
    return _normal_cached(text) if len(text) <= CACHED_MAX else normalize(text)


@lru_cache(maxsize=256)
def _normal_cached(text: str) -> str:
    return normalize(text)


def problem_id(text: str) -> str:
    """Problems without a dataset id are the same problem when their normalized text is."""
    return _id_cached(text) if len(text) <= CACHED_MAX else _problem_id(text)


@lru_cache(maxsize=256)
def _id_cached(text: str) -> str:
    return _problem_id(text)


def _problem_id(text: str) -> str:
    return _sha(f'["problem",{_string(_problem_normal(text))}]')


def solution_id(problem_text: str, steps: list[str], generator: str = "") -> str:
    """content_id("solution", problem_text, generator, steps), without its type dispatch: the
    same JSON written string by string (the encoder's setup cost more than the strings)."""
    steps_json = ",".join([_string(s if _plain(s) else normalize(s)) for s in steps])
    return _sha(
        f'["solution",{_string(_problem_normal(problem_text))},{_string(normalize(generator))},'
        f"[{steps_json}]]"
    )
