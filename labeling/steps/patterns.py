"""Regular expressions that users write (a project's step_split_regex), run in linear time.

Python's `re` backtracks: a project admin's `(a+)+$` took 36 s of CPU on 28 characters, doubling
with each one more (issue 24). A user's pattern is compiled with RE2 (google-re2), whose
matching time is linear in the text, with a memory bound; RE2 has no backreferences or
lookaround, and such a pattern is refused when it is saved, with RE2's reason.
"""

from typing import Any

import re2

MAX_PATTERN = 500  # characters (the column's length)
_OPTIONS = re2.Options()
_OPTIONS.max_mem = 8 << 20  # bytes of compiled program: a pattern that needs more is refused
_OPTIONS.log_errors = False


def compile_user_pattern(text: str) -> Any:
    """The pattern compiled with RE2; ValueError (a sentence) when it cannot be."""
    if not isinstance(text, str) or not text:
        raise ValueError("a regular expression is needed")
    if len(text) > MAX_PATTERN:
        raise ValueError(f"a regular expression of at most {MAX_PATTERN} characters")
    try:
        return re2.compile(text, _OPTIONS)
    except re2.error as exc:
        raw = exc.args[0] if exc.args else b"not valid"
        reason = raw.decode(errors="replace") if isinstance(raw, bytes) else str(raw)
        raise ValueError(
            f"not a regular expression steplab can run ({reason}); RE2 syntax: no "
            "backreferences or lookaround"
        ) from exc
