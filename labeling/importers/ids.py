"""Stable external ids: a re-import of the same content finds the rows it made before."""

import hashlib
import json
import unicodedata


def normalize(text: str) -> str:
    """NFC, whitespace runs collapsed to one space, ends stripped."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def content_id(*parts: object) -> str:
    """`sha256:<hex>` of the normalized JSON of `parts` (strings inside are normalized)."""

    def norm(value: object) -> object:
        if isinstance(value, str):
            return normalize(value)
        if isinstance(value, list | tuple):
            return [norm(v) for v in value]
        return value

    payload = json.dumps(norm(list(parts)), ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(payload.encode()).hexdigest()


def problem_id(text: str) -> str:
    """Problems without a dataset id are the same problem when their normalized text is."""
    return content_id("problem", text)


def solution_id(problem_text: str, steps: list[str], generator: str = "") -> str:
    return content_id("solution", problem_text, generator, steps)
