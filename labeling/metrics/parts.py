"""The three most expensive passes over a project's labels, kept per solution (the partial
aggregates, labeling.models.metrics_parts): the rater-pair self-join and the step-rating
profiles, grouped by solution too, and each submitted annotation's counted labels
(throughput and the label distribution), as statements that replace the parts of some
solutions (or of the whole project), for services/projects/metrics_parts.py. PostgreSQL only
(data-modifying WITH, arrays).

The pair and profile statements delete the solutions' old rows and insert their new ones in
one snapshot and answer the difference: (sign, key..., count) rows, -1 for what was there, +1
for what is.
"""

from django.db.models import (
    BooleanField,
    Count,
    ExpressionWrapper,
    F,
    Min,
    Q,
)
from django.db.models.functions import Coalesce, TruncDate

from labeling.models import (
    AnnotationStatus,
    FinishReason,
    Project,
    Solution,
)
from labeling.rules.overlap import complete_q

from .activity import _RATINGS
from .selection import NO_ERROR, submitted_annotations, submitted_labels

PAIR_KEYS = ("a_id", "a_ext", "b_id", "b_ext", "a_rating", "b_rating")
PROFILE_KEYS = ("domain", "profile")


def _scope(project: Project, solution_ids: list[int] | None) -> tuple[str, list]:
    """The parts' rows replaced: those of `solution_ids`, or all the project's (None)."""
    if solution_ids is None:
        return "project_id = %s", [project.pk]
    return "project_id = %s AND solution_id = ANY(%s)", [project.pk, solution_ids]


def _labels(project: Project, solution_ids: list[int] | None):
    labels = submitted_labels(project)
    if solution_ids is not None:
        labels = labels.filter(annotation__solution_id__in=solution_ids)
    return labels


def _replace(table: str, keys: tuple[str, ...], where: str, insert: str, full: bool) -> str:
    listed = ", ".join(keys)
    if full:  # a rebuild: what was there is only deleted, not summed (half the rows to group)
        return (
            f"WITH old AS (DELETE FROM {table} WHERE {where}), "
            f"new AS ({insert} RETURNING {listed}, n) "
            f"SELECT 1, {listed}, SUM(n)::bigint FROM new GROUP BY {listed}"
        )
    return (
        f"WITH old AS (DELETE FROM {table} WHERE {where} RETURNING {listed}, n), "
        f"new AS ({insert} RETURNING {listed}, n) "
        f"SELECT sign, {listed}, SUM(n)::bigint FROM ("
        f"SELECT -1 AS sign, {listed}, n FROM old UNION ALL SELECT 1, {listed}, n FROM new"
        f") AS d GROUP BY sign, {listed}"
    )


def pair_parts_sql(project: Project, solution_ids: list[int] | None) -> tuple[str, list]:
    """rater_pair_confusions' self-join (queries.py), grouped by solution as well."""
    labels = _labels(project, solution_ids).values(
        "step_id",
        "annotation_id",
        "rating",
        rater_id=F("annotation__annotator_id"),
        rater_ext=F("annotation__external_annotator"),
        sol=F("annotation__solution_id"),
    )
    sql, params = labels.query.sql_with_params()
    insert = (
        f"INSERT INTO labeling_metricspairpart (project_id, solution_id, {', '.join(PAIR_KEYS)}, n)"
        " SELECT %s, a.sol, a.rater_id, a.rater_ext, b.rater_id, b.rater_ext, a.rating,"
        f" b.rating, COUNT(*) FROM ({sql}) AS a JOIN ({sql}) AS b"
        " ON b.step_id = a.step_id AND b.annotation_id > a.annotation_id"
        " GROUP BY a.sol, a.rater_id, a.rater_ext, b.rater_id, b.rater_ext, a.rating,"
        " b.rating"
    )
    where, where_params = _scope(project, solution_ids)
    statement = _replace("labeling_metricspairpart", PAIR_KEYS, where, insert, solution_ids is None)
    return statement, [*where_params, project.pk, *params, *params]


def profile_parts_sql(project: Project, solution_ids: list[int] | None) -> tuple[str, list]:
    """step_rating_profiles' two GROUP BYs (queries.py), grouped by solution as well, with
    each solution's problem domain; a profile is its counts as text ("0,1,2")."""
    values = project.rating_values
    cols = [f"c{i}" for i in range(len(values))]
    per_step = (
        _labels(project, solution_ids)
        .values("step_id", sol=F("annotation__solution_id"))
        .annotate(
            **{col: Count("id", filter=Q(rating=v)) for col, v in zip(cols, values, strict=True)},
            m=Count("id"),
        )
        .filter(m__gte=2)
        .values("sol", *cols)
    )
    sql, params = per_step.query.sql_with_params()
    listed = ", ".join(f"per_step.{col}" for col in cols)
    insert = (
        "INSERT INTO labeling_metricsprofilepart (project_id, solution_id, domain, profile, n)"
        f" SELECT %s, per_step.sol, p.domain, CONCAT_WS(',', {listed}), COUNT(*)"
        f" FROM ({sql}) AS per_step JOIN labeling_solution s ON s.id = per_step.sol"
        " JOIN labeling_problem p ON p.id = s.problem_id"
        f" GROUP BY per_step.sol, p.domain, {listed}"
    )
    where, where_params = _scope(project, solution_ids)
    statement = _replace(
        "labeling_metricsprofilepart", PROFILE_KEYS, where, insert, solution_ids is None
    )
    return statement, [*where_params, project.pk, *params]


SOURCE_KEYS = ("rater_id", "rater_ext", "source", "rating", "value")


def source_parts_sql(project: Project, solution_ids: list[int] | None) -> tuple[str, list]:
    """auto_source_agreement's join (queries.py: the rated labels and the suggestions of a
    rating value on their steps, every agent), grouped by solution as well; the suggestions
    joined on the step directly (the ORM's join went through every step of the project)."""
    labels = _labels(project, solution_ids).values(
        "step_id",
        "rating",
        rater_id=F("annotation__annotator_id"),
        rater_ext=F("annotation__external_annotator"),
        sol=F("annotation__solution_id"),
    )
    sql, params = labels.query.sql_with_params()
    insert = (
        "INSERT INTO labeling_metricssourcepart"
        f" (project_id, solution_id, {', '.join(SOURCE_KEYS)}, n)"
        " SELECT %s, l.sol, l.rater_id, l.rater_ext, s.source, l.rating, s.value, COUNT(*)"
        f" FROM ({sql}) AS l JOIN labeling_suggestion s ON s.step_id = l.step_id"
        " WHERE s.value = ANY(%s)"
        " GROUP BY l.sol, l.rater_id, l.rater_ext, s.source, l.rating, s.value"
    )
    where, where_params = _scope(project, solution_ids)
    full = solution_ids is None
    statement = _replace("labeling_metricssourcepart", SOURCE_KEYS, where, insert, full)
    return statement, [*where_params, project.pk, *params, list(project.rating_values)]


ANNOTATION_COLUMNS = (
    "annotation_id",
    "solution_id",
    "annotator_id",
    "external_annotator",
    "day",
    "submitted_at",
    "time_spent_ms",
    "rated",
    "labeled",
    "wrong",
    "neutral",
    "correct",
    "unrated",
    "unsure",
    "first_error",
    "bad_problem",
    "domain",
    "gold",
    "gold_steps",
    "gold_agree",
    "gold_first_error",
)
FIRST_ERROR_KEYS = ("solution_id", "domain", "first_error")


# One annotation's numbers that read other rows, in SQL over the grouped row `a` (evaluated
# once per annotation: as ORM subqueries in the grouped statement they were in its GROUP BY,
# run once per label): on a gold solution, queries.gold_accuracy's numbers. Its first wrong
# step's index (queries._first_error) is a MIN in the grouping itself, the labels joined to
# their steps (at 100k the statement's backend CPU 1.44-1.70 s, against 1.72-2.01 s with a
# subquery per annotation).
_GOLD_FIRST_ERROR = (
    "COALESCE((SELECT MIN(s.index) FROM labeling_goldlabel g JOIN labeling_step s"
    f" ON s.id = g.step_id WHERE s.solution_id = a.solution_id AND g.rating = -1), {NO_ERROR})"
)
_GOLD_RATED = (
    "CASE WHEN a.gold THEN (SELECT COUNT(*) FROM labeling_steplabel l JOIN labeling_goldlabel g"
    " ON g.step_id = l.step_id WHERE l.annotation_id = a.id AND l.rating IS NOT NULL"
    " AND g.rating IS NOT NULL{}) ELSE 0 END"
)
_COMPUTED = {
    "annotation_id": "a.id",
    "first_error": "a.first_error",
    "gold_steps": _GOLD_RATED.format(""),
    "gold_agree": _GOLD_RATED.format(" AND l.rating = g.rating"),
    "gold_first_error": f"CASE WHEN a.gold THEN a.first_error = {_GOLD_FIRST_ERROR} ELSE false END",
}


def annotation_parts_sql(project: Project, solution_ids: list[int] | None) -> tuple[str, list]:
    """activity.py's per-annotation rows (each submitted annotation once, its labels counted
    by one join) with its first error and gold accuracy, stored: the solutions' old rows
    deleted, their new ones inserted. Answers the first errors of both, as (sign, solution,
    domain, first error, annotations) rows, bad-problem submissions left out, in solution order
    (what the first-error coincidences add and take away: a rebuild's no old ones)."""
    annotations = submitted_annotations(project)
    if solution_ids is not None:
        annotations = annotations.filter(solution_id__in=solution_ids)
    ratings = {name: Count("labels", filter=Q(labels__rating=v)) for name, v in _RATINGS}
    per_annotation = annotations.annotate(
        day=TruncDate("submitted_at"),
        rated=Count("labels", filter=Q(labels__rating__isnull=False)),
        unrated=Count("labels", filter=Q(labels__rating__isnull=True)),
        unsure=Count("labels", filter=Q(labels__unsure=True)),
        labeled=Count("labels"),
        **ratings,
        bad_problem=ExpressionWrapper(
            Q(finish_reason=FinishReason.BAD_PROBLEM), output_field=BooleanField()
        ),
        domain=F("solution__problem__domain"),
        gold=F("solution__is_gold"),
        first_error=Coalesce(Min("labels__step__index", filter=Q(labels__rating=-1)), NO_ERROR),
    ).values(
        "id",
        "solution_id",
        "annotator_id",
        "external_annotator",
        "submitted_at",
        "time_spent_ms",
        "day",
        "rated",
        "labeled",
        "unrated",
        "unsure",
        *ratings,
        "bad_problem",
        "domain",
        "gold",
        "first_error",
    )
    sql, params = per_annotation.query.sql_with_params()
    listed = ", ".join(ANNOTATION_COLUMNS)
    picked = ", ".join(_COMPUTED.get(c, f"a.{c}") for c in ANNOTATION_COLUMNS)
    grouped = f"({sql}) AS a"
    where, where_params = _scope(project, solution_ids)
    keys = ", ".join(FIRST_ERROR_KEYS)
    returned = f"RETURNING {keys}, bad_problem"
    old = f"SELECT -1 AS sign, {keys} FROM old WHERE NOT bad_problem UNION ALL "
    statement = (
        f"WITH old AS (DELETE FROM labeling_metricsannotationpart WHERE {where} "
        f"{'' if solution_ids is None else returned}), "
        f"new AS (INSERT INTO labeling_metricsannotationpart (project_id, {listed}) "
        f"SELECT %s, {picked} FROM {grouped} {returned}) "
        f"SELECT sign, {keys}, COUNT(*) FROM ({'' if solution_ids is None else old}"
        f"SELECT 1 AS sign, {keys} FROM new WHERE NOT bad_problem) AS d "
        f"GROUP BY sign, {keys} ORDER BY solution_id, sign"
    )
    return statement, [*where_params, project.pk, *params]


SOLUTION_TOTALS = ("solutions", "steps", "people", "complete", "one", "many")


def solution_parts_sql(project: Project, solution_ids: list[int] | None) -> tuple[str, list]:
    """Each solution's steps, submitted annotations (all, people's) and completeness, stored
    (the project's stats and the coverage: selectors.labeling_page.project_stats,
    coverage.annotation_coverage); answers (sign, SOLUTION_TOTALS...) sums of the old rows
    (-1) and the new (+1)."""
    solutions = Solution.objects.filter(project=project).order_by()
    if solution_ids is not None:
        solutions = solutions.filter(pk__in=solution_ids)
    done = ExpressionWrapper(complete_q(project.overlap), output_field=BooleanField())
    ids, ids_params = solutions.values("id").query.sql_with_params()
    rows, rows_params = (
        solutions.annotate(is_complete=done).values("id", "is_complete").query.sql_with_params()
    )
    # Grouped joins, not a subquery per solution: a rebuild counts every step once.
    sql = (
        "SELECT s.id, COALESCE(st.n, 0) AS n_steps, COALESCE(an.n, 0) AS n_annotations,"
        " COALESCE(an.people, 0) AS n_people, s.is_complete"
        f" FROM ({rows}) AS s LEFT JOIN (SELECT st.solution_id, COUNT(*) AS n"
        f" FROM labeling_step st WHERE st.solution_id IN ({ids}) GROUP BY st.solution_id) AS st"
        " ON st.solution_id = s.id LEFT JOIN (SELECT a.solution_id, COUNT(*) AS n,"
        " COUNT(*) FILTER (WHERE NOT a.imported) AS people FROM labeling_annotation a"
        f" WHERE a.status = %s AND a.solution_id IN ({ids}) GROUP BY a.solution_id) AS an"
        " ON an.solution_id = s.id"
    )
    params = [*rows_params, *ids_params, AnnotationStatus.SUBMITTED, *ids_params]
    where, where_params = _scope(project, solution_ids)
    sums = (
        "COUNT(*), SUM(steps)::bigint, SUM(people)::bigint, COUNT(*) FILTER (WHERE complete),"
        " COUNT(*) FILTER (WHERE annotations = 1), COUNT(*) FILTER (WHERE annotations >= 2)"
    )
    columns = "solution_id, steps, annotations, people, complete"
    statement = (
        f"WITH old AS (DELETE FROM labeling_metricssolutionpart WHERE {where}"
        f" RETURNING {columns}), "
        f"new AS (INSERT INTO labeling_metricssolutionpart (project_id, {columns})"
        f" SELECT %s, s.id, s.n_steps, s.n_annotations, s.n_people, s.is_complete FROM ({sql}) AS s"
        f" RETURNING {columns}) "
        f"SELECT -1, {sums} FROM old UNION ALL SELECT 1, {sums} FROM new"
    )
    return statement, [*where_params, project.pk, *params]
