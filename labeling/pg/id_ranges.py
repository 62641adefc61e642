"""Walking a project's solutions in bounded id ranges, each range in its own transaction.

The whole-project recomputations an operator runs (`manage.py review_reasons_refresh`,
`manage.py queue_refresh`) write per solution; one UPDATE of a million rows holds every row's
lock for its whole run and, stopped, leaves nothing done. By ranges, each transaction is short,
progress is reported after each, and a stopped walk resumes after the last id reported.
"""

from collections.abc import Callable
from dataclasses import dataclass, replace

from django.db import connection, transaction


@dataclass
class FillProgress:
    """Where a walk is: solutions done, rows changed, the last id done (resume after it)."""

    solutions: int = 0
    changed: int = 0
    last_id: int = 0


def range_end(project_id: int, after: int, batch: int) -> int | None:
    """The last id of the next range of at most `batch` solutions after `after` (None: no
    more): a walk of the (project, id) index, not a count of the project."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT max(id) FROM (SELECT id FROM labeling_solution "
            "WHERE project_id = %s AND id > %s ORDER BY id LIMIT %s) r",
            [project_id, after, batch],
        )
        return cursor.fetchone()[0]


def walk_ranges(
    *,
    project_id: int,
    one_range: Callable[[int, int], tuple[int, int]],
    batch: int,
    after: int = 0,
    progress: Callable[[FillProgress], None] | None = None,
) -> FillProgress:
    """Call `one_range(lo, hi)` -> (solutions, changed) for consecutive ranges of at most
    `batch` of the project's solutions with ids above `after`, each in a transaction."""
    if batch < 1:
        raise ValueError("batch must be at least 1")
    done = FillProgress(last_id=after)
    while (last := range_end(project_id, done.last_id, batch)) is not None:
        with transaction.atomic():
            n, changed = one_range(done.last_id + 1, last)
        done.solutions += n
        done.changed += changed
        done.last_id = last
        if progress is not None:
            progress(replace(done))  # a copy: callers may keep each one
    return done
