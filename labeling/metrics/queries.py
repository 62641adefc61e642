"""Project metrics aggregated by the database; Python sees only small count tables.

Step ratings are summarised per step as a value-count profile, and identical profiles are
grouped in SQL, so agreement over a million steps costs a few dozen rows. Rater pairs come
from a self-join grouped into confusion counts. Raters are people (username) or, for
imported dataset labels, the dataset's labeler (`external_annotator`).
"""

from collections import defaultdict

import numpy as np
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import (
    Count,
    F,
    OuterRef,
    Q,
    Subquery,
)
from django.db.models.functions import Coalesce

from labeling.metrics.agreement import (
    CoincidenceAccumulator,
    cohen_kappa,
    expand_profiles,
    fleiss_kappa,
    krippendorff_alpha,
    pairwise_agreement,
)
from labeling.models import (
    FinishReason,
    GoldLabel,
    Project,
    StepLabel,
)

from .activity import activity
from .selection import NO_ERROR, _rater, submitted_annotations, submitted_labels


def _first_error() -> Coalesce:
    return Coalesce(
        Subquery(
            StepLabel.objects.filter(annotation_id=OuterRef("pk"), rating=-1)
            .order_by("step__index")
            .values("step__index")[:1]
        ),
        NO_ERROR,
    )


def _gold_first_error() -> Coalesce:
    return Coalesce(
        Subquery(
            GoldLabel.objects.filter(step__solution_id=OuterRef("solution_id"), rating=-1)
            .order_by("step__index")
            .values("step__index")[:1]
        ),
        NO_ERROR,
    )


ProfileTable = tuple[np.ndarray, np.ndarray]


def profile_table(rows: list[tuple], width: int) -> ProfileTable:
    """(profiles, weights) from (count of each rating value..., steps) rows, in sorted order:
    the statistics sum in row order, so the same rows give the same floats whichever way
    they were read (a full pass here, or the partial aggregates' totals)."""
    if not rows:
        return np.zeros((0, width)), np.zeros(0)
    table = np.array(sorted(rows), dtype=float)
    return table[:, :-1], table[:, -1]


def step_rating_profiles(project: Project, domain: str | None = None) -> ProfileTable:
    """Distinct per-step value-count profiles (columns: project.rating_values) among steps
    with ≥ 2 ratings, and how many steps have each. Two GROUP BYs in one statement."""
    values = project.rating_values
    cols = [f"c{i}" for i in range(len(values))]
    per_step = (
        submitted_labels(project, domain)
        .values("step_id")
        .annotate(
            **{col: Count("id", filter=Q(rating=v)) for col, v in zip(cols, values, strict=True)},
            m=Count("id"),
        )
        .filter(m__gte=2)
        .values(*cols)
    )
    sql, params = per_step.query.sql_with_params()
    listed = ", ".join(cols)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {listed}, COUNT(*) FROM ({sql}) AS per_step GROUP BY {listed}", params
        )
        rows = cursor.fetchall()
    return profile_table(rows, len(values))


def step_rating_agreement(
    project: Project, domain: str | None = None, table: ProfileTable | None = None
) -> dict:
    """Krippendorff's alpha (ordinal), Fleiss' kappa and pairwise agreement on step ratings
    (of one problem domain's solutions when `domain` is given); `table`: step_rating_profiles'
    answer when the caller has it (the partial aggregates')."""
    profiles, weights = step_rating_profiles(project, domain) if table is None else table
    units = expand_profiles(profiles, weights)
    m = profiles.sum(axis=1) if len(profiles) else np.zeros(0)
    fleiss = None
    fleiss_raters = fleiss_units = 0
    if len(profiles):
        per_raters = {int(r): float(weights[m == r].sum()) for r in np.unique(m)}
        fleiss_raters = max(per_raters, key=lambda r: (per_raters[r], r))
        keep = m == fleiss_raters
        fleiss_units = int(weights[keep].sum())
        fleiss = fleiss_kappa(profiles[keep], weights[keep])
    return {
        "steps": int(weights.sum()),
        "alpha_ordinal": krippendorff_alpha(
            units, level="ordinal", value_domain=project.rating_values
        ),
        "fleiss_kappa": fleiss,
        "fleiss_raters": fleiss_raters,
        "fleiss_steps": fleiss_units,
        "pairwise_agreement": pairwise_agreement(units) if len(units) else None,
    }


def _rater_names(user_ids: set[int]) -> dict[int, str]:
    users = get_user_model().objects.filter(pk__in=user_ids)
    return dict(users.values_list("pk", "username"))


def rater_pair_confusions(project: Project) -> dict[tuple[str, str], np.ndarray]:
    """Per pair of raters (a < b), counts of (a's rating, b's rating) on the steps both rated.

    The project's submitted rated labels joined to themselves on step (hash joins), grouped
    by both annotations' raters and ratings; rater ids become names afterwards (no user table
    in the join). The ORM's `step__labels__` self-join went through the steps besides.
    """
    labels = submitted_labels(project).values(
        "step_id",
        "annotation_id",
        "rating",
        rater_id=F("annotation__annotator_id"),
        rater_ext=F("annotation__external_annotator"),
    )
    sql, params = labels.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT a.rater_id, a.rater_ext, b.rater_id, b.rater_ext, a.rating, b.rating, "
            f"COUNT(*) FROM ({sql}) AS a JOIN ({sql}) AS b "
            "ON b.step_id = a.step_id AND b.annotation_id > a.annotation_id "
            "GROUP BY a.rater_id, a.rater_ext, b.rater_id, b.rater_ext, a.rating, b.rating",
            (*params, *params),
        )
        rows = cursor.fetchall()
    return confusions_from_rows(project, rows)


def confusions_from_rows(project: Project, rows: list[tuple]) -> dict[tuple[str, str], np.ndarray]:
    """rater_pair_confusions' answer from its count rows (rater a's id and imported name, b's,
    a's rating, b's rating, count): the raters named, a pair's two orders merged."""
    values = list(project.rating_values)
    names = _rater_names({r[0] for r in rows if r[0]} | {r[2] for r in rows if r[2]})
    out: dict[tuple[str, str], np.ndarray] = defaultdict(
        lambda: np.zeros((len(values), len(values)))
    )
    for id_a, ext_a, id_b, ext_b, rating_a, rating_b, n in rows:
        a = names[id_a] if id_a else ext_a
        b = names[id_b] if id_b else ext_b
        if a == b:
            continue  # one rater's two annotations (imported duplicates) are not a pair
        if a > b:
            a, b, rating_a, rating_b = b, a, rating_b, rating_a
        out[(a, b)][values.index(rating_a), values.index(rating_b)] += n
    return dict(out)


Confusions = dict[tuple[str, str], np.ndarray]


def rater_pairs(project: Project, confusions: Confusions | None = None) -> list[dict]:
    """Agreement and Cohen's kappa per rater pair; `confusions`: rater_pair_confusions'
    answer when the caller has it (the dashboard reads it once for pairs and annotators)."""
    if confusions is None:
        confusions = rater_pair_confusions(project)
    pairs = []
    for (a, b), matrix in sorted(confusions.items()):
        n = int(matrix.sum())
        pairs.append(
            {
                "a": a,
                "b": b,
                "steps": n,
                "agreement": float(np.trace(matrix) / n) if n else None,
                "cohen_kappa": cohen_kappa(matrix),
            }
        )
    return pairs


def first_error_table(project: Project, domain: str | None = None) -> CoincidenceAccumulator:
    """Each annotation's first wrong step (none = its own category) as Krippendorff's
    coincidences, over solutions with ≥ 2 submitted annotations; bad-problem submissions left
    out.

    SQL returns (solution, first error, count) rows in solution order; they are folded into a
    coincidence matrix one solution at a time (streamed, constant memory).
    """
    rows = (
        submitted_annotations(project, domain)
        .exclude(finish_reason=FinishReason.BAD_PROBLEM)
        .annotate(fe=_first_error())
        .values_list("solution_id", "fe")
        .annotate(n=Count("id"))
        .order_by("solution_id")
    )
    acc = CoincidenceAccumulator()
    current, counts = None, {}
    for solution_id, fe, n in rows.iterator(chunk_size=5000):
        if solution_id != current:
            acc.add(counts)
            current, counts = solution_id, {}
        counts[fe] = n
    acc.add(counts)
    return acc


def first_error_agreement(
    project: Project, domain: str | None = None, table: CoincidenceAccumulator | None = None
) -> dict:
    """Agreement on each annotation's first wrong step (first_error_table's coincidences, or
    `table` when the caller has them: the partial aggregates')."""
    acc = first_error_table(project, domain) if table is None else table
    return {
        "solutions": acc.units,
        "alpha_nominal": acc.nominal_alpha(),
        "pairwise_agreement": acc.pairwise_agreement(),
    }


def gold_accuracy(project: Project) -> list[dict]:
    """Per rater, on gold solutions: rated steps matching the gold rating, and first errors."""
    steps = (
        submitted_labels(project)
        .filter(step__solution__is_gold=True, step__gold__rating__isnull=False)
        .annotate(rater=_rater("annotation__"))
        .values("rater")
        .annotate(n=Count("id"), agree=Count("id", filter=Q(rating=F("step__gold__rating"))))
    )
    solutions = (
        submitted_annotations(project)
        .filter(solution__is_gold=True)
        .annotate(rater=_rater(), fe=_first_error(), gold_fe=_gold_first_error())
        .values("rater")
        .annotate(n=Count("id"), agree=Count("id", filter=Q(fe=F("gold_fe"))))
    )
    return _gold_out(
        [(r["rater"], r["n"], r["agree"]) for r in steps],
        [(r["rater"], r["n"], r["agree"]) for r in solutions],
    )


def gold_accuracy_from_parts(project: Project) -> list[dict]:
    """gold_accuracy from the stored per-annotation rows of gold solutions
    (MetricsAnnotationPart, kept by services/projects/metrics_parts.py; a partial index holds
    them): one statement over the gold solutions' annotations, not the project's labels."""
    users = get_user_model()._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT COALESCE(u.username, p.external_annotator), SUM(p.gold_steps)::bigint,"
            " SUM(p.gold_agree)::bigint, COUNT(*), COUNT(*) FILTER (WHERE p.gold_first_error)"
            f" FROM labeling_metricsannotationpart p LEFT JOIN {users} u ON u.id = p.annotator_id"
            " WHERE p.project_id = %s AND p.gold GROUP BY 1",
            [project.pk],
        )
        rows = cursor.fetchall()
    steps = [(rater, n, agree) for rater, n, agree, _, _ in rows if n]
    return _gold_out(steps, [(rater, n, agree) for rater, _, _, n, agree in rows])


def _gold_out(steps: list[tuple], solutions: list[tuple]) -> list[dict]:
    """From (rater, n, agreeing) rows: of rated steps with a gold rating, of annotations."""
    out: dict[str, dict] = defaultdict(
        lambda: {"steps": 0, "step_accuracy": None, "solutions": 0, "first_error_accuracy": None}
    )
    for rater, n, agree in steps:
        out[rater].update(steps=n, step_accuracy=agree / n)
    for rater, n, agree in solutions:
        out[rater].update(solutions=n, first_error_accuracy=agree / n)
    return [{"annotator": rater, **values} for rater, values in sorted(out.items())]


def auto_source_agreement(project: Project) -> list[dict]:
    """Per rater and machine source: agreement and Cohen's kappa with the source's values
    on the steps both rated (every agent of a source counts)."""
    values = list(project.rating_values)
    rows = (
        submitted_labels(project)
        .filter(step__suggestions__value__in=values)
        .annotate(rater=_rater("annotation__"))
        .values("rater", "step__suggestions__source", "rating", "step__suggestions__value")
        .annotate(n=Count("id"))
        .values_list(
            "rater", "step__suggestions__source", "rating", "step__suggestions__value", "n"
        )
    )
    return _source_agreement(project, list(rows))


def source_agreement_from_rows(project: Project, rows: list[tuple]) -> list[dict]:
    """auto_source_agreement's answer from count rows by rater id (the rater's id and imported
    name, the source, the rater's rating, the source's value, count): the raters named."""
    names = _rater_names({r[0] for r in rows if r[0]}) if any(r[0] for r in rows) else {}
    named = [(names[r[0]] if r[0] else r[1], *r[2:]) for r in rows]
    return _source_agreement(project, named)


def _source_agreement(project: Project, rows: list[tuple]) -> list[dict]:
    """From (rater, source, the rater's rating, the source's value, count) rows."""
    values = list(project.rating_values)
    matrices: dict[tuple[str, str], np.ndarray] = defaultdict(
        lambda: np.zeros((len(values), len(values)))
    )
    for rater, source, rating, value, n in rows:
        matrices[(rater, source)][values.index(rating), values.index(value)] += n
    out = []
    for (rater, source), matrix in sorted(matrices.items()):
        n = int(matrix.sum())
        out.append(
            {
                "annotator": rater,
                "source": source,
                "steps": n,
                "agreement": float(np.trace(matrix) / n),
                "cohen_kappa": cohen_kappa(matrix),
            }
        )
    return out


def project_metrics(
    project: Project,
    confusions: Confusions | None = None,
    table: ProfileTable | None = None,
    done: dict | None = None,
    first_errors: CoincidenceAccumulator | None = None,
    sources: list[dict] | None = None,
    gold: list[dict] | None = None,
) -> dict:
    """Everything the metrics endpoint and dashboard show for one project (`confusions`:
    rater_pair_confusions' answer, `table`: step_rating_profiles', `done`: activity's,
    `first_errors`: first_error_table's, `sources`: auto_source_agreement's, `gold`:
    gold_accuracy's, when the caller has them)."""
    return {
        "step_ratings": step_rating_agreement(project, table=table),
        "pairs": rater_pairs(project, confusions),
        "first_error": first_error_agreement(project, table=first_errors),
        "gold": gold_accuracy(project) if gold is None else gold,
        "auto_sources": auto_source_agreement(project) if sources is None else sources,
        **(activity(project) if done is None else done),  # throughput, label_distribution
    }
