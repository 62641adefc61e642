"""The partial aggregates behind a metrics refresh: the rater-pair confusions, the
step-rating profiles and the agreement with machine sources kept per solution
(labeling.models.metrics_parts), their totals in the snapshot (`MetricsSnapshot.partials`, with
the first-error coincidences' and the solutions' counts: the stats and the coverage), and each
submitted annotation's row (its counted labels, first
error, domain, gold agreement: throughput, the label distribution and gold accuracy group those
rows instead of joining every label), brought up to date by recomputing only the solutions
whose labels or suggestions changed since the last refresh. What each refresh still computes
in full reads a compact table or an index (ARCHITECTURE.md "Metrics", docs/benchmarks.md,
issue 26).

Which solutions changed: every metrics-version bump that changed some solutions' labels,
annotations, suggestions or gold logs them (`MetricsChange`, in the bump's transaction;
metrics_version.py), and one that changed nothing the parts read logs a row without a
solution. The log and the version are read in one statement (one snapshot of the database):
when the version moved since the snapshot by as many bumps as there are log rows, every change
is a logged one, and the logged solutions' parts are deleted and computed again, the totals
moved by the difference; otherwise (a project setting, the Django admin: bumps that say nothing
of where), or with no totals yet, or totals at another version than the snapshot's (a snapshot
stored by code without them) or of fewer parts (`PARTS`), or the rating scale changed, or the
last full build older than METRICS_PARTS_REBUILD_SECONDS, or more than
METRICS_PARTS_MAX_SOLUTIONS solutions changed (a project nobody looked at for long), every part
is rebuilt. The log rows read are deleted with the
update; rows committed after that read are the next refresh's.

The answer is the same numbers as a full pass: the totals are integer counts summed exactly,
and the profiles are handed to the statistics in sorted order either way (queries.py
`profile_table`). A write committed after the version was read may already be in the parts it
touched: its log row stays, and the next refresh computes those solutions again.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from labeling.metrics.activity import activity_from_parts
from labeling.metrics.agreement import CoincidenceAccumulator
from labeling.metrics.parts import (
    SOLUTION_TOTALS,
    annotation_parts_sql,
    pair_parts_sql,
    profile_parts_sql,
    solution_parts_sql,
    source_parts_sql,
)
from labeling.metrics.queries import (
    Confusions,
    ProfileTable,
    confusions_from_rows,
    gold_accuracy_from_parts,
    profile_table,
    source_agreement_from_rows,
)
from labeling.models import MetricsSnapshot, Project
from labeling.services.projects.metrics_version import parts_limit

_READ = (
    "SELECT (SELECT COALESCE(SUM(bumps), 0) FROM labeling_metricsversion WHERE project_id = %s),"
    " ARRAY(SELECT id FROM labeling_metricschange WHERE project_id = %s),"
    " ARRAY(SELECT DISTINCT solution_id FROM labeling_metricschange"
    " WHERE project_id = %s AND solution_id IS NOT NULL)"
)


REBUILD_WORK_MEM = "64MB"
# What the stored parts hold; totals stored by code whose parts held less are rebuilt. 2: first
# errors, machine sources and gold accuracy, the solutions' stats and coverage (labeling 0047).
PARTS = 2
_STORED = ("pairs", "profiles", "sources", "first_errors", "solutions")  # what a refresh loads


@dataclass
class PartsTotals:
    """The totals of a project's parts: per pair key (rater a's id and imported name, b's,
    a's rating, b's rating) and per (problem domain, profile), how many."""

    project: Project
    pairs: dict[tuple, int] = field(default_factory=dict)
    profile_counts: dict[tuple, int] = field(default_factory=dict)
    sources: dict[tuple, int] = field(default_factory=dict)
    # SOLUTION_TOTALS: solutions, steps, people's submitted annotations, complete solutions,
    # solutions with one submitted annotation, with two or more.
    solutions: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SOLUTION_TOTALS, 0))
    errors: dict[str, CoincidenceAccumulator] = field(default_factory=dict)  # per domain

    def confusions(self) -> Confusions:
        return confusions_from_rows(self.project, [(*k, n) for k, n in self.pairs.items()])

    def profiles(self, domain: str | None) -> ProfileTable:
        counts: dict[str, int] = defaultdict(int)
        for (of_domain, profile), n in self.profile_counts.items():
            if domain is None or (of_domain or self.project.blank_domain) == domain:
                counts[profile] += n
        rows = [(*map(int, profile.split(",")), n) for profile, n in counts.items()]
        return profile_table(rows, len(self.project.rating_values))

    def activity(self) -> dict:
        return activity_from_parts(self.project)

    def coverage(self) -> dict:
        """coverage.annotation_coverage's answer."""
        total, one, many = (self.solutions[k] for k in ("solutions", "one", "many"))
        return {"solutions": total, "none": total - one - many, "one": one, "two_plus": many}

    def stats(self) -> dict[str, int]:
        """selectors.labeling_page.project_stats' answer (its problems counted now)."""
        return {
            "problems": self.project.problems.count(),
            "solutions": self.solutions["solutions"],
            "steps": self.solutions["steps"],
            "submitted_annotations": self.solutions["people"],
            "complete_solutions": self.solutions["complete"],
        }

    def add_solutions(self, rows: list[tuple], *, full: bool) -> None:
        """solution_parts_sql's (sign, SOLUTION_TOTALS...) rows (a rebuild: the new only)."""
        for sign, *sums in rows:
            if full and sign < 0:
                continue
            for key, n in zip(SOLUTION_TOTALS, sums, strict=True):
                self.solutions[key] += sign * int(n or 0)

    def gold(self) -> list[dict]:
        return gold_accuracy_from_parts(self.project)

    def source_agreement(self) -> list[dict]:
        return source_agreement_from_rows(
            self.project, [(*k, n) for k, n in sorted(self.sources.items(), key=str)]
        )

    def first_errors(self, domain: str | None) -> CoincidenceAccumulator:
        every = CoincidenceAccumulator()
        for of_domain in sorted(self.errors):  # a blank one is the project's default
            if domain is None or (of_domain or self.project.blank_domain) == domain:
                every.merge(self.errors[of_domain])
        return every

    def add_first_errors(self, rows: list[tuple]) -> None:
        """annotation_parts_sql's (sign, solution, domain, first error, n) rows, in solution
        order: each solution's old counts taken away, its new ones added."""
        unit: tuple | None = None
        counts: dict[int, int] = {}
        for sign, solution_id, domain, first_error, n in [*rows, (0, None, "", 0, 0)]:
            if unit != (sign, solution_id, domain):
                if counts:
                    acc = self.errors.setdefault(unit[2], CoincidenceAccumulator())
                    acc.add(counts, unit[0])
                unit, counts = (sign, solution_id, domain), {}
            counts[first_error] = n

    def _stored_errors(self) -> dict:
        units, coincidences = [], []
        for domain, acc in sorted(self.errors.items()):
            units += [[domain, m, n] for m, n in sorted(acc.units_by_raters.items())]
            coincidences += [[domain, *key, n] for key, n in sorted(acc.numerators.items())]
        return {"units": units, "coincidences": coincidences}

    def _load_errors(self, stored: dict) -> None:
        def of(domain: str) -> CoincidenceAccumulator:
            return self.errors.setdefault(domain, CoincidenceAccumulator())

        for domain, m, n in stored["units"]:
            of(domain).units_by_raters[m] = n
        for domain, c, k, m, n in stored["coincidences"]:
            of(domain).numerators[(c, k, m)] = n

    def stored(self, built_at: datetime, version: int) -> dict:
        return {
            "version": version,
            "rating_values": list(self.project.rating_values),
            "built_at": built_at.isoformat(),
            "pairs": [[*k, n] for k, n in self.pairs.items()],
            "profiles": [[*k, n] for k, n in self.profile_counts.items()],
            "sources": [[*k, n] for k, n in self.sources.items()],
            "solutions": self.solutions,
            "parts": PARTS,
            "first_errors": self._stored_errors(),
        }


@dataclass(frozen=True)
class PartsUpdate:
    version: int  # the project's metrics version the parts are at (read before them)
    totals: PartsTotals
    stored: dict  # for MetricsSnapshot.partials
    solutions: int | None  # solutions recomputed; None: a full rebuild


def _rebuild_after() -> timedelta:
    return timedelta(seconds=getattr(settings, "METRICS_PARTS_REBUILD_SECONDS", 24 * 3600))


def _incremental(
    project: Project, snapshot: MetricsSnapshot | None, version: int, logged: int
) -> bool:
    stored = snapshot.partials if snapshot is not None else None
    # The parts' own version too: a snapshot stored by code that kept no parts (an older
    # worker during a deploy) moves labels_version without them.
    if not stored or snapshot.labels_version is None:
        return False
    if stored.get("version") != snapshot.labels_version or stored.get("parts") != PARTS:
        return False
    if any(key not in stored for key in _STORED):
        return False
    if stored.get("rating_values") != list(project.rating_values):
        return False
    built_at = datetime.fromisoformat(stored["built_at"])
    return version - snapshot.labels_version == logged and built_at > timezone.now() - (
        _rebuild_after()
    )


def _add(totals: dict[tuple, int], rows: list[tuple], *, full: bool) -> None:
    for sign, *key, n in rows:
        if full and sign < 0:
            continue  # a rebuild starts from nothing: the old rows are only deleted
        k = tuple(key)
        total = totals.get(k, 0) + sign * n
        if total:
            totals[k] = total
        else:
            totals.pop(k, None)


def metrics_parts_update(*, project: Project, snapshot: MetricsSnapshot | None) -> PartsUpdate:
    """Bring the project's parts and their totals up to date (PostgreSQL). The caller holds a
    transaction and the project's refresh lock (two refreshes would move the totals twice),
    and stores `stored` and `version` in the snapshot in that transaction."""
    with connection.cursor() as cursor:
        cursor.execute(_READ, [project.pk] * 3)
        version, change_ids, solution_ids = cursor.fetchone()
        version = int(version)
        full = not _incremental(project, snapshot, version, len(change_ids))
        full = full or len(solution_ids) > parts_limit()
        totals = PartsTotals(project)
        if full:
            built_at = timezone.now()
        else:
            stored = snapshot.partials
            totals.pairs = {tuple(r[:-1]): r[-1] for r in stored["pairs"]}
            totals.profile_counts = {tuple(r[:-1]): r[-1] for r in stored["profiles"]}
            totals.sources = {tuple(r[:-1]): r[-1] for r in stored["sources"]}
            totals.solutions = dict(stored["solutions"])
            totals._load_errors(stored["first_errors"])
            built_at = datetime.fromisoformat(stored["built_at"])
        scope = None if full else sorted(solution_ids)
        if full:  # a rebuild groups every label: in memory rather than spilled to disk
            cursor.execute(f"SET LOCAL work_mem = '{REBUILD_WORK_MEM}'")
        if scope is None or scope:
            for statement, into in (
                (pair_parts_sql, totals.pairs),
                (profile_parts_sql, totals.profile_counts),
                (source_parts_sql, totals.sources),
            ):
                cursor.execute(*statement(project, scope))
                _add(into, cursor.fetchall(), full=full)
            cursor.execute(*annotation_parts_sql(project, scope))
            totals.add_first_errors(cursor.fetchall())
            cursor.execute(*solution_parts_sql(project, scope))
            totals.add_solutions(cursor.fetchall(), full=full)
        if full:
            cursor.execute("SET LOCAL work_mem TO DEFAULT")
        if change_ids:
            cursor.execute("DELETE FROM labeling_metricschange WHERE id = ANY(%s)", [change_ids])
    return PartsUpdate(
        version=version,
        totals=totals,
        stored=totals.stored(built_at, version),
        solutions=None if full else len(scope),
    )


def metrics_changes_prune() -> int:
    """Forget the change log of projects that logged more than METRICS_PARTS_MAX_SOLUTIONS
    bumps since their last refresh (a project nobody views logs one row per submit): their next
    refresh would rebuild anyway, and with the log gone its count no longer matches the
    version's bumps, so it does. Returns the rows deleted."""
    with connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM labeling_metricschange WHERE project_id IN (SELECT project_id FROM"
            " labeling_metricschange GROUP BY project_id HAVING COUNT(*) > %s)",
            [parts_limit()],
        )
        return cursor.rowcount
