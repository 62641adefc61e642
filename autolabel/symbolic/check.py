"""check_step: find the claims in a step (equalities, order claims, statements) and decide each.

:func:`check_step` runs :func:`check_step_local` in a worker process under a hard time
limit (see autolabel.timeouts), so it is safe from any thread and against inputs like
``10^{10^{10}}``. Inside the worker every claim also gets a soft limit, so one slow claim
costs only itself.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import replace
from typing import TypeVar

from autolabel import timeouts
from autolabel.symbolic import readings
from autolabel.symbolic.annotations import annotation_chains, strip_annotations
from autolabel.symbolic.bases import stated_bases
from autolabel.symbolic.boundaries import without_operand_side, without_operated_side
from autolabel.symbolic.bounds import bound_chains
from autolabel.symbolic.chains import Chain, Side, display
from autolabel.symbolic.compare import Context, Decision, claim_kind, decide
from autolabel.symbolic.continuations import continuation_chains
from autolabel.symbolic.count_notation import agrees, written_start
from autolabel.symbolic.evaluate import EvalError, TooLarge
from autolabel.symbolic.factorings import factoring_statements
from autolabel.symbolic.finders import find_statements
from autolabel.symbolic.functions import function_statements
from autolabel.symbolic.hedges import hedged as is_hedged
from autolabel.symbolic.imaginary import imaginary_setting
from autolabel.symbolic.inequalities import ORDER, decide_order
from autolabel.symbolic.inline_math import join_lone_symbols
from autolabel.symbolic.labels import blank_labels
from autolabel.symbolic.last_digits import digit_moduli
from autolabel.symbolic.math_text import math_chains
from autolabel.symbolic.prose import prose_chains
from autolabel.symbolic.rearranging import rearranging_statements
from autolabel.symbolic.residue_symbols import has_symbol, residue_setting
from autolabel.symbolic.restate import restatement_chains
from autolabel.symbolic.segments import list_markers, looks_like_prose, prepare, split_segments
from autolabel.symbolic.solving import solving_statements
from autolabel.symbolic.statements import Statement
from autolabel.symbolic.substitution import root_statements, substitution_statements
from autolabel.symbolic.task_words import MODULAR, PI_NAMED, PRIME_COUNTING, XOR, defines_star
from autolabel.symbolic.verbal import verbal_chains
from autolabel.symbolic.verdicts import ClaimResult, StepVerdict, aggregate, unknown

timeouts.register_preload("autolabel.symbolic")
_T = TypeVar("_T")

# A false link inside a chain whose ends are equal (_slips): evidence until it earns a −1.
SLIP = "slip"
_NUMERIC_KINDS = frozenset({"arithmetic", "chain", "percentage"})
# Claims that one equation becomes another: values substituted before them test nothing there
DERIVATION_KINDS = frozenset({"rewriting", "rearranging", "solving"})
MAX_CLAIMS = 60  # a step with more equalities than this is checked on its first 60
# A claim's soft limit, and finding a step's statements': this share of the step's timeout_s
# (1 s at the default 2 s). A share, not a constant: a run given a bigger timeout_s (slow or
# busy hardware) gives each claim more time, not only room for more claims.
PER_CLAIM_SHARE = 0.5
_claim_limit_s: ContextVar[float] = ContextVar("claim_limit_s", default=2.0 * PER_CLAIM_SHARE)

_APPROXIMATE = re.compile(
    r"\b(approximat\w*|approx|roughly|estimat\w*|round\w*|nearest)\b|"
    r"\b(about|around|nearly|almost)\s+(?:\\[(\[]|\$)|"
    r"\b(about|around|nearly|almost)\s+\$?\d|[\u2248~]",
    re.IGNORECASE,
)
_APPROXIMATE_TASK = re.compile(
    r"nearest|round(ed|ing)?\b|approximat|decimal place|significant (digit|figure)|estimate",
    re.IGNORECASE,
)
# A map, model or drawing: "1 inch = 50 miles" is a scale, not a conversion.
_SCALE = re.compile(r"\bscale|\bmaps?\b|represent|\bmodel|drawing|blueprint", re.IGNORECASE)


def _context(
    text: str, start: int, end: int, chain: Chain, task: Context, constrained: frozenset[str]
) -> Context:
    hedged = is_hedged(text, start, end, task)
    window = text[max(0, start - 60) : end + 40]
    return Context(
        hedged=hedged,
        approximate=chain.approximate or task.approximate or bool(_APPROXIMATE.search(window)),
        constrained=constrained,
        scaled=task.scaled,
        bases=task.bases,
        digit_moduli=task.digit_moduli,
        imaginary=task.imaginary,
    )


def _chain_symbols(chain: Chain) -> set[str]:
    return {s for side in chain.sides if side.info for s in side.info.symbols}


def _constrained(chains: list[Chain], index: int, outside: str) -> frozenset[str]:
    """Symbols of chain ``index`` that appear in other chains or in earlier text."""
    mine = _chain_symbols(chains[index])
    if not mine:
        return frozenset()
    others = set().union(*(_chain_symbols(c) for j, c in enumerate(chains) if j != index))
    for name in mine:
        base = re.escape(name.split("_")[0])
        if outside and re.search(rf"(?<![A-Za-z\\]){base}(?![A-Za-z])", outside):
            others.add(name)
    return frozenset(mine & others)


def _task_context(step_text: str, problem: str | None) -> Context:
    """Whole-step facts: a modular-arithmetic setting makes every '=' suspect."""
    modular = bool(MODULAR.search(step_text) or (problem and MODULAR.search(problem)))
    approximate = bool(problem and _APPROXIMATE_TASK.search(problem))
    scaled = bool(_SCALE.search(step_text) or (problem and _SCALE.search(problem)))
    bases = stated_bases(step_text, problem)
    moduli = digit_moduli(step_text, problem)
    return Context(
        hedged=modular,
        approximate=approximate,
        scaled=scaled,
        bases=bases,
        digit_moduli=moduli,
        imaginary=imaginary_setting(step_text, problem),
    )


def list_items(step_text: str) -> frozenset[int]:
    """Where the step's list items' markers stand in the prepared text of find_chains."""
    return list_markers(strip_annotations(step_text))


def find_chains(step_text: str) -> tuple[list[Chain], str]:
    """All relation chains in a step, and the prepared text their positions refer to."""
    chains = annotation_chains(step_text)
    prepared = prepare(strip_annotations(step_text))
    # Chains are read with worded labels blanked ("7995 (total cookies) - 2595 = ...") and a
    # lone symbol's delimiters blanked ("150 + \\( x \\) = 500"); the positions are the same,
    # and the caller reads the text as written.
    read = join_lone_symbols(blank_labels(prepared))
    found: list[Chain] = []
    segments = split_segments(read)
    for segment in segments:
        if segment.kind == "math" and not looks_like_prose(segment.text):
            for chain in math_chains(segment, read):
                kept = without_operand_side(chain, read, segment.offset)
                if kept is not None:
                    end = segment.offset + len(segment.text)
                    kept = without_operated_side(kept, read, end)
                if kept is not None:
                    found.append(kept)
            found.extend(bound_chains(segment, read))
        else:
            found.extend(prose_chains(segment, read))
    found.extend(restatement_chains(found, read))
    found.extend(continuation_chains(found, read))
    found.extend(verbal_chains(segments, read))
    return chains + found, prepared


def _show_claim(raw: str) -> str:
    text = display(" ".join(raw.split()))
    if text.count("{") != text.count("}"):  # a \boxed{ whose brace closes after the claim
        text = re.sub(r"\\boxed\s*\{", "", text)
    return text


def _claim(left: Side, right: Side, chain: Chain, decision: Decision, text: str) -> ClaimResult:
    kind = decision.kind or (
        claim_kind(left, right, chain) if left.info and right.info else "arithmetic"
    )
    return ClaimResult(
        text=text,
        kind=kind,
        lhs=left.text,
        rhs=right.text,
        lhs_value=decision.lhs_value,
        rhs_value=decision.rhs_value,
        holds=decision.holds,
        reason=decision.reason,
        source=chain.source,
    )


def check_step_local(
    step_text: str,
    previous_steps: Sequence[str] = (),
    problem: str | None = None,
    timeout_s: float = 2.0,
) -> StepVerdict:
    """The check itself, in this process. Its soft limits need the main thread."""
    token = _claim_limit_s.set(timeout_s * PER_CLAIM_SHARE)
    try:
        return _check_step_local(step_text, previous_steps, problem, timeout_s)
    finally:
        _claim_limit_s.reset(token)


def _check_step_local(
    step_text: str, previous_steps: Sequence[str], problem: str | None, timeout_s: float
) -> StepVerdict:
    deadline = time.monotonic() + timeout_s * 0.85
    chains, prepared = find_chains(step_text)
    task = _task_context(step_text, problem)
    outside = "\n".join([problem or "", *previous_steps])
    claims: list[ClaimResult] = []
    seen: set[tuple[str, str, str]] = set()
    pi_named = bool(PI_NAMED.search(outside) or PRIME_COUNTING.search(f"{outside}\n{step_text}"))
    residues = residue_setting(step_text, outside)  # "(3/7) = -1" is a Legendre symbol
    xor = bool(XOR.search(f"{outside}\n{step_text}"))  # "6 ^ 3 = 5": the bitwise operator
    star = defines_star(f"{outside}\n{step_text}")  # "a * b = a + b + ab": 3 * 4 = 19
    shown_text = join_lone_symbols(prepared)  # "150 + x = 500", not "150 + \\( x \\) = 500"
    for chain_index, chain in enumerate(chains):
        if pi_named and any("\\pi" in side.text for side in chain.sides):
            continue
        if residues and has_symbol(chain):
            continue
        if xor and any("^" in side.text for side in chain.sides):
            continue
        constrained = _constrained(chains, chain_index, outside)
        first_claim = len(claims)
        for i, relation in enumerate(chain.relations):
            if (relation != "=" and relation not in ORDER) or len(claims) >= MAX_CLAIMS:
                continue
            left, right = chain.sides[i], chain.sides[i + 1]
            if not (readable(left) and readable(right)):
                continue
            if star and (_STAR.search(left.text) or _STAR.search(right.text)):
                continue  # "3 * 4 = 19" where the problem defines a * b = a + b + ab
            if chain.claim_text is not None:
                text = chain.claim_text
            else:
                text = _show_claim(shown_text[left.start : right.end])
            key = (chain.source, left.text, right.text)
            if key in seen:
                continue
            seen.add(key)
            context = (
                Context()
                if chain.source == "annotation"
                else _context(prepared, left.start, right.end, chain, task, constrained)
            )
            if relation in ORDER:
                one = functools.partial(_order_one, relation=relation, context=context)
            else:
                one = functools.partial(_equal_one, chain=chain, index=i, context=context)
            # under every reading of the sides (readings.py), the first pair shown
            decided = _decide_limited(lambda: readings.decide(left, right, one), deadline)  # noqa: B023
            if decided is None:
                continue  # a side none of whose readings can be evaluated
            decision, shown_left, shown_right = (
                (decided, left, right) if isinstance(decided, Decision) else decided
            )
            if decision.holds is False and readings.quoted(text, problem):
                decision = replace(decision, holds=None, reason="the problem states it")
            claims.append(_claim(shown_left, shown_right, chain, decision, text))
        if any(c.holds is False for c in claims[first_claim:]):
            claims[first_claim:] = _slips(claims[first_claim:], chain, prepared, task, deadline)
    claims = _mirrored_slips(claims)

    @functools.cache  # read at most once, by whichever finder needs it first
    def previous_step() -> tuple[list[Chain], str]:
        return find_chains(previous_steps[-1]) if previous_steps else ([], "")

    def previous() -> list[Chain]:
        return previous_step()[0]

    items = list_items(step_text)
    found = _statements(prepared, chains, items, previous, previous_step, deadline, problem)
    for statement in found:
        if len(claims) >= MAX_CLAIMS:
            break
        claims.append(_statement_claim(statement, prepared, task, deadline))
    return aggregate(claims)


_STAR = re.compile(r"\*|\\ast\b")


def readable(side: Side) -> bool:
    """Parsed, or with no usual reading but readings to try (readings.py)."""
    return side.node is not None or side.error.startswith(readings.AMBIGUOUS)


def _equal_one(left: Side, right: Side, *, chain: Chain, index: int, context: Context) -> Decision:
    return decide(left, right, chain, index, context)


def _order_one(left: Side, right: Side, *, relation: str, context: Context) -> Decision:
    return decide_order(left, right, relation, context)


def _slips(
    claims: list[ClaimResult], chain: Chain, prepared: str, task: Context, deadline: float
) -> list[ClaimResult]:
    """A chain of three or more sides whose two ends are equal, with a false side between
    (or of two after a count the parser leaves unread, "C(9, 7) = ...": count_notation.py)
        them ("5!/2! = (5·4·3)/(2·1) = 60", "C(9,7) = (9·8·7·6·5·4)/7! = 36"; the first side
    with a value counts as the first end: "P(5, 3) = 5!/2! = ..."): the step's result
        stands and the slip is in how it was written. Its failed links are kind SLIP, shown as
        evidence and refuting only if that kind earns it (on the develop part, 3 of the 7 steps
        ProcessBench labels correct that hold a false computation have this shape)."""
    if chain.source == "annotation" or len(chain.sides) < 2 or set(chain.relations) != {"="}:
        return claims
    # The chain's first side with a value ("P(5, 3) = 5!/2! = ...": from 5!/2!) and its last.
    numeric = [s for s in chain.sides if s.node is not None and s.info and not s.info.symbols]
    last = chain.sides[-1]
    if len(numeric) < 2 or numeric[-1] is not last:
        return claims
    # A count the parser leaves unread may be the first end ("C(9, 7) = ... = 36": 1.12)
    count = written_start(chain, prepared)
    if count is not None and _decide_limited(lambda: agrees(count, last), deadline) is True:
        note = f" (a slip: the chain's ends agree, {count} = {last.text})"
    elif len(numeric) < 3:
        return claims
    else:
        first = numeric[0]
        context = _context(prepared, first.start, last.end, chain, task, frozenset())
        ends = _decide_limited(
            lambda: decide(first, last, chain, len(chain.sides) - 2, context), deadline
        )
        if ends.holds is not True:
            return claims
        note = f" (a slip: the chain's ends agree, {ends.lhs_value} = {ends.rhs_value})"
    return [
        replace(c, kind=SLIP, reason=c.reason + note) if c.holds is False else c for c in claims
    ]


def _mirrored_slips(claims: list[ClaimResult]) -> list[ClaimResult]:
    """The same slip across chains: a failed link from value a to b, then a later failed link
    from b back to a ("28·27·26·25/24 = 28·27·13·25/4" then "7·27·13·25 = 21·39·25": 20475
    to 61425 and back), so the wrong value never leaves the step. Both links are kind SLIP."""
    failed = [n for n, c in enumerate(claims) if c.holds is False and c.kind in _NUMERIC_KINDS]
    pairs = {(claims[n].lhs_value, claims[n].rhs_value): n for n in reversed(failed)}
    slipped: set[int] = set()
    for n in failed:
        back = pairs.get((claims[n].rhs_value, claims[n].lhs_value))
        if back is not None and back > n:
            slipped.update((n, back))
    if not slipped:
        return claims
    note = " (a slip: a later link takes the value back)"
    return [
        replace(c, kind=SLIP, reason=c.reason + note) if n in slipped else c
        for n, c in enumerate(claims)
    ]


def _statement_claim(
    statement: Statement, prepared: str, task: Context, deadline: float
) -> ClaimResult:
    """Decide a statement; a failing one is not refuted where the text around it hedges."""
    decision = _decide_limited(statement.decide, deadline)
    if statement.kind == "congruence" or statement.modular:
        task = replace(task, hedged=False)  # the modular setting is what it decides
    derivation = statement.kind in DERIVATION_KINDS
    if decision.holds is False and is_hedged(
        prepared, statement.start, statement.end, task, derivation=derivation
    ):
        decision = Decision(
            None,
            "the text around it questions or qualifies it",
            decision.lhs_value,
            decision.rhs_value,
        )
    return ClaimResult(
        text=statement.text,
        kind=statement.kind,
        lhs=statement.lhs,
        rhs=statement.rhs,
        lhs_value=decision.lhs_value,
        rhs_value=decision.rhs_value,
        holds=decision.holds,
        reason=decision.reason,
        source="prose",
    )


def _statements(
    prepared: str,
    chains: list[Chain],
    items: frozenset[int],
    previous: Callable[[], list[Chain]],
    previous_step: Callable[[], tuple[list[Chain], str]],
    deadline: float,
    problem: str | None = None,
) -> list[Statement]:
    """The step's statements; none when finding them fails or takes too long. ``items``
    are where list items' markers stand (segments.list_markers). ``previous``
    gives the chains of the step before (an equation that "x = 3 is a root" may name),
    ``previous_step`` them with its prepared text (the equation a step's first line solves)."""
    try:
        with timeouts.soft_time_limit(
            max(min(deadline - time.monotonic(), _claim_limit_s.get()), 0.01)
        ):
            return [
                *find_statements(prepared),
                *substitution_statements(chains, prepared),
                *factoring_statements(chains, prepared),
                *root_statements(chains, prepared, previous),
                *solving_statements(chains, prepared, previous_step, items),
                *rearranging_statements(prepared, previous_step),
                *function_statements(chains, prepared, problem),
            ]
    except timeouts.TimeLimitExceeded:
        return []
    except Exception:  # a finder's bug must not cost the step its other claims
        return []


def _decide_limited(decide_one: Callable[[], _T], deadline: float) -> _T | Decision:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return Decision(None, "time limit (step budget used up)")
    try:
        with timeouts.soft_time_limit(min(remaining, _claim_limit_s.get())):
            return decide_one()
    except timeouts.TimeLimitExceeded:
        return Decision(None, "time limit")
    except TooLarge as exc:
        return Decision(None, f"too large to evaluate safely: {exc}")
    except EvalError as exc:
        return Decision(None, f"undefined: {exc}")
    except (RecursionError, MemoryError):
        return Decision(None, "too large to evaluate safely")
    except Exception as exc:  # sympy raises many types on odd input; never guess
        return Decision(None, f"could not evaluate ({type(exc).__name__})")


def check_step(
    step_text: str,
    *,
    previous_steps: Sequence[str] = (),
    problem: str | None = None,
    timeout_s: float = 2.0,
) -> StepVerdict:
    """Check the arithmetic and algebraic claims in one step; never takes much longer than
    ``timeout_s`` (plus the one-time start of a worker) and never raises on odd input."""
    try:
        return timeouts.call_with_time_limit(
            check_step_local,
            step_text,
            tuple(previous_steps),
            problem,
            timeout_s,
            timeout_s=timeout_s,
        )
    except timeouts.TimeLimitExceeded:
        return unknown(f"time limit of {timeout_s:g} s exceeded")
    except timeouts.WorkerError as exc:
        return unknown(f"checker failed: {exc}")
