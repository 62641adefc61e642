"""Usernames people cannot mistake for one another.

Two names are the same account name when their *keys* are equal: NFKC normal form, case folded,
and letters that look alike across scripts (Cyrillic 'а', Greek 'ο') mapped to the Latin letter
they imitate. A name whose letters come from more than one script ('аlice' with a Cyrillic 'а')
is refused outright: it exists only to look like another name. Pure functions, no database.
"""

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible

MAX_LENGTH = 150
# Django's own rule (UnicodeUsernameValidator): letters, digits and @ . + - _
_ALLOWED = re.compile(r"^[\w.@+-]+\Z")

# Letters of other scripts that render like a Latin letter (Unicode's confusables.txt, the
# lowercase letters of Cyrillic and Greek that fonts draw identically to Latin ones).
_LOOKALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i", "ј": "j",
        "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "ѕ": "s", "т": "t",
        "у": "y", "х": "x", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ɡ": "g",
        # Greek
        "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
        "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ϲ": "c", "ϳ": "j", "ζ": "z", "η": "n",
    }
)  # fmt: skip


def normalize(name: str) -> str:
    """The name as stored: NFKC, surrounding spaces trimmed (case kept)."""
    return unicodedata.normalize("NFKC", name).strip()


def username_key(name: str) -> str:
    """What two names must differ in: NFKC, case folded, look-alike letters mapped to Latin."""
    folded = unicodedata.normalize("NFKC", normalize(name).casefold())
    return folded.translate(_LOOKALIKES)


def _script(char: str) -> str | None:
    """The script of a letter (the first word of its Unicode name), None for non-letters."""
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0] if name else "UNKNOWN"


def username_problem(name: str) -> str | None:
    """Why `name` cannot be a username (a sentence), or None when it can."""
    name = normalize(name)
    if not name:
        return "A username cannot be empty."
    if len(name) > MAX_LENGTH:
        return f"A username has at most {MAX_LENGTH} characters."
    if not _ALLOWED.match(name):
        return "A username may contain only letters, digits and @ . + - _"
    scripts = {s for s in map(_script, name) if s is not None}
    if len(scripts) > 1:
        return (
            f"{name!r} mixes letters of several scripts ({', '.join(sorted(scripts)).lower()}); "
            "it could pass for another name. Use letters of one script."
        )
    return None


@deconstructible
class UsernameValidator:
    """Django validator form of `username_problem` (the admin's user forms use it)."""

    def __call__(self, value: str) -> None:
        problem = username_problem(value)
        if problem:
            raise ValidationError(problem, code="invalid_username")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UsernameValidator)
