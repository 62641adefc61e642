"""The solutions explorer's reads: a project's solutions searched, filtered, sorted and paged.

A page is two queries plus a capped count: the page's ids (the filters and the sort over
Solution's own indexed columns, EXISTS subqueries for the rest), then the rows' display
columns and per-row subqueries for those ids only, so a page of 50 costs the same at 1k or
1M solutions. The total is counted up to COUNT_CAP rows, or to the end of the page asked for
(`count_capped` says when more match): counting every row an EXISTS filter matches is what
makes a table slow (bench/explorer_bench.py: a machine-verdict filter counted to 10,000 took
0.7 s of a page at 100k solutions), and even the unfiltered index-only count of a project's
rows grows with it (bench/scale_bench.py).
"""

from dataclasses import dataclass

from django.db.models import Count, Exists, F, Lookup, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Substr

from labeling.models import (
    Annotation,
    AnnotationStatus,
    Project,
    Resolution,
    Solution,
    Step,
    Suggestion,
)
from labeling.rules.overlap import complete_q, open_q
from labeling.selectors.review import REASONS, masks_with

COUNT_CAP = 1_000
PROBLEM_PREVIEW_CHARS = 300

LABEL_STATES = ("unlabeled", "in_progress", "labeled", "reviewed")
QUEUE_STATUSES = ("open", "closed")
VERDICTS = ("error", "no_error", "none")
ANSWERS = ("correct", "wrong", "unknown")
# Sort key → ORDER BY; every order ends with the id so pages never overlap.
SORTS = {
    "created": ("id",),
    "-created": ("-id",),
    "problem": ("problem_id", "id"),
    "-problem": ("-problem_id", "-id"),
    "annotations": ("submitted_count", "id"),
    "-annotations": ("-submitted_count", "-id"),
    # The stored review reasons (labeling.selectors.review): disagreement has the highest bit,
    # so "-agreement" puts the most contested solutions first.
    "agreement": ("review_reasons", "id"),
    "-agreement": ("-review_reasons", "-id"),
}
SORT_KEYS = tuple(SORTS)


@dataclass(frozen=True)
class ExplorerFilter:
    """What the explorer's query string selects (validated by the API's serializer)."""

    q: str = ""
    state: str = ""
    status: str = ""
    disagreement: bool | None = None
    verdict: str = ""
    verdict_source: str = ""
    answer: str = ""
    gold: bool | None = None
    import_job: int | None = None
    sort: str = "created"

    @property
    def narrows(self) -> bool:
        """Whether any filter is set (the sort aside)."""
        return any(value not in ("", None) for name, value in vars(self).items() if name != "sort")


class ContainsText(Lookup):
    """Case-insensitive substring match as ILIKE on PostgreSQL (Django's `icontains` writes
    UPPER(text) LIKE UPPER(%s), which upper-cases every problem's text first and took about
    twice as long over 100k problems in bench/explorer_bench.py); LIKE elsewhere (SQLite's LIKE
    ignores ASCII case). `%`, `_` and `\\` in the search are literal."""

    lookup_name = "contains_text"

    def as_sql(self, compiler, connection) -> tuple[str, list]:
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        op = "ILIKE" if connection.vendor == "postgresql" else "LIKE"
        return f"{lhs} {op} {rhs} ESCAPE '\\'", [*lhs_params, *rhs_params]


def _like_pattern(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _current_resolution() -> QuerySet[Resolution]:
    return Resolution.objects.filter(solution_id=OuterRef("pk"), is_current=True)


def _drafts() -> QuerySet[Annotation]:
    return Annotation.objects.filter(solution_id=OuterRef("pk"), status=AnnotationStatus.DRAFT)


def _state_condition(state: str, overlap: int) -> Q:
    """`overlap`: the project's; each solution adds its own `extra_overlap`."""
    reviewed = Exists(_current_resolution())
    if state == "reviewed":
        return Q(reviewed)
    if state == "labeled":
        return ~Q(reviewed) & complete_q(overlap)
    started = Q(submitted_count__gt=0) | Q(Exists(_drafts()))
    if state == "in_progress":
        return ~Q(reviewed) & open_q(overlap) & started
    return ~Q(reviewed) & ~started  # unlabeled


def _machine_errors(source: str) -> QuerySet[Suggestion]:
    """A machine source marks a step of the solution wrong (−1): a first error found."""
    qs = Suggestion.objects.filter(step__solution_id=OuterRef("pk"), value=-1)
    return qs.filter(source=source) if source else qs


def _machine_any(source: str) -> QuerySet[Suggestion]:
    qs = Suggestion.objects.filter(step__solution_id=OuterRef("pk"))
    return qs.filter(source=source) if source else qs


def explorer_solutions(*, project: Project, filters: ExplorerFilter) -> QuerySet[Solution]:
    """The project's solutions that match `filters`, in its sort order (ids and sort columns)."""
    qs = Solution.objects.filter(project=project)
    if filters.q:
        qs = qs.filter(ContainsText(F("problem__text"), Value(_like_pattern(filters.q))))
    if filters.state:
        qs = qs.filter(_state_condition(filters.state, project.overlap))
    if filters.status:
        qs = qs.filter(queue_open=filters.status == "open")
    if filters.disagreement is not None:
        disagreeing = Q(review_reasons__in=masks_with("disagreement"))
        qs = qs.filter(disagreeing if filters.disagreement else ~disagreeing)
    if filters.verdict == "error":
        qs = qs.filter(Exists(_machine_errors(filters.verdict_source)))
    elif filters.verdict == "no_error":
        qs = qs.filter(Exists(_machine_any(filters.verdict_source))).exclude(
            Exists(_machine_errors(filters.verdict_source))
        )
    elif filters.verdict == "none":
        qs = qs.exclude(Exists(_machine_any(filters.verdict_source)))
    if filters.answer:
        answer = {"correct": True, "wrong": False, "unknown": None}[filters.answer]
        qs = (
            qs.filter(answer_correct__isnull=True)
            if answer is None
            else qs.filter(answer_correct=answer)
        )
    if filters.gold is not None:
        qs = qs.filter(is_gold=filters.gold)
    if filters.import_job is not None:
        qs = qs.filter(import_job_id=filters.import_job)
    return qs.order_by(*SORTS[filters.sort])


def explorer_count(qs: QuerySet[Solution], *, cap: int | None = None) -> tuple[int, bool]:
    """How many rows `qs` has, counting at most `cap` (COUNT_CAP): (count, capped)."""
    cap = COUNT_CAP if cap is None else cap
    n = qs.order_by().values("pk")[: cap + 1].count()
    return min(n, cap), n > cap


def explorer_rows(*, project: Project, ids: list[int]) -> list[dict]:
    """The display columns of the given solutions, in the order of `ids`."""
    steps = (
        Step.objects.filter(solution_id=OuterRef("pk"))
        .order_by()
        .values("solution_id")
        .annotate(n=Count("*"))
        .values("n")
    )
    rows = (
        Solution.objects.filter(project=project, pk__in=ids)
        .annotate(
            problem_preview=Substr("problem__text", 1, PROBLEM_PREVIEW_CHARS),
            steps_count=Subquery(steps),
            reviewed=Exists(_current_resolution()),
            drafting=Exists(_drafts()),
            machine_error=Exists(_machine_errors("")),
            machine_any=Exists(_machine_any("")),
        )
        .values(
            "id",
            "problem_id",
            "problem_preview",
            "problem__source",
            "generator",
            "final_answer",
            "answer_correct",
            "submitted_count",
            "extra_overlap",
            "is_gold",
            "queue_open",
            "review_reasons",
            "import_job_id",
            "created_at",
            "steps_count",
            "reviewed",
            "drafting",
            "machine_error",
            "machine_any",
        )
    )
    by_id = {row["id"]: row for row in rows}
    out = []
    for pk in ids:
        row = by_id.get(pk)
        if row is None:
            continue
        row["label_state"] = label_state(
            reviewed=row.pop("reviewed"),
            submitted=row["submitted_count"],
            drafting=row.pop("drafting"),
            overlap=project.overlap + row["extra_overlap"],
        )
        row["reasons"] = [r for r in REASONS if row["review_reasons"] in masks_with(r)]
        machine_any = row.pop("machine_any")
        row["verdict"] = "error" if row.pop("machine_error") else "no_error" if machine_any else ""
        row["problem_text"] = row.pop("problem_preview") or ""
        row["problem_source"] = row.pop("problem__source")
        row["steps_count"] = row["steps_count"] or 0
        out.append(row)
    return out


def label_state(*, reviewed: bool, submitted: int, drafting: bool, overlap: int) -> str:
    """The label state a row shows; the same rule as the `state` filter (_state_condition)."""
    if reviewed:
        return "reviewed"
    if submitted >= overlap:
        return "labeled"
    if submitted > 0 or drafting:
        return "in_progress"
    return "unlabeled"


def explorer_page(*, project: Project, filters: ExplorerFilter, limit: int, offset: int) -> dict:
    """One page of the explorer: {count, count_capped, results}."""
    qs = explorer_solutions(project=project, filters=filters)
    ids = list(qs.values_list("pk", flat=True)[offset : offset + limit])
    count, capped = explorer_count(qs, cap=max(COUNT_CAP, offset + limit))
    return {
        "count": count,
        "count_capped": capped,
        "limit": limit,
        "offset": offset,
        "results": explorer_rows(project=project, ids=ids),
    }
