"""Resolving one label per step from a solution's annotations or suggestions (pure).

Annotations (`combine=majority`): each step takes the majority rating of the annotations that
rated it; a tie goes to the more negative rating (a step two annotators split on is not
trusted as correct). A step is unsure when any annotator marked it unsure. The step's
agreement is the share of its raters who gave the majority rating; the solution's is the
mean over its rated steps. The soft label is the share of raters whose rating counts as
positive under the label policy.

Suggestions: a step takes the suggestions of the first source, in the `auto_sources`
priority order, that has any on it; several agents of that source vote as above. The soft
label is the Monte-Carlo fraction sum(correct) / sum(total) when their evidence has the
counts (`{"correct": 3, "total": 8}`), else the share of positive votes. Agreement: the share
of all the step's suggestions (of the allowed sources) that agree with the chosen value.
"""

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from labeling.steps.uses import majority_uses

from .records import AlternativeRecord, StepRecord

Positive = Callable[[int], bool]


class BaseStep(StepRecord):
    """A step as read, before its label is resolved: a StepRecord with no label yet, and
    the step's database id (what labels are keyed by). Arguments in the order the chunk's
    query reads them. A resolution that is the only one of its steps' (one record of one
    annotation: `from_annotations(..., reuse=True)`) labels these very objects in place
    instead of building a second object per step."""

    __slots__ = ("id",)

    def __init__(
        self,
        id: int,
        index: int,
        text: str,
        human_written: bool,
        alternatives: Sequence[AlternativeRecord] | None = None,
        images: Sequence[str] | None = None,
        meta: dict[str, Any] | None = None,  # STEP_RECORD_META keys, for formats that read them
        uses: Sequence[int] = (),  # the step's own (Step.uses), when the export reads them
        citations: Sequence[dict] | None = None,  # evidence-cited steps
        thinking: bool = False,  # a step of the reasoning trace (Step.thinking)
    ) -> None:
        self.id = id
        self.index = index
        self.text = text
        self.rating = None
        self.unsure = False
        self.soft = None
        self.source = ""
        self.human_written = human_written
        self.alternatives = [] if alternatives is None else alternatives
        self.images = [] if images is None else images
        self.meta = meta
        self.uses = uses
        self.inherited = False
        self.citations = [] if citations is None else citations
        self.thinking = thinking


@dataclass(slots=True)
class AnnotationLabels:
    id: int
    name: str  # the annotator's username, or the external annotator of an imported one
    imported: bool
    finish_reason: str
    time_spent_ms: int
    submitted_at: datetime | None
    labels: dict[int, tuple[int | None, bool]] = field(default_factory=dict)  # step id →
    # step id → the earlier steps the annotator marked it as using (only where they did).
    uses: dict[int, list[int]] = field(default_factory=dict)


@dataclass(slots=True)
class SuggestionLabel:
    source: str
    agent: str
    value: int
    evidence: Any
    updated_at: datetime | None


@dataclass(slots=True)
class Resolved:
    steps: list[StepRecord]
    agreement: float | None
    labeler: str
    labeled_at: datetime | None
    time_spent_ms: int | None
    finish_reason: str
    from_import: bool
    annotations: int


def majority(ratings: Sequence[int]) -> int:
    """The most common rating; ties go to the more negative one."""
    if len(ratings) == 1:
        return ratings[0]
    counts = Counter(ratings)
    top = max(counts.values())
    return min(r for r, n in counts.items() if n == top)


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _step(
    base: BaseStep,
    rating: int | None = None,
    unsure: bool = False,
    soft: float | None = None,
    source: str = "",
    uses: Sequence[int] | None = None,
) -> StepRecord:
    """The exported step: `base` with its resolved label. The one place a StepRecord is built;
    positional, once per exported step (a third of the time of keywords and **label).
    `uses`: the annotators' marks, else None for the step's own."""
    return StepRecord(
        base.index,
        base.text,
        rating,
        unsure,
        soft,
        source,
        base.human_written,
        base.alternatives,
        base.images,
        base.meta,
        base.uses if uses is None else uses,
        False,  # inherited: set by dependencies.inherit_errors when the policy asks
        base.citations,
        base.thinking,
    )


def marked_uses(base: BaseStep, annotations: list["AnnotationLabels"]) -> list[int] | None:
    """The dependencies the annotators marked on a step (labeling.steps.uses.majority_uses),
    or None when nobody marked it."""
    return majority_uses(a.uses.get(base.id) for a in annotations)


def agreement_of(steps: list[BaseStep], annotations: list[AnnotationLabels]) -> float | None:
    shares = []
    for base in steps:
        ratings = [a.labels[base.id][0] for a in annotations if base.id in a.labels]
        ratings = [r for r in ratings if r is not None]
        if ratings:
            shares.append(ratings.count(majority(ratings)) / len(ratings))
    return _mean(shares)


def from_annotations(
    steps: list[BaseStep],
    annotations: list[AnnotationLabels],
    *,
    positive: Positive,
    agreement: float | None = None,
    reuse: bool = False,
) -> Resolved:
    """One record's labels from `annotations` (all of a solution's, or just one).

    `reuse`: this is the only record of these steps, so one annotation's labels may be set
    on the BaseSteps themselves (the export's common case: a step object less per step)."""
    if len(annotations) == 1:
        return _from_one(steps, annotations[0], positive=positive, agreement=agreement, reuse=reuse)
    tag = "majority"
    out, shares = [], []
    for base in steps:
        marks = [a.labels[base.id] for a in annotations if base.id in a.labels]
        ratings = [r for r, _ in marks if r is not None]
        unsure = any(u for _, u in marks)
        uses = marked_uses(base, annotations)
        if not ratings:
            out.append(_step(base, unsure=unsure, uses=uses))
            continue
        rating = majority(ratings)
        if len(ratings) == 1:
            soft, share = float(positive(rating)), 1.0
        else:
            soft = sum(positive(r) for r in ratings) / len(ratings)
            share = ratings.count(rating) / len(ratings)
        shares.append(share)
        out.append(_step(base, rating=rating, unsure=unsure, soft=soft, source=tag, uses=uses))
    times = [a.submitted_at for a in annotations if a.submitted_at]
    return Resolved(
        steps=out,
        agreement=agreement if agreement is not None else _mean(shares),
        labeler=",".join(sorted({a.name for a in annotations})),
        labeled_at=max(times) if times else None,
        time_spent_ms=sum(a.time_spent_ms for a in annotations),
        finish_reason="",
        from_import=False,
        annotations=len(annotations),
    )


def _from_one(
    steps: list[BaseStep],
    single: AnnotationLabels,
    *,
    positive: Positive,
    agreement: float | None,
    reuse: bool = False,
) -> Resolved:
    """from_annotations with one annotation, the common case: no voting; one loop per step
    of the export."""
    tag = "imported" if single.imported else "human"
    labels, unlabeled, softs, out = single.labels, (None, False), {}, []
    marked = single.uses
    if reuse:  # the steps are this record's alone: labelled in place (BaseStep)
        for base in steps:
            rating, unsure = labels.get(base.id, unlabeled)
            if rating is not None:
                if (soft := softs.get(rating)) is None:
                    soft = softs[rating] = float(positive(rating))
                base.rating, base.soft, base.source = rating, soft, tag
            if unsure:
                base.unsure = True
            if marked and (uses := marked.get(base.id)) is not None:
                base.uses = uses
        out = steps  # type: ignore[assignment]
    else:
        for base in steps:
            rating, unsure = labels.get(base.id, unlabeled)
            if rating is None:
                soft, source = None, ""
            elif (soft := softs.get(rating)) is None:
                soft, source = softs.setdefault(rating, float(positive(rating))), tag
            else:
                source = tag
            uses = marked.get(base.id) if marked else None
            # _step inlined (the export's inner loop: one call less per exported step).
            out.append(
                StepRecord(
                    base.index,
                    base.text,
                    rating,
                    unsure,
                    soft,
                    source,
                    base.human_written,
                    base.alternatives,
                    base.images,
                    base.meta,
                    base.uses if uses is None else uses,
                    False,
                    base.citations,
                    base.thinking,
                )
            )
    return Resolved(
        steps=out,
        # Each rated step agrees with itself: the mean of the shares is 1.0.
        agreement=agreement if agreement is not None else (1.0 if softs else None),
        labeler=single.name,
        labeled_at=single.submitted_at or None,
        time_spent_ms=single.time_spent_ms,
        finish_reason=single.finish_reason,
        from_import=bool(single.imported),
        annotations=1,
    )


@dataclass(slots=True)
class ResolutionLabels:
    provenance: str  # reviewer / human_consensus / auto_consensus
    resolved_by: str  # the reviewer's username; "" when resolved by agreement
    created_at: datetime | None
    annotations: int
    labels: dict[int, int | None] = field(default_factory=dict)  # step id → rating
    # step id → the earlier steps the resolution says it uses (only where it decided them).
    uses: dict[int, list[int]] = field(default_factory=dict)


def from_resolution(
    steps: list[BaseStep], resolution: ResolutionLabels, *, positive: Positive
) -> Resolved:
    """A solution's resolved label (review queue): one rating per step, no vote to count."""
    tag = f"reviewed:{resolution.provenance}"
    out = []
    for base in steps:
        rating, uses = resolution.labels.get(base.id), resolution.uses.get(base.id)
        if rating is None:
            out.append(_step(base, uses=uses))
            continue
        out.append(_step(base, rating=rating, soft=float(positive(rating)), source=tag, uses=uses))
    return Resolved(
        steps=out,
        agreement=None,  # adjudicated: agreement among raters does not apply
        labeler=resolution.resolved_by or resolution.provenance,
        labeled_at=resolution.created_at,
        time_spent_ms=None,
        finish_reason="",
        from_import=False,
        annotations=resolution.annotations,
    )


def _mc_fraction(chosen: list[SuggestionLabel]) -> float | None:
    correct = total = 0
    for s in chosen:
        ev = s.evidence if isinstance(s.evidence, dict) else {}
        c, t = ev.get("correct"), ev.get("total")
        if isinstance(c, int | float) and isinstance(t, int | float) and t > 0:
            correct, total = correct + c, total + t
    return correct / total if total else None


def from_suggestions(
    steps: list[BaseStep],
    suggestions: dict[int, list[SuggestionLabel]],
    *,
    priority: Sequence[str],
    positive: Positive,
) -> Resolved:
    rank = {source: i for i, source in enumerate(priority)}
    out, shares, agents, times, sources = [], [], set(), [], set()
    for base in steps:
        here = [s for s in suggestions.get(base.id, ()) if s.source in rank]
        if not here:
            out.append(_step(base))
            continue
        best = min(rank[s.source] for s in here)
        chosen = [s for s in here if rank[s.source] == best]
        value = majority([s.value for s in chosen])
        soft = _mc_fraction(chosen)
        if soft is None:
            soft = sum(positive(s.value) for s in chosen) / len(chosen)
        names = sorted({s.agent for s in chosen})
        source = chosen[0].source
        tag = f"{source}:{names[0]}" if len(names) == 1 else f"{source}:majority"
        out.append(_step(base, rating=value, soft=soft, source=tag))
        shares.append(sum(s.value == value for s in here) / len(here))
        agents.update(names)
        sources.add(source)
        times += [s.updated_at for s in chosen if s.updated_at]
    return Resolved(
        steps=out,
        agreement=_mean(shares),
        labeler=",".join(sorted(agents)),
        labeled_at=max(times) if times else None,
        time_spent_ms=None,
        finish_reason="",
        from_import=sources == {"import"},
        annotations=0,
    )
