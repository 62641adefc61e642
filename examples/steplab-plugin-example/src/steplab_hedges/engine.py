"""The `hedges` source: a step whose author hedges ("I think", "probably", "I'm not sure")
is flagged, with the phrases found as evidence.

A hedge is no proof that a step is wrong, so by default a flagged step gets evidence only
(value None): the annotator sees "hedges: probably, I think" on the step and decides. With
`verdict = "neutral"` it gets 0 instead (PRM800K's "neutral"), which an export can use.
Steps without hedges get nothing.
"""

from __future__ import annotations

import re
from typing import Any

from autolabel.engines.base import EngineResult, SolutionInput, StepSuggestion
from autolabel.plugins import Param

VERSION = "1"
HEDGES = (
    "i think",
    "i believe",
    "i guess",
    "i'm not sure",
    "i am not sure",
    "not sure",
    "probably",
    "maybe",
    "perhaps",
    "it seems",
    "seems like",
    "might be",
    "could be",
    "roughly",
    "approximately",
    "if i recall",
    "presumably",
)
EXTRA_MAX = 500


def _phrases(extra: str) -> tuple[str, ...]:
    added = (p.strip().lower() for p in extra.split(","))
    return tuple(dict.fromkeys([*HEDGES, *(p for p in added if p)]))


def _pattern(phrases: tuple[str, ...], case_sensitive: bool) -> re.Pattern[str]:
    # Longest first, so "i'm not sure" wins over "not sure"; whole words only ("maybes" no).
    alternatives = sorted((re.escape(p) for p in phrases), key=len, reverse=True)
    flags = 0 if case_sensitive else re.IGNORECASE
    return re.compile(r"(?<![\w'])(?:" + "|".join(alternatives) + r")(?![\w'])", flags)


def hedges_in(text: str, *, extra: str = "", case_sensitive: bool = False) -> list[str]:
    """The hedging phrases in `text`, in order (curly apostrophes read as straight ones)."""
    text = text.replace("\u2019", "'")
    return [m.group(0) for m in _pattern(_phrases(extra), case_sensitive).finditer(text)]


class HedgeEngine:
    name = "hedges"
    queue = "default"
    label = "Hedging language"
    description = (
        "Flags steps whose author hedges (“I think”, “probably”, “it seems”), with the "
        "phrases found as evidence. A hedge is not a proof of error: evidence only by default."
    )
    params = [
        Param(
            "verdict",
            "choice",
            "evidence",
            label="A hedging step gets",
            help="evidence: a note on the step, no rating; neutral: the rating 0.",
            choices=("evidence", "neutral"),
        ),
        Param(
            "min_hits",
            "int",
            1,
            label="Hedges needed",
            help="How many hedging phrases a step needs before it is flagged.",
            minimum=1,
            maximum=20,
        ),
        Param(
            "min_per_100_words",
            "float",
            0.0,
            label="Hedges per 100 words",
            help="Flag only steps at least this dense in hedges (0: any length).",
            minimum=0.0,
            maximum=100.0,
        ),
        Param(
            "extra_phrases",
            "string",
            "",
            label="More phrases",
            help="Comma-separated phrases to count as hedges too.",
            max_length=EXTRA_MAX,
        ),
        Param(
            "case_sensitive",
            "bool",
            False,
            label="Case-sensitive",
            help="Match the phrases' case exactly.",
        ),
    ]

    def __call__(self, solution: SolutionInput, params: dict[str, Any]) -> EngineResult:
        result = EngineResult(source=self.name, agent=f"hedges:v{VERSION}")
        pattern = _pattern(_phrases(params["extra_phrases"]), params["case_sensitive"])
        for index, text in enumerate(solution.steps):
            found = [m.group(0) for m in pattern.finditer(text.replace("\u2019", "'"))]
            words = max(1, len(text.split()))
            density = 100.0 * len(found) / words
            if len(found) < params["min_hits"] or density < params["min_per_100_words"]:
                result.withdrawn.append(index)  # a verdict an earlier run left goes
                continue
            result.suggestions.append(
                StepSuggestion(
                    step_index=index,
                    value=0 if params["verdict"] == "neutral" else None,
                    evidence={
                        "kind": "hedge",
                        "summary": "Hedges: " + ", ".join(dict.fromkeys(found)),
                        "phrases": found[:20],
                        "hits": len(found),
                        "per_100_words": round(density, 2),
                    },
                )
            )
        return result
