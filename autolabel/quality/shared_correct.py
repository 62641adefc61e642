"""More correct steps for the metamorphic stress, from the other shared data (issue 25 round 9).

Besides PRMBench's original processes (:func:`metamorphic.prmbench_originals`): the GSM8K
model solutions whose final answer is right (``is_correct``: outcome-level, so a step may
still be wrong; a step refuted as written is not stressed) and Math-Shepherd's steps tagged
``+`` (automatic Monte-Carlo labels). None of it is ProcessBench, so nothing here was tuned
on or measured.
"""

from __future__ import annotations

import json
import re

from .data import DATA_DIR
from .metamorphic import CorrectStep, prmbench_originals

_MODELS = ("6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification")
_SHEPHERD_STEP = re.compile(r"Step \d+:(.*?)(?: ки| ?([+-]))(?=\nStep \d+:|\s*$)", re.DOTALL)


def _rows(name: str) -> list[dict]:
    path = DATA_DIR / name
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def gsm8k_model_steps() -> list[CorrectStep]:
    out = []
    for n, row in enumerate(_rows("gsm8k_model_solutions_sample.jsonl")):
        for model in _MODELS:
            solution = row.get(model) or {}
            if not solution.get("is_correct"):
                continue
            lines = [s for s in solution["solution"].split("\n") if s.strip()]
            steps = tuple(s for s in lines if not s.startswith("A:"))
            for i, text in enumerate(steps):
                out.append(
                    CorrectStep("gsm8k_model", f"{n}-{model}", i, row["question"], steps[:i], text)
                )
    return out


def shepherd_steps() -> list[CorrectStep]:
    """Math-Shepherd's steps up to the first one tagged "-" (its ``label`` text)."""
    out = []
    for n, row in enumerate(_rows("math_shepherd_sample.jsonl")):
        label = row["label"]
        start = label.find("Step 1:")
        if start < 0:
            continue
        problem = label[:start].strip()
        steps: list[str] = []
        for m in _SHEPHERD_STEP.finditer(label, start):
            if m.group(2) != "+":
                break
            steps.append(m.group(1).strip())
        for i, text in enumerate(steps):
            out.append(CorrectStep("math_shepherd", str(n), i, problem, tuple(steps[:i]), text))
    return out


def shared_correct_steps() -> list[CorrectStep]:
    """PRMBench's originals, the right GSM8K model solutions, Math-Shepherd's "+" steps."""
    steps = prmbench_originals() + gsm8k_model_steps() + shepherd_steps()
    return [s for s in steps if re.search(r"\d", s.text)]
