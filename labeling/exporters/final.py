"""Final labels (label_source=final, the default): one label per step, by authority (pure).

Per step, the first of:
1. **review**: the solution's current resolution rated the step and a reviewer made it
   (`reviewed:reviewer`); a resolution its overlap annotators agreed on counts as
   **agreement** (`reviewed:human_consensus`); one machine sources agreed on as **machine**,
   and only with `machine_labels` (selection.resolution_q leaves it out otherwise);
2. the submitted annotations' ratings of the step: one rating is a **single** annotator's
   (`human` / `imported`); two or more take the majority (**agreement**, `majority`), and a
   tie for the top is left out (the step is unlabeled) and counted as **tie**;
3. with `machine_labels`, a suggestion (the first source in `auto_sources` order that has one
   on the step, as label_source=auto_any) as **machine**;
4. else nothing: the step is unlabeled and counted as **no_label**.

An unlabeled step ends the exported row (policy.labeled_prefix). A step taken from annotations
is unsure when any annotator marked it so; a resolved one never is. The record's agreement
(for `min_agreement`) is the mean share of the majority rating over the steps taken from two
or more annotators; None when there are none (a reviewed solution is not filtered by it).

`FinalTally` counts steps and solutions by where their label came from, and what was left out
and why; a solution counts under the most authoritative origin among its steps (review,
agreement, single, machine), else as tie (a step was tied) or no_label. The export stores it
under stats["final_labels"] and the dataset card shows it.
"""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .labels import (
    AnnotationLabels,
    BaseStep,
    Positive,
    ResolutionLabels,
    Resolved,
    SuggestionLabel,
    _mc_fraction,
    _step,
    majority,
    marked_uses,
)

REVIEW, AGREEMENT, SINGLE, MACHINE = "review", "agreement", "single", "machine"
TIE, NO_LABEL = "tie", "no_label"
ORIGINS = (REVIEW, AGREEMENT, SINGLE, MACHINE)  # most authoritative first
LEFT_OUT = (TIE, NO_LABEL)
_RANK = {origin: i for i, origin in enumerate(ORIGINS)}
_PROVENANCE_ORIGIN = {
    "reviewer": REVIEW,
    "human_consensus": AGREEMENT,
    "auto_consensus": MACHINE,
}


@dataclass
class FinalTally:
    """Steps and solutions by the origin of their final label, and those left out (why)."""

    steps: Counter = field(default_factory=Counter)
    solutions: Counter = field(default_factory=Counter)

    def as_dict(self) -> dict[str, dict[str, int]]:
        keys = (*ORIGINS, *LEFT_OUT)
        return {
            "solutions": {k: self.solutions[k] for k in keys},
            "steps": {k: self.steps[k] for k in keys},
        }


def _suggested(
    base: BaseStep, suggestions: dict[int, list[SuggestionLabel]], rank: dict[str, int]
) -> tuple[int, float, str, list[SuggestionLabel]] | None:
    here = [s for s in suggestions.get(base.id, ()) if s.source in rank]
    if not here:
        return None
    best = min(rank[s.source] for s in here)
    chosen = [s for s in here if rank[s.source] == best]
    value = majority([s.value for s in chosen])
    names = sorted({s.agent for s in chosen})
    source = chosen[0].source
    tag = f"{source}:{names[0]}" if len(names) == 1 else f"{source}:majority"
    soft = _mc_fraction(chosen)
    return value, (-1.0 if soft is None else soft), tag, chosen


def from_final(
    steps: list[BaseStep],
    resolution: ResolutionLabels | None,
    annotations: list[AnnotationLabels],
    *,
    positive: Positive,
    tally: FinalTally,
    suggestions: dict[int, list[SuggestionLabel]] | None = None,
    priority: Sequence[str] = (),
    reuse: bool = False,
) -> Resolved:
    """A solution's final labels; counts each step and the solution into `tally`.
    `suggestions` (step id → its suggestions) only when machine labels are asked for.
    `reuse`: this is the only record of these steps, so a single annotation's labels may be
    set on the BaseSteps themselves (`_from_single`, the default export's common case)."""
    if (
        reuse
        and resolution is None
        and suggestions is None
        and len(annotations) == 1
        and not annotations[0].uses
    ):
        return _from_single(steps, annotations[0], positive=positive, tally=tally)
    counts = tally.steps
    resolved = resolution.labels if resolution is not None else {}
    res_origin = _PROVENANCE_ORIGIN.get(resolution.provenance, MACHINE) if resolution else ""
    res_tag = f"reviewed:{resolution.provenance}" if resolution else ""
    rank = {source: i for i, source in enumerate(priority)} if suggestions is not None else {}
    used: set[str] = set()
    out, shares, times, agents = [], [], [], set()
    tied = False
    any_uses = any(a.uses for a in annotations)  # marks read only with a dependency policy
    for base in steps:
        rating = resolved.get(base.id)
        if rating is not None:
            res_uses = resolution.uses.get(base.id)  # type: ignore[union-attr]
            out.append(_step(base, rating, False, float(positive(rating)), res_tag, res_uses))
            counts[res_origin] += 1
            used.add(res_origin)
            continue
        marks = [(a.labels[base.id], a) for a in annotations if base.id in a.labels]
        ratings = [m[0] for m, _ in marks if m[0] is not None]
        unsure = any(m[1] for m, _ in marks)
        uses = marked_uses(base, annotations) if any_uses else None
        if len(ratings) == 1:
            rating = ratings[0]
            single = next(a for m, a in marks if m[0] is not None)
            tag = "imported" if single.imported else "human"
            out.append(_step(base, rating, unsure, float(positive(rating)), tag, uses))
            counts[SINGLE] += 1
            used.add(SINGLE)
            continue
        if ratings:
            votes = Counter(ratings)
            top = max(votes.values())
            shares.append(top / len(ratings))
            winners = [r for r, n in votes.items() if n == top]
            if len(winners) > 1:  # a tie: neither rating is the annotators' label
                out.append(_step(base, None, unsure, None, "", uses))
                counts[TIE] += 1
                tied = True
                continue
            rating = winners[0]
            soft = sum(positive(r) for r in ratings) / len(ratings)
            out.append(_step(base, rating, unsure, soft, "majority", uses))
            counts[AGREEMENT] += 1
            used.add(AGREEMENT)
            continue
        machine = _suggested(base, suggestions, rank) if suggestions is not None else None
        if machine is not None:
            value, soft, tag, chosen = machine
            if soft < 0:
                soft = sum(positive(s.value) for s in chosen) / len(chosen)
            out.append(_step(base, value, unsure, soft, tag, uses))
            counts[MACHINE] += 1
            used.add(MACHINE)
            agents.update(s.agent for s in chosen)
            times += [s.updated_at for s in chosen if s.updated_at]
            continue
        out.append(_step(base, None, unsure, None, "", uses))
        counts[NO_LABEL] += 1
    if used:
        tally.solutions[min(used, key=_RANK.__getitem__)] += 1
    else:
        tally.solutions[TIE if tied else NO_LABEL] += 1
    names: list[str] = []
    if resolution is not None and res_origin in used:
        names.append(resolution.resolved_by or resolution.provenance)
        if resolution.created_at:
            times.append(resolution.created_at)
    if used & {SINGLE, AGREEMENT} or (tied and annotations):
        names += sorted({a.name for a in annotations})
        times += [a.submitted_at for a in annotations if a.submitted_at]
    names += sorted(agents)
    return Resolved(
        steps=out,
        agreement=sum(shares) / len(shares) if shares else None,
        labeler=",".join(dict.fromkeys(n for n in names if n)),
        labeled_at=max(times) if times else None,
        time_spent_ms=sum(a.time_spent_ms for a in annotations) if annotations else None,
        finish_reason=annotations[0].finish_reason if len(annotations) == 1 else "",
        from_import=bool(annotations)
        and used <= {SINGLE, AGREEMENT}
        and bool(used)
        and all(a.imported for a in annotations),
        annotations=len(annotations),
    )


def _from_single(
    steps: list[BaseStep], single: AnnotationLabels, *, positive: Positive, tally: FinalTally
) -> Resolved:
    """from_final of one annotation's labels with no resolution, no machine labels and no
    marked dependencies: each step is the annotator's (SINGLE) or unlabeled (NO_LABEL), set
    on the steps in place (one loop, no vote and no object a step). The same Resolved and
    counts as the general path (tests/exports/test_final_labels.py holds them equal)."""
    tag = "imported" if single.imported else "human"
    labels, unlabeled, softs = single.labels, (None, False), {}
    rated = 0
    for base in steps:
        rating, unsure = labels.get(base.id, unlabeled)
        if rating is not None:
            if (soft := softs.get(rating)) is None:
                soft = softs[rating] = float(positive(rating))
            base.rating, base.soft, base.source = rating, soft, tag
            rated += 1
        if unsure:
            base.unsure = True
    counts = tally.steps
    if rated:
        counts[SINGLE] += rated
        tally.solutions[SINGLE] += 1
    else:
        tally.solutions[NO_LABEL] += 1
    if unrated := len(steps) - rated:
        counts[NO_LABEL] += unrated
    return Resolved(
        steps=steps,  # type: ignore[arg-type]
        agreement=None,  # no step had two raters
        labeler=(single.name or "") if rated else "",
        labeled_at=single.submitted_at if rated and single.submitted_at else None,
        time_spent_ms=single.time_spent_ms,
        finish_reason=single.finish_reason,
        from_import=bool(rated) and bool(single.imported),
        annotations=1,
    )
