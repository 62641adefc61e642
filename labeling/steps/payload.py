"""The labeling page's steps of one solution with their machine suggestions: every claim reads
them. On PostgreSQL one statement answers plain rows, each step's suggestions already a JSON
list (json_agg); building a model instance per step and per suggestion cost the web process
more than the read. Elsewhere two ORM reads give the same rows (tests compare the two)."""

from django.db import connection
from django.db.models import Count

from labeling.models import Step, Suggestion
from labeling.pg.compiled import compile_queryset_once, hot_cursor

# What the pages get of a suggestion, in this order, and what an annotation records of those
# its page showed (Annotation.shown_suggestions, each with its step_id first).
SUGGESTION_KEYS = ("source", "agent", "value", "score", "evidence")
SHOWN_KEYS = ("source", "agent", "value", "score")


def _json_object(keys: tuple[str, ...]) -> str:
    return "json_build_object(" + ", ".join(f"'{key}', g.{key}" for key in keys) + ")"


_SUGGESTIONS = (
    f"(SELECT json_agg({_json_object(SUGGESTION_KEYS)} ORDER BY g.source, g.agent) "
    "FROM labeling_suggestion g WHERE g.step_id = st.id)"
)
# The shown suggestions of a solution (its id the one parameter) as jsonb, in the page's order:
# steps by index, each step's suggestions by source and agent.
SHOWN_SQL = (
    f"(SELECT coalesce(json_agg({_json_object(('step_id', *SHOWN_KEYS))} "
    "ORDER BY st.\"index\", g.source, g.agent), '[]')::jsonb "
    "FROM labeling_suggestion g JOIN labeling_step st ON st.id = g.step_id "
    "WHERE st.solution_id = %s)"
)


def suggestion_payload(suggestion: Suggestion) -> dict:
    """A machine suggestion as the labeling and review pages get it."""
    return {key: getattr(suggestion, key) for key in SUGGESTION_KEYS}


def shown_record(steps: list[dict]) -> list[dict]:
    """What an annotation records of the suggestions its page's `steps` show."""
    return [
        {"step_id": step["id"], **{key: s[key] for key in SHOWN_KEYS}}
        for step in steps
        for s in step["suggestions"]
    ]


_STEPS_SQL = """
SELECT st.id, st."index", st.text, st.metadata::json, st.uses::json, st.uses_source, st.thinking,
  (SELECT COUNT(*) FROM labeling_stepalternative a WHERE a.step_id = st.id), {suggestions}
FROM labeling_step st WHERE st.solution_id = %s ORDER BY st."index"
"""

# (id, index, text, metadata, uses, uses_source, thinking, alternatives, suggestions)
StepRow = tuple


def payload_step_rows(*, solution_id: int, suggestions: bool) -> list[StepRow]:
    """The solution's steps in order, each with its alternatives' count and its suggestions
    (dicts of SUGGESTION_KEYS ordered by source, agent; an empty list when `suggestions` is
    false: the project hides them)."""
    if connection.vendor != "postgresql":
        return _orm_rows(solution_id=solution_id, suggestions=suggestions)
    sql = _STEPS_SQL.format(suggestions=_SUGGESTIONS if suggestions else "NULL")
    with hot_cursor() as cursor:
        cursor.execute(sql, [solution_id])
        return [(*row[:8], row[8] or []) for row in cursor.fetchall()]


def _orm_rows(*, solution_id: int, suggestions: bool) -> list[StepRow]:
    values = {"solution": solution_id}
    by_step: dict[int, list[dict]] = {}
    if suggestions:
        for suggestion in _suggestions().fetch(values):
            by_step.setdefault(suggestion.step_id, []).append(suggestion_payload(suggestion))
    return [
        (
            step.id,
            step.index,
            step.text,
            step.metadata,
            step.uses,
            step.uses_source,
            step.thinking,
            step.alternatives_count,
            by_step.get(step.id, []),
        )
        for step in _steps().fetch(values)
    ]


def _steps():
    return compile_queryset_once(
        ("payload steps",),
        lambda s: (
            Step.objects.filter(solution_id=s["solution"])
            .annotate(alternatives_count=Count("alternatives"))
            .order_by("index")
        ),
        ints=("solution",),
    )


def _suggestions():
    return compile_queryset_once(
        ("payload suggestions",),
        lambda s: Suggestion.objects.filter(step__solution_id=s["solution"]).order_by(
            "step_id", "source", "agent"
        ),
        ints=("solution",),
    )
