"""Metamorphic stress of the symbolic checker on correct steps (issue 25, rounds 6 and 7).

A correct step rewritten without changing its meaning (``\\frac`` as ``\\dfrac``, ``\\cdot`` as
``\\times``, ``$...$`` as ``\\(...\\)``, thousands separators added or dropped, a chain split
into sentences, ...) must not gain a refutation: every failed claim that appears after a
:data:`REWRITES` rewrite, on a step whose original has none, is a fragility of the checker's
reading (a class to fix, not a case). :func:`stress` counts them per rewrite;
``bench/symbolic_refutations.py --metamorphic`` runs it over every correct step we may read
(:func:`correct_steps`: the develop part's steps before the first error, and the public
samples' reference or rated steps; never the measure part).
"""

from __future__ import annotations

import functools
import multiprocessing
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from .layout_rewrites import LAYOUT
from .llm_more_rewrites import LLM_MORE
from .llm_rewrites import LLM_STYLE
from .written_rewrites import MATH as _MATH
from .written_rewrites import WRITTEN
from .written_rewrites import in_math as _in_math
from .written_rewrites import top_level_sides as _top_level_sides


def _dfrac(text: str) -> str:
    return re.sub(r"\\frac(?![a-z])", r"\\dfrac", text)


def _frac(text: str) -> str:
    return re.sub(r"\\[dt]frac(?![a-z])", r"\\frac", text)


def _times(text: str) -> str:
    return re.sub(r"\\cdot(?![a-z])", r"\\times", text)


def _cdot(text: str) -> str:
    return re.sub(r"\\times(?![a-z])", r"\\cdot", text)


def _star(text: str) -> str:
    return _in_math(text, lambda m: re.sub(r"\s*\\(?:times|cdot)(?![a-z])\s*", " * ", m))


def _left_right(text: str) -> str:
    def change(math: str) -> str:
        math = re.sub(r"(?<![\\a-zA-Z])\(", r"\\left(", math)
        return re.sub(r"(?<!\\)\)", r"\\right)", math)

    return _in_math(text, change)


def _parens_delimiters(text: str) -> str:
    """$...$ as \\(...\\) and $$...$$ as \\[...\\] (not where a "\\$" may pair wrongly)."""
    if "\\$" in text:
        return text
    text = re.sub(r"\$\$(.+?)\$\$", r"\\[\1\\]", text, flags=re.DOTALL)
    return re.sub(r"(?<![\\$])\$([^$]+?)(?<!\\)\$", r"\\(\1\\)", text)


def _dollar_delimiters(text: str) -> str:
    """\\(...\\) as $...$ and \\[...\\] as $$...$$."""
    text = re.sub(r"\\\[(.+?)\\\]", r"$$\1$$", text, flags=re.DOTALL)
    return re.sub(r"\\\((.+?)\\\)", r"$\1$", text, flags=re.DOTALL)


def _spaced(text: str) -> str:
    return _in_math(text, lambda m: re.sub(r"\s*([=+<>])\s*", r" \1 ", m))


def _tight(text: str) -> str:
    return _in_math(text, lambda m: re.sub(r"\s*([=+])\s*", r"\1", m))


# A whole number of 4 to 9 digits standing alone: not a decimal's part, not a script, not a
# numeral with a base, not after a "#" or a letter (an id, "x1234").
_PLAIN_INT = re.compile(r"(?<![\d.,^_{#A-Za-z\\])(\d{4,9})(?![\d.,_}]|\^)")
_GROUPED_INT = re.compile(r"(?<![\d.,^_{])(\d{1,3}(?:,\d{3})+)(?![\d.,]\d|\d)")


def _thousands_added(text: str) -> str:
    return _PLAIN_INT.sub(lambda m: f"{int(m.group(1)):,}", text)


def _thousands_dropped(text: str) -> str:
    return _GROUPED_INT.sub(lambda m: m.group(1).replace(",", ""), text)


def _period(text: str) -> str:
    """A trailing period added where the step ends without one, or dropped where it has one."""
    stripped = text.rstrip()
    if stripped.endswith("."):
        return stripped[:-1]
    return stripped + "."


# "= 15" at the end of a sentence or line, in a line that already writes a price "$12".
_PRICE_NEAR = re.compile(r"(?<![\\\w])\$\d")
_RESULT = re.compile(r"(=\s*)(\d[\d,]*(?:\.\d+)?)(?=\s*(?:[.,;]\s|[.]?$|\n))", re.MULTILINE)


def _currency(text: str) -> str:
    """A "$" before a result in a line of prose that writes prices: "5 * 3 = 15" as "= $15"."""
    lines = []
    for line in text.split("\n"):
        if _PRICE_NEAR.search(line) and not _MATH.search(line):
            line = _RESULT.sub(lambda m: m.group(1) + "$" + m.group(2), line)
        lines.append(line)
    return "\n".join(lines)


def _split_chain(text: str) -> str:
    """A chain "$a = b = c$" as two sentences: "$a = b$. So $b = c$"."""

    def split(m: re.Match[str]) -> str:
        whole = m.group(0)
        if not whole.startswith("$") or whole.startswith("$$"):
            return whole
        inner = whole[1:-1]
        if re.search(r"&|\\\\|\\(?:begin|text|quad|Rightarrow|implies)", inner):
            return whole
        sides = _top_level_sides(inner)
        if len(sides) < 3 or any(not s.strip() for s in sides):
            return whole
        first = "=".join(sides[:2]).strip()
        rest = "=".join(sides[1:]).strip()
        return f"${first}$. So ${rest}$"

    return _MATH.sub(split, text)


def _no_left_right(text: str) -> str:
    return re.sub(r"\\(?:left|right)(?=[()\[\]|.])", "", text)


def _thin_thousands(text: str) -> str:
    """Thousands grouped with a thin space in math: "12345" as "12\\,345"."""
    return _in_math(
        text, lambda m: _PLAIN_INT.sub(lambda n: f"{int(n.group(1)):,}".replace(",", "\\,"), m)
    )


# "3 * 4" in prose as "3 × 4" (a lone star between numbers, not Markdown bold).
_PROSE_STAR = re.compile(r"(?<=\d) \* (?=\d)")


def _unicode_times(text: str) -> str:
    if _MATH.search(text):
        return text
    return _PROSE_STAR.sub(" \u00d7 ", text)


def _boxed(text: str) -> str:
    """A math region's last result boxed: "$1 + 2 = 3$" as "$1 + 2 = \\boxed{3}$"."""
    return _in_math(text, lambda m: re.sub(r"(=\s*)(-?\d+(?:\.\d+)?)\s*$", r"\1\\boxed{\2}", m))


def _tfrac(text: str) -> str:
    return re.sub(r"\\[d]?frac(?![a-z])", r"\\tfrac", text)


def _spacing(space: str) -> Callable[[str], str]:
    """Math spacing commands (``\\;``, ``~``, ``\\,``) around "=" and "+" in math."""

    def rewrite(text: str) -> str:
        return _in_math(
            text, lambda m: re.sub(r"\s*(?<![<>!\\])([=+])(?!=)\s*", space + r"\1" + space, m)
        )

    return rewrite


def _display_punctuation(mark: str) -> Callable[[str], str]:
    """A display ``\\[ ... \\]`` ended with "." or "," inside it, as models write."""

    def rewrite(text: str) -> str:
        return re.sub(
            r"(\\\[)(.+?)(?<![.,\s])(\s*)(\\\])",
            lambda m: m.group(1) + m.group(2) + mark + m.group(3) + m.group(4),
            text,
            flags=re.DOTALL,
        )

    return rewrite


def _line_broken(text: str) -> str:
    """A display chain broken over lines before each top-level "=" (``a\\n= b\\n= c``)."""

    def change(m: re.Match[str]) -> str:
        inner = m.group(2)
        if re.search(r"&|\\\\|\\begin", inner) or len(_top_level_sides(inner)) < 3:
            return m.group(0)
        broken = "\n= ".join(side.strip() for side in _top_level_sides(inner))
        return m.group(1) + broken + m.group(3)

    return re.sub(r"(\\\[\s*)(.+?)(\s*\\\])", change, text, flags=re.DOTALL)


def _approx_symbol(text: str) -> str:
    """``\\approx`` in math as "≈", and "≈" as ``\\approx``."""
    if "\u2248" in text:
        return _in_math(text, lambda m: m.replace("\u2248", "\\approx "))
    return _in_math(text, lambda m: re.sub(r"\\approx(?![a-z])\s*", "\u2248 ", m))


def _percent(text: str) -> str:
    """A percent in math as ``\\%`` with a thin space, a percent in prose as "percent"."""
    out = _in_math(text, lambda m: re.sub(r"(\d)\s*\\%", r"\1\\,\\%", m))
    if out != text:
        return out
    if _MATH.search(text):
        return text
    return re.sub(r"(\d)%", r"\1 percent", text)


def _degrees(text: str) -> str:
    """``^\\circ`` as ``^{\\circ}``, and "°" in math as ``^\\circ``."""
    out = re.sub(r"\^\s*\\circ(?![a-z])", r"^{\\circ}", text)
    return _in_math(out, lambda m: m.replace("\u00b0", "^\\circ"))


# A unit right after a number inside math: "12 \\text{cm}", "12\\text{ cm}", "12 \\mathrm{kg}".
_MATH_UNIT = re.compile(r"(\d)\s*\\(?:text|mathrm)\s*\{\s*([A-Za-z]+)\s*\}")


def _units(text: str) -> str:
    """A unit in math written as ``\\,\\text{ cm}`` (thin space, spaced inside the braces)."""
    return _in_math(text, lambda m: _MATH_UNIT.sub(r"\1\\,\\text{ \2}", m))


# Inline math that is plain arithmetic: "$12 + 3 = 15$".
_PLAIN_MATH = re.compile(r"(?<![\\$])\$([\d\s+\-*/=.,()]+=[\d\s+\-*/=.,()]+)(?<!\\)\$(?!\d)")
# Prose arithmetic in a line without math: "12 + 3 = 15", standing alone (not a piece of a
# longer expression: no operator, "=", letter or digit right before or after it).
_PROSE_SUM = re.compile(
    r"(?<![\w.,$^*/+\-=(<])(?<![*/+\-=^x\u00d7]\s)"
    r"(\d+(?:\.\d+)?(?:\s*[-+*/]\s*\d+(?:\.\d+)?)+\s*=\s*\d+(?:\.\d+)?)"
    r"(?![\w,$^)]|\.\d|\s*[-+*/^=\u00d7<>%(])"
)


def _unwrap_math(text: str) -> str:
    """ "=" in a sentence for "=" in ``$...$``: plain arithmetic in math written bare."""
    if "\\$" in text:
        return text
    return _PLAIN_MATH.sub(lambda m: m.group(1).strip(), text)


def _wrap_math(text: str) -> str:
    """Plain arithmetic in prose put in ``$...$`` (lines with no math and no price)."""
    lines = []
    for line in text.split("\n"):
        if not _MATH.search(line) and "$" not in line:
            line = _PROSE_SUM.sub(lambda m: f"${m.group(1)}$", line)
        lines.append(line)
    return "\n".join(lines)


# "= 3.14159" (a result with 4 or more decimals).
_LONG_DECIMAL = re.compile(r"=(\s*)(\d+\.\d{4,})(?!\d)")


def _rounded(text: str) -> str:
    """A long decimal result rounded to 2 places, said so: "= 3.14159" as "\\approx 3.14" in
    math and "≈ 3.14 (to 2 decimal places)" in prose."""

    def in_math(m: str) -> str:
        return _LONG_DECIMAL.sub(lambda n: f"\\approx{n.group(1)}{float(n.group(2)):.2f}", m)

    out = _in_math(text, in_math)
    if out != text or _MATH.search(text):
        return out
    return _LONG_DECIMAL.sub(
        lambda n: f"\u2248{n.group(1)}{float(n.group(2)):.2f} (to 2 decimal places)", text
    )


REWRITES: dict[str, Callable[[str], str]] = {
    "dfrac": _dfrac,
    "frac": _frac,
    "times": _times,
    "cdot": _cdot,
    "star": _star,
    "left_right": _left_right,
    "paren_delimiters": _parens_delimiters,
    "dollar_delimiters": _dollar_delimiters,
    "spaced": _spaced,
    "tight": _tight,
    "thousands_added": _thousands_added,
    "thousands_dropped": _thousands_dropped,
    "period": _period,
    "currency": _currency,
    "split_chain": _split_chain,
    "no_left_right": _no_left_right,
    "thin_thousands": _thin_thousands,
    "unicode_times": _unicode_times,
    "boxed": _boxed,
    # round 7 (symbolic-1.9)
    "tfrac": _tfrac,
    "thick_space": _spacing("\\;"),
    "tilde_space": _spacing("~"),
    "display_period": _display_punctuation("."),
    "display_comma": _display_punctuation(","),
    "line_broken": _line_broken,
    "approx_symbol": _approx_symbol,
    "percent": _percent,
    "degrees": _degrees,
    "units": _units,
    "unwrap_math": _unwrap_math,
    "wrap_math": _wrap_math,
    "rounded": _rounded,
    # round 8 (symbolic-1.11): written_rewrites.py, the kinds people write
    **WRITTEN,
    # round 14 (issue 25): llm_rewrites.py, the notations LLM solutions write
    **LLM_STYLE,
    **LLM_MORE,
    # round 16 (issue 25): layout_rewrites.py, layout and the prose around math
    **LAYOUT,
}


@dataclass(frozen=True)
class CorrectStep:
    source: str  # "develop", "gsm8k_reference", ...
    ref: str
    index: int
    problem: str
    previous: tuple[str, ...]
    text: str


@dataclass
class StressResult:
    steps: int = 0  # correct steps stressed: a rewrite changes them, none refuted as written
    refuted_originals: int = 0  # steps a rewrite changes that are refuted as written
    rewritten: Counter = field(default_factory=Counter)  # rewrite -> steps it changed
    appeared: Counter = field(default_factory=Counter)  # rewrite -> new refutations
    examples: list[tuple[str, str, str, str]] = field(default_factory=list)


def _failed(step: CorrectStep, text: str) -> list[str]:
    from autolabel.symbolic import check_step_local

    verdict = check_step_local(text, step.previous, step.problem)
    return [f"{c.text} [{c.lhs_value} | {c.rhs_value}]" for c in verdict.failed]


def stress_one(
    step: CorrectStep, only: Sequence[str] | None = None
) -> tuple[str, list[str], list[tuple[str, str, str]]]:
    """("unchanged" | "refuted" as written | "stressed", the rewrites that changed the step,
    (rewrite, text, failed claims) for each refutation that appeared); ``only``: these."""
    variants = [(n, REWRITES[n](step.text)) for n in only or REWRITES]
    changed = [(name, text) for name, text in variants if text != step.text]
    if not changed:
        return "unchanged", [], []
    if _failed(step, step.text):
        return "refuted", [], []
    appeared = []
    for name, text in changed:
        failed = _failed(step, text)
        if failed:
            appeared.append((name, text, "; ".join(failed)))
    return "stressed", [name for name, _ in changed], appeared


def _start() -> None:
    from autolabel import timeouts

    timeouts.warm_up()


def stress(
    steps: Sequence[CorrectStep], *, workers: int = 2, only: Sequence[str] | None = None
) -> StressResult:
    """Every step and its rewrites (``only`` these) through ``check_step_local``, in
    ``workers`` processes."""
    result = StressResult()
    one = functools.partial(stress_one, only=only)
    if workers <= 1:
        _start()
        outcomes: Iterable = map(one, steps)
        pool = None
    else:
        pool = multiprocessing.get_context("fork").Pool(workers, initializer=_start)
        outcomes = pool.imap(one, steps, chunksize=8)
    try:
        for step, (status, changed, appeared) in zip(steps, outcomes, strict=True):
            result.refuted_originals += status == "refuted"
            if status != "stressed":
                continue
            result.steps += 1
            result.rewritten.update(changed)
            where = f"{step.source} {step.ref} {step.index}"
            for name, text, failed in appeared:
                result.appeared[name] += 1
                result.examples.append((name, where, text, failed))
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return result


def correct_steps(develop: Iterable, samples: Iterable) -> list[CorrectStep]:
    """Steps known correct: the develop part's steps before the first error (LabeledSolution,
    raw labels) and every step of the bench's known-correct samples (its ``Sample``)."""
    from .dev_split import DEVELOP, part_of

    out = []
    for s in develop:
        if part_of(s.problem) != DEVELOP:
            continue
        first = s.truth.index(-1) if -1 in s.truth else len(s.steps)
        for i in range(first):
            if s.truth[i] == 1:
                out.append(CorrectStep("develop", s.ref, i, s.problem, s.steps[:i], s.steps[i]))
    for sample in samples:
        steps = sample.steps if sample.first_error < 0 else sample.steps[: sample.first_error]
        for i, text in enumerate(steps):
            out.append(CorrectStep(sample.dataset, sample.ref, i, sample.problem, steps[:i], text))
    unique = {(s.problem, s.previous, s.text): s for s in out if re.search(r"\d", s.text)}
    return list(unique.values())


def prmbench_originals() -> list[CorrectStep]:
    """PRMBench's original processes (before its errors were put in), step by step."""
    import json

    from .data import DATA_DIR

    out = []
    with open(DATA_DIR / "prmbench_sample.jsonl", encoding="utf-8") as f:
        for line in filter(str.strip, f):
            row = json.loads(line)
            steps = tuple(row.get("original_process") or ())
            ref = f"{row['classification']}-{row['idx']}"
            problem = row.get("original_question") or row.get("question") or ""
            for i, text in enumerate(steps):
                out.append(CorrectStep("prmbench_original", ref, i, problem, steps[:i], text))
    return [s for s in out if re.search(r"\d", s.text)]


def report(result: StressResult, *, show: bool = False, only: Sequence[str] | None = None) -> str:
    """Counts per rewrite (steps changed, refutations that appeared), and with ``show`` each
    refutation that appeared (develop rows and public samples only)."""
    lines = [
        f"metamorphic stress: {result.steps} correct steps rewritten "
        f"({result.refuted_originals} more refuted as written, not stressed); "
        f"refutations that appeared: {sum(result.appeared.values())}"
    ]
    for name in only or REWRITES:
        lines.append(
            f"  {name:18s} steps changed {result.rewritten[name]:6d}, "
            f"refutations that appeared {result.appeared[name]:4d}"
        )
    if show:
        for name, where, text, failed in result.examples:
            lines.append(f"-- {name}: {where}\n   {text[:500]!r}\n   => {failed}")
    return "\n".join(lines)
