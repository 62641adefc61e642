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

# Step numbers up to five digits (a solution has at most 20,000 steps), never the head of a
# longer number: "Step 1500" is not a reference to step 150.
_NUMBER_WORD = r"\(?(\d{1,5})(?!\d)\)?"
# "step 2", "steps 2 and 3", "steps 1, 2, and 4", "steps 2-3" (a range names both ends).
_STEP_REF = re.compile(
    rf"\bsteps?\s*{_NUMBER_WORD}((?:\s*(?:,|and|&|-|–|to|or)\s*(?:and\s+)?{_NUMBER_WORD})*)",
    re.IGNORECASE,
)
_MORE_NUMBERS = re.compile(r"\d{1,5}")
# A step's own heading: "Step 3:", "## Step 3.", "**Step 3**:".
_HEADING = re.compile(r"^[\s#*>_-]*step\s*\d{1,5}\s*[*_]*\s*[:.)\-–]", re.IGNORECASE)
_PREVIOUS = re.compile(
    r"\b(?:the\s+)?(?:previous|preceding|last|prior)\s+(?:step|equation|result)\b", re.IGNORECASE
)
# Equation labels a step introduces, and references to them.
_TAG = re.compile(r"\\tag\{(\d{1,3})\}")
_LINE_LABEL = re.compile(r"\((\d{1,3})\)\s*(?:\$\$|\\\]|\$)?\s*$", re.MULTILINE)
_PAREN_NUMBER = re.compile(r"\((\d{1,3})\)")
# The word just before "(k)" that makes it a reference.
_REF_WORD = re.compile(
    r"\b(?:equations?|eqs?\.?|eqn\.?|by|from|using|use|into|substitut\w*|combining|"
    r"plugging|adding|subtracting|multiplying|dividing|and|with|of)\s*$",
    re.IGNORECASE,
)
# Results: the right side of "=" (also "is", "gives" would be too loose: not used).
_RESULT = re.compile(r"=\s*\\?\$?\s*(-?\d[\d,]*(?:\.\d+)?)(?![\d.,]*\d)")
# Cheap, case-blind enough substring tests before the regex (imports run this on every step):
# "revious", "receding", "rior", "ast " (written out in _step_refs).


def _norm(number: str) -> str:
    if "," in number:
        number = number.replace(",", "")
    if "." in number:
        number = number.rstrip("0").rstrip(".")
    return number


def _significant(number: str) -> bool:
    """Worth tracking: a small integer (0..9) is written everywhere for other reasons."""
    digits = number.lstrip("-")
    return len(digits) >= 2 or "." in number


def _written(number: str, text: str) -> bool:
    """`number` is written in `text` as a number of its own (not a part of 1500 or 15.5)."""
    start = text.find(number)
    while start >= 0:
        end = start + len(number)
        before = text[start - 1] if start else " "
        after = text[end : end + 2]
        if not (before.isalnum() or before in "_.") and not (
            after[:1].isalnum() or after[:1] == "_" or (after[:1] == "." and after[1:].isdigit())
        ):
            return True
        start = text.find(number, start + 1)
    return False


def _step_refs(text: str, j: int) -> set[int]:
    """Explicit references: "step 2", "the previous step"."""
    found: set[int] = set()
    # The words' tests written out: a generator over _PREVIOUS_WORDS cost more than the rest of
    # this function on the steps that name no step (most of them).
    if (
        j > 0
        and ("revious" in text or "receding" in text or "rior" in text or "ast " in text)
        and _PREVIOUS.search(text)
    ):
        found.add(j - 1)
    if "tep" not in text and "TEP" not in text:
        return found
    body = _HEADING.sub("", text, count=1)
    for match in _STEP_REF.finditer(body):
        numbers = [int(match.group(1))]
        numbers += [int(n) for n in _MORE_NUMBERS.findall(match.group(2) or "")]
        joiners = match.group(2) or ""
        is_range = "-" in joiners or "–" in joiners or " to " in joiners
        if is_range and len(numbers) == 2 and numbers[0] < numbers[1] <= numbers[0] + 20:
            numbers = list(range(numbers[0], numbers[1] + 1))
        found.update(n - 1 for n in numbers if 1 <= n <= j)  # step n (1-based) is index n-1 < j
    return found


_DIGITS = re.compile(r"\d+")


def _integer_digits(number: str) -> str:
    """The digits of a result's integer part ("-12.5" -> "12"). Where `_written` finds a
    result in a text, these are a whole run of digits there (what comes before and after them
    is not a digit), so a text's runs of digits name every result it can write."""
    return number.lstrip("-").split(".", 1)[0]


# Up to this many candidates (a step's earlier steps, or the results so far), a result is looked
# for in each with str.find; past it, through an index of the steps' runs of digits, so a long
# trace stays linear. Both read the same (the runs only narrow where _written looks).
SCAN_MAX = 32


def detect_uses(steps: Sequence[str], problem: str = "") -> list[list[int]]:
    """For each step, the earlier steps its text refers to (0-based, ascending).

    Linear in the steps (a trace has thousands): past SCAN_MAX results, a step's text is
    checked only against the results whose integer digits it writes, and past SCAN_MAX steps a
    result is checked against only the earlier steps that write those digits
    (tests/importers/test_step_uses.py compares it with the all-pairs reading). A short
    solution, the usual one, reads its few results in each step directly: indexing every run of
    digits of every step cost more than the reading it saved (issue 26)."""
    labels: dict[str, int] = {}  # equation label -> the step that introduced it
    results: dict[str, int] = {}  # a computed number -> the step that first computed it
    by_digits: dict[str, list[str]] = {}  # a result's integer digits -> those results
    steps_with: dict[str, list[int]] = {}  # a run of digits -> the indexed steps that write it
    indexed = 0  # steps_with holds the steps before this one (built when first needed)
    written_before: set[str] = set()  # results found written in an earlier step
    out: list[list[int]] = []

    def earlier_writes(number: str, j: int) -> bool:
        nonlocal indexed
        if number in written_before:
            return True
        if j <= SCAN_MAX:
            found = any(number in steps[k] and _written(number, steps[k]) for k in range(j))
        else:
            for k in range(indexed, j):
                for run in set(_DIGITS.findall(steps[k])):
                    steps_with.setdefault(run, []).append(k)
            indexed = max(indexed, j)
            found = any(
                k < j and _written(number, steps[k])
                for k in steps_with.get(_integer_digits(number), ())
            )
        if found:
            written_before.add(number)
        return found

    for j, text in enumerate(steps):
        uses = _step_refs(text, j)
        if labels and "(" in text:
            for match in _PAREN_NUMBER.finditer(text):
                k = labels.get(match.group(1))
                start = match.start()
                if k is not None and k < j and _REF_WORD.search(text, max(0, start - 24), start):
                    uses.add(k)
        if len(results) > SCAN_MAX:
            for run in set(_DIGITS.findall(text)) & by_digits.keys():
                uses.update(results[n] for n in by_digits[run] if _written(n, text))
        elif results:
            for number, k in results.items():
                if number in text and _written(number, text):
                    uses.add(k)
        out.append(sorted(uses))
        if "\\tag" in text:
            for match in _TAG.finditer(text):
                labels.setdefault(match.group(1), j)
        if ")" in text:
            for match in _LINE_LABEL.finditer(text):
                labels.setdefault(match.group(1), j)
        if "=" in text:
            for match in _RESULT.finditer(text):
                number = _norm(match.group(1))
                if (
                    _significant(number)
                    and number not in results
                    and not _written(number, problem)
                    and not earlier_writes(number, j)
                ):
                    results[number] = j
                    by_digits.setdefault(_integer_digits(number), []).append(number)
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
