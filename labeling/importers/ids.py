"""Stable external ids: a re-import of the same content finds the rows it made before."""

import hashlib
import json
import unicodedata

# json.dumps with these options builds a new encoder on every call; an import hashes every row.
_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def normalize(text: str) -> str:
    """NFC, whitespace runs collapsed to one space, ends stripped."""
    return " ".join(unicodedata.normalize("NFC", text).split())


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


def problem_id(text: str) -> str:
    """Problems without a dataset id are the same problem when their normalized text is."""
    return _digest(["problem", normalize(text)])


def solution_id(problem_text: str, steps: list[str], generator: str = "") -> str:
    # content_id("solution", problem_text, generator, steps), without its type dispatch.
    return _digest(
        ["solution", normalize(problem_text), normalize(generator), [normalize(s) for s in steps]]
    )
