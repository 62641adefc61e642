"""Which earlier steps a step uses: the import field `uses` checked, and a reference detector.

Indices are 0-based step positions, as everywhere in steplab's data (the UI shows them
1-based). A step may only use earlier steps: `uses` of step j holds indices < j, ascending,
without repeats.

The detector (`detect_uses`) is deliberately simple and precise rather than complete. It
reads, in a step's text:

- explicit step references, as writers number steps from 1: "from step 2", "steps 1 and 3",
  "in Step (2)", "the previous step" (its own leading "Step 3:" heading is not a reference);
- equation labels: "using equation (1)", "by (3)", "substituting (2) into ..." name the step
  that introduced the label (`\\tag{1}`, or "(1)" closing a line of that step);
- results reused: a number a step computed (the right side of "=", two digits or more, or
  with a decimal point, not in the problem) and that a later step writes again, names the
  step that first computed it.

Measured on real ProcessBench solutions hand-labeled for this purpose (tests/unit/data/
step_uses_gold.jsonl, bench/step_uses.py): see docs/ml.md "Step dependencies".
"""

import re
from collections.abc import Sequence

MAX_USES = 200  # entries of one step's `uses`; longer lists are refused at import

_NUMBER_WORD = r"\(?(\d{1,3})\)?"
# "step 2", "steps 2 and 3", "steps 1, 2, and 4", "steps 2-3" (a range names both ends).
_STEP_REF = re.compile(
    rf"\bsteps?\s*{_NUMBER_WORD}((?:\s*(?:,|and|&|-|–|to|or)\s*(?:and\s+)?{_NUMBER_WORD})*)",
    re.IGNORECASE,
)
_MORE_NUMBERS = re.compile(r"\d{1,3}")
# A step's own heading: "Step 3:", "## Step 3.", "**Step 3**:".
_HEADING = re.compile(r"^[\s#*>_-]*step\s*\d{1,3}\s*[*_]*\s*[:.)\-–]", re.IGNORECASE)
_PREVIOUS = re.compile(
    r"\b(?:the\s+)?(?:previous|preceding|last|prior)\s+(?:step|equation|result)\b", re.IGNORECASE
)
# Equation labels a step introduces, and references to them.
_TAG = re.compile(r"\\tag\{(\d{1,3})\}")
_LINE_LABEL = re.compile(r"\((\d{1,3})\)\s*(?:\$\$|\\\]|\$)?\s*$", re.MULTILINE)
_LABEL_REF = re.compile(
    r"\b(?:equations?|eqs?\.?|eqn\.?|by|from|using|use|into|substitut\w*|combining|"
    r"plugging|adding|subtracting|multiplying|dividing|and|with|of)\s*\((\d{1,3})\)",
    re.IGNORECASE,
)
# Results: the right side of "=" (also "is", "gives" would be too loose: not used).
_RESULT = re.compile(r"=\s*\\?\$?\s*(-?\d[\d,]*(?:\.\d+)?)(?![\d.,]*\d)")
_NUMBER = re.compile(r"(?<![\w.])(-?\d[\d,]*(?:\.\d+)?)(?![\w]|\.\d)")


def _norm(number: str) -> str:
    value = number.replace(",", "")
    if "." in value:
        value = value.rstrip("0").rstrip(".")
    return value


def _significant(number: str) -> bool:
    """Worth tracking: a small integer (0..9) is written everywhere for other reasons."""
    digits = number.lstrip("-")
    return len(digits) >= 2 or "." in number


def _numbers(text: str) -> set[str]:
    return {_norm(m.group(1)) for m in _NUMBER.finditer(text)}


def _step_refs(text: str, j: int) -> set[int]:
    body = _HEADING.sub("", text, count=1)
    found: set[int] = set()
    for match in _STEP_REF.finditer(body):
        numbers = [int(match.group(1))]
        numbers += [int(n) for n in _MORE_NUMBERS.findall(match.group(2) or "")]
        joiners = match.group(2) or ""
        is_range = "-" in joiners or "–" in joiners or " to " in joiners
        if is_range and len(numbers) == 2 and numbers[0] < numbers[1] <= numbers[0] + 20:
            numbers = list(range(numbers[0], numbers[1] + 1))
        found.update(n - 1 for n in numbers if 1 <= n <= j)  # step n (1-based) is index n-1 < j
    if j > 0 and _PREVIOUS.search(body):
        found.add(j - 1)
    return found


def detect_uses(steps: Sequence[str], problem: str = "") -> list[list[int]]:
    """For each step, the earlier steps its text refers to (0-based, ascending)."""
    given = _numbers(problem)
    labels: dict[str, int] = {}  # equation label -> the step that introduced it
    results: dict[str, int] = {}  # a computed number -> the step that first computed it
    seen: set[str] = set(given)  # numbers written so far (problem included)
    out: list[list[int]] = []
    for j, text in enumerate(steps):
        uses = _step_refs(text, j)
        for match in _LABEL_REF.finditer(text):
            k = labels.get(match.group(1))
            if k is not None and k < j:
                uses.add(k)
        numbers = _numbers(text)
        for number in numbers:
            k = results.get(number)
            if k is not None and k < j:
                uses.add(k)
        out.append(sorted(uses))
        for match in _TAG.finditer(text):
            labels.setdefault(match.group(1), j)
        for match in _LINE_LABEL.finditer(text):
            labels.setdefault(match.group(1), j)
        for match in _RESULT.finditer(text):
            number = _norm(match.group(1))
            if _significant(number) and number not in seen:
                results.setdefault(number, j)
        seen |= numbers
    return out


def uses_problem(uses: object, index: int, steps: int) -> str | None:
    """Why `uses` is not a valid list of earlier steps for step `index` of `steps`, or None."""
    if not isinstance(uses, list):
        return "expected a list of earlier step indices (0-based integers)"
    if len(uses) > MAX_USES:
        return f"at most {MAX_USES} entries"
    for value in uses:
        if isinstance(value, bool) or not isinstance(value, int):
            return f"expected integer step indices, got {value!r}"
        if value < 0 or value >= steps:
            return f"step index {value} is out of range (this solution has {steps} steps, 0-based)"
        if value >= index:
            return (
                f"step {index} cannot use step {value}: a step uses earlier steps only "
                "(a forward or self reference)"
            )
    return None


def uses_normal(uses: Sequence[int]) -> list[int]:
    """Ascending, without repeats."""
    return sorted(set(uses))
