"""The symbolic state an embodied episode's log describes: a set of ground predicates.

A predicate is a string, ``holding(mug 1)`` or ``at(robot, counter)``; spelling differences
that do not change it (case, spaces, spaces around parentheses and commas) are normalized
away. ``not P`` (or ``!P``, ``¬P``) is the negation: an effect ``not P`` removes P, a
precondition ``not P`` needs P absent. Pure Python, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

_SPACES = re.compile(r"\s+")
_AROUND = re.compile(r"\s*([(),])\s*")
_NEGATION = re.compile(r"^(?:not\s+|!\s*|¬\s*)", re.I)


def normalize(predicate: str) -> tuple[bool, str]:
    """(positive, normalized atom) of one predicate string."""
    text = _SPACES.sub(" ", predicate.strip())
    positive = True
    while match := _NEGATION.match(text):
        positive = not positive
        text = text[match.end() :]
    if text.startswith("(") and text.endswith(")") and text.count("(") == 1:
        text = text[1:-1]  # "(holding mug)" as PDDL writes it
    return positive, _AROUND.sub(r"\1", text).lower()


def literals(value: Any) -> list[tuple[bool, str]]:
    """The predicates of a metadata list (anything else: none)."""
    if not isinstance(value, list):
        return []
    return [normalize(item) for item in value if isinstance(item, str) and item.strip()]


def show(literal: tuple[bool, str]) -> str:
    positive, atom = literal
    return atom if positive else f"not {atom}"


@dataclass
class State:
    """The predicates true so far: the initial state, then each applied step's effects."""

    facts: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, initial: Any) -> State:
        return cls({atom for positive, atom in literals(initial) if positive})

    def unmet(self, preconditions: Iterable[tuple[bool, str]]) -> list[tuple[bool, str]]:
        return [(p, atom) for p, atom in preconditions if (atom in self.facts) != p]

    def apply(self, effects: Iterable[tuple[bool, str]]) -> None:
        for positive, atom in effects:
            if positive:
                self.facts.add(atom)
            else:
                self.facts.discard(atom)

    def satisfies(self, goal: list[tuple[bool, str]]) -> bool:
        return bool(goal) and not self.unmet(goal)
