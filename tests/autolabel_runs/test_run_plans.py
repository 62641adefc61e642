"""A run beside a big finished one plans its chunks' statements on the indexes that find each
row, not as a walk of the run's (or the project's) rows: the run's items, and the suggestions
it writes, are rows no ANALYZE has seen (autovacuum lags by a minute or more, or is off), so
the statistics know the old run's items and suggestions and none of the new run's. The same
audit as tests/importers/test_lookup_plans.py (an import's lookups) for an auto-label run:
its start (items written, chunks dispatched), every chunk (items claimed, solutions and
steps read, suggestions upserted, withdrawn verdicts deleted, review reasons refreshed, items
marked, counters added, the next chunk taken, "any pending left?") and a chunk given up
(its items failed); every statement is EXPLAINed with its own parameters and fails on a
node that reads a big table by the run or the project alone with a filter after, or all of
it."""

import pytest
from django.db import connection

from autolabel.models import AutolabelItem, AutolabelRun
from autolabel.registry import ENGINES
from autolabel.run_chunks import autolabel_chunk_process
from autolabel.run_dispatch import run_dispatch_next
from autolabel.run_progress import run_finish_if_complete
from autolabel.services import (
    autolabel_item_fail,
    autolabel_run_chunks,
    autolabel_run_create,
    autolabel_run_start,
)
from labeling.models import Annotation, Solution, Step, Suggestion
from labeling.services.imports.pipeline import import_file
from tests.autolabel_runs.test_chunk_process import Scripted
from tests.factories import ProjectFactory
from tests.plan_audit import labeled_file, multiply, walks_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

BIG = 200  # copies of the old run's solutions (with their steps, suggestions and items)
KEYS = ("run_id", "project_id")
BIG_TABLES = {m._meta.db_table for m in (AutolabelItem, Suggestion, Solution, Step)}


def _columns(model, *skip: str) -> list[str]:
    return [f.column for f in model._meta.concrete_fields if f.column not in ("id", *skip)]


def _grow(project_id: int, run: AutolabelRun, *, many_runs: bool) -> None:
    """The project's solutions copied BIG times, each copy with the steps and an annotation
    (no labels) of one solution, each step with the suggestions of one step, and an item of
    `run` for every solution; with `many_runs`, each copy's item of a run of its own (a copy
    of `run`): the statistics then give a run one or two items."""
    multiply(Solution, BIG)
    step, suggestion = Step._meta.db_table, Suggestion._meta.db_table
    solution = Solution._meta.db_table
    first_step = Step.objects.filter(solution__project_id=project_id).order_by("pk").first()
    steps, suggestions = _columns(Step, "solution_id"), _columns(Suggestion, "step_id")
    annotation, annotations = Annotation._meta.db_table, _columns(Annotation, "solution_id")
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {annotation} (solution_id, {', '.join(annotations)})"
            f" SELECT s.id, {', '.join('t.' + c for c in annotations)} FROM {solution} s"
            f" JOIN {annotation} t ON t.id = %s WHERE s.project_id = %s"
            f" AND NOT EXISTS (SELECT 1 FROM {annotation} x WHERE x.solution_id = s.id)",
            [Annotation.objects.filter(solution__project_id=project_id).first().pk, project_id],
        )
        cursor.execute(
            f"INSERT INTO {step} (solution_id, {', '.join(steps)})"
            f" SELECT s.id, {', '.join('t.' + c for c in steps)} FROM {solution} s"
            f" JOIN {step} t ON t.solution_id = %s WHERE s.project_id = %s"
            f" AND NOT EXISTS (SELECT 1 FROM {step} x WHERE x.solution_id = s.id)",
            [first_step.solution_id, project_id],
        )
        cursor.execute(
            f"INSERT INTO {suggestion} (step_id, {', '.join(suggestions)})"
            f" SELECT st.id, {', '.join('t.' + c for c in suggestions)} FROM {step} st"
            f" JOIN {solution} s ON s.id = st.solution_id JOIN {suggestion} t ON t.step_id = %s"
            f" WHERE s.project_id = %s"
            f" AND NOT EXISTS (SELECT 1 FROM {suggestion} x WHERE x.step_id = st.id)",
            [first_step.pk, project_id],
        )
        items = f"INSERT INTO {AutolabelItem._meta.db_table} (run_id, solution_id, status,"
        items += " attempts, suggestions, error, updated_at)"
        copies = f"SELECT s.id FROM {solution} s WHERE s.project_id = %s AND NOT EXISTS"
        copies += f" (SELECT 1 FROM {AutolabelItem._meta.db_table} x WHERE x.solution_id = s.id)"
        if not many_runs:
            cursor.execute(
                f"{items} SELECT %s, c.id, 'done', 1, 2, '', now() FROM ({copies}) c",
                [run.pk, project_id],
            )
            return
        runs = ", ".join(_columns(AutolabelRun))
        cursor.execute(
            f"WITH c AS (SELECT id, row_number() OVER (ORDER BY id) k FROM ({copies}) c),"
            f" r AS (INSERT INTO {AutolabelRun._meta.db_table} ({runs}) SELECT {runs}"
            f" FROM {AutolabelRun._meta.db_table} t, generate_series(1, (SELECT count(*) FROM c))"
            " WHERE t.id = %s RETURNING id)"
            f" {items} SELECT r.id, c.id, 'done', 1, 2, '', now() FROM c"
            " JOIN (SELECT id, row_number() OVER (ORDER BY id) k FROM r) r ON r.k = c.k",
            [project_id, run.pk],
        )


def _gold(node: dict) -> bool:
    """The review reasons' gold reason reads the gold solutions (few: one row estimated) from
    the solutions, whose statistics ANALYZE has (a plan of a table of 12k rows, not of the
    rows a run writes: the same on an analyzed run): not looked at."""
    return node.get("Filter") == "is_gold"


def _analyze() -> None:
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def _statements_of_a_run(project, *, prepare_later: bool) -> list[tuple[str, object]]:
    statements: list[tuple[str, object]] = []

    def capture(execute, sql, params, many, context):
        verb = sql.lstrip().split(None, 1)[0].upper()
        if verb in ("SELECT", "INSERT", "UPDATE", "DELETE", "WITH") and not many:
            statements.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(capture):
        run = autolabel_run_create(
            project=project, sources=["symbolic"], prepare_later=prepare_later
        )
        chunks: list[list[int]] = []
        autolabel_run_start(run=run, size=20, send=chunks.extend)
        while chunks:
            chunk = chunks.pop(0)
            if len(chunks) == 1:  # a chunk whose task ran out of retries: its items fail
                autolabel_item_fail(run=run, solution_ids=chunk, error="out of retries")
            else:
                autolabel_chunk_process(run=run, solution_ids=chunk)
            run_finish_if_complete(run=run)
            chunks += [c for c in [run_dispatch_next(run=run, size=20)] if c]
    run.refresh_from_db()
    assert run.status == "done" and run.failed == 20
    assert run.done + run.failed == run.total == project.solutions.count()
    return statements


@pytest.mark.parametrize(
    ("prepare_later", "analyzed", "many_runs"),
    [
        pytest.param(False, True, False, id="cli-project-analyzed-one-old-run"),
        pytest.param(False, False, True, id="cli-project-new-many-old-runs"),
        pytest.param(True, True, True, id="api-project-analyzed-many-old-runs"),
        pytest.param(True, False, False, id="api-project-new-one-old-run"),
    ],
)
def test_a_run_beside_big_old_runs_finds_its_rows_by_their_keys(
    tmp_path, monkeypatch, settings, prepare_later, analyzed, many_runs
):
    settings.AUTOLABEL_PREPARE_BATCH = 50  # an API run's start writes its items in batches
    monkeypatch.setitem(ENGINES, "symbolic", Scripted())
    old = ProjectFactory()
    import_file(project=old, path=labeled_file(tmp_path, 60, "old"), labels_as="annotations")
    old_run = autolabel_run_create(project=old, sources=["symbolic"])
    for chunk in autolabel_run_chunks(run=old_run, size=20):
        autolabel_chunk_process(run=old_run, solution_ids=chunk)
    _grow(old.pk, old_run, many_runs=many_runs)
    new = ProjectFactory()
    # The old run's rows analyzed, and with `analyzed` the new project's (imported earlier);
    # the new run's items and suggestions are rows no ANALYZE has seen.
    if not analyzed:
        _analyze()
    import_file(project=new, path=labeled_file(tmp_path, 240, "new"), labels_as="annotations")
    if analyzed:
        _analyze()
    statements = _statements_of_a_run(new, prepare_later=prepare_later)
    assert any("FOR UPDATE" in sql for sql, _ in statements)
    walks = walks_of(statements, BIG_TABLES, KEYS, excused=_gold)
    assert not walks, "\n".join(walks)
