"""A plug-in engine's parameters: a typed declaration with bounds, checked twice.

The declaration is a list of `Param` (or dicts with the same keys). The registry checks the
declaration itself when it loads the plug-in (`schema_problems`: a bound missing, a default
outside its bounds: the plug-in is skipped). A run's values are checked against it when the
run is created (autolabel/engines/checks.py: a 400 naming `params.<source>.<key>`, nothing
stored) and again in the worker, which hands the engine the values with defaults filled in
(`params_values`). The API lists it (`schema_json`) and the run dialog renders a form from it.
Pure Python: no Django.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from autolabel.engines.params import FLOAT_MAX, INT_MAX

TYPES = ("int", "float", "bool", "string", "choice")
NAME_RE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
PARAMS_MAX = 20  # fields in one form
STRING_MAX = 10_000  # the longest max_length a string field may declare
CHOICES_MAX = 50
CHOICE_MAX_LENGTH = 100
LABEL_MAX = 100
HELP_MAX = 500


class ParamError(ValueError):
    """A value (or a declaration) that does not fit; the message starts with the key, which
    `key` holds too (None: the params as a whole)."""

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key


@dataclass(frozen=True)
class Param:
    """One field of a plug-in's parameter form.

    int and float need `minimum` and `maximum`; string needs `max_length`; choice needs
    `choices` (strings); every field needs a `default` that fits them."""

    name: str
    type: str
    default: Any
    label: str = ""
    help: str = ""
    minimum: float | None = None
    maximum: float | None = None
    max_length: int | None = None
    choices: tuple[str, ...] = field(default_factory=tuple)


def param_of(item: Param | Mapping[str, Any]) -> Param:
    """A Param from a Param or a dict with its keys (TypeError on an unknown key)."""
    if isinstance(item, Param):
        return item
    if not isinstance(item, Mapping):
        raise ParamError(f"a parameter must be a Param or a dict, got {type(item).__name__}")
    data = dict(item)
    if isinstance(data.get("choices"), list):
        data["choices"] = tuple(data["choices"])
    try:
        return Param(**data)
    except TypeError as exc:
        raise ParamError(f"parameter {data.get('name', '?')!r}: {exc}") from exc


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _declaration_problem(p: Param) -> str | None:
    if not isinstance(p.name, str) or not NAME_RE.match(p.name):
        return f"name {p.name!r} must be a lowercase identifier of at most 40 characters"
    if p.type not in TYPES:
        return f"type must be one of {', '.join(TYPES)}, got {p.type!r}"
    if not isinstance(p.label, str) or len(p.label) > LABEL_MAX:
        return f"label must be a string of at most {LABEL_MAX} characters"
    if not isinstance(p.help, str) or len(p.help) > HELP_MAX:
        return f"help must be a string of at most {HELP_MAX} characters"
    if p.type in ("int", "float"):
        limit = INT_MAX if p.type == "int" else FLOAT_MAX
        fits = _is_int if p.type == "int" else _is_number
        for bound in ("minimum", "maximum"):
            value = getattr(p, bound)
            if not fits(value) or abs(value) > limit:
                kind = "an integer" if p.type == "int" else "a number"
                return f"{bound} must be {kind} from {-limit:g} to {limit:g}"
        if p.minimum > p.maximum:
            return "minimum must not be more than maximum"
    if p.type == "string" and not (_is_int(p.max_length) and 1 <= p.max_length <= STRING_MAX):
        return f"max_length must be an integer from 1 to {STRING_MAX}"
    if p.type == "choice":
        choices = p.choices
        if not isinstance(choices, tuple) or not 1 <= len(choices) <= CHOICES_MAX:
            return f"choices must be a list of 1 to {CHOICES_MAX} strings"
        if not all(isinstance(c, str) and 0 < len(c) <= CHOICE_MAX_LENGTH for c in choices):
            return f"each choice must be a string of 1 to {CHOICE_MAX_LENGTH} characters"
        if len(set(choices)) != len(choices):
            return "choices must not repeat"
    try:
        value_check(p, p.default)
    except ParamError as exc:
        return f"default: {exc}"
    return None


def schema_of(declared: Any) -> tuple[Param, ...]:
    """The declaration as Params; ParamError naming the first field that is wrong."""
    if declared is None:
        return ()
    if isinstance(declared, str | bytes | Mapping) or not isinstance(declared, Sequence):
        raise ParamError("params must be a list of Param")
    if len(declared) > PARAMS_MAX:
        raise ParamError(f"params: at most {PARAMS_MAX} fields, got {len(declared)}")
    schema = tuple(param_of(item) for item in declared)
    seen: set[str] = set()
    for p in schema:
        problem = _declaration_problem(p)
        if problem:
            raise ParamError(f"parameter {p.name!r}: {problem}")
        if p.name in seen:
            raise ParamError(f"parameter {p.name!r} is declared twice")
        seen.add(p.name)
    return schema


def value_check(p: Param, value: Any) -> Any:
    """The value if it fits the field, else ParamError("<name> must be ...")."""
    if p.type == "bool":
        if not isinstance(value, bool):
            raise ParamError(f"{p.name} must be true or false, got {value!r}", p.name)
    elif p.type == "int":
        if not _is_int(value) or not p.minimum <= value <= p.maximum:
            raise ParamError(
                f"{p.name} must be an integer from {p.minimum:g} to {p.maximum:g}, got {value!r}",
                p.name,
            )
    elif p.type == "float":
        if not _is_number(value) or not p.minimum <= value <= p.maximum:
            raise ParamError(
                f"{p.name} must be a number from {p.minimum:g} to {p.maximum:g}, got {value!r}",
                p.name,
            )
        value = float(value)
    elif p.type == "string":
        if not isinstance(value, str) or len(value) > p.max_length:
            got = f"{len(value)} characters" if isinstance(value, str) else repr(value)
            raise ParamError(
                f"{p.name} must be a string of at most {p.max_length} characters, got {got}",
                p.name,
            )
        if "\x00" in value:
            raise ParamError(f"{p.name} must not contain NUL characters", p.name)
    elif p.type == "choice" and value not in p.choices:
        raise ParamError(f"{p.name} must be one of {', '.join(p.choices)}, got {value!r}", p.name)
    return value


def params_values(schema: Sequence[Param], given: Any) -> dict[str, Any]:
    """A run's values for one plug-in, checked, with every default filled in."""
    if not isinstance(given, Mapping):
        raise ParamError("must be an object")
    names = {p.name for p in schema}
    unknown = sorted(set(given) - names)
    if unknown:
        allowed = ", ".join(sorted(names)) or "none"
        raise ParamError(f"unknown params {unknown}; allowed: {allowed}", unknown[0])
    return {p.name: value_check(p, given.get(p.name, p.default)) for p in schema}


def schema_json(schema: Sequence[Param]) -> list[dict[str, Any]]:
    """The declaration as the API lists it (keys without a value for the type left out)."""
    out = []
    for p in schema:
        row = asdict(p)
        row["choices"] = list(p.choices)
        keep = {"name", "type", "default", "label", "help"}
        keep |= {
            "int": {"minimum", "maximum"},
            "float": {"minimum", "maximum"},
            "string": {"max_length"},
            "choice": {"choices"},
            "bool": set(),
        }[p.type]
        row["label"] = p.label or p.name
        out.append({k: v for k, v in row.items() if k in keep})
    return out
