"""A solution's steps come out in index order, whatever order the database returns them in
(the chunk's step query has no ORDER BY: chunks.Chunk orders each solution's steps)."""

import pytest
from django.db import connection

from labeling.exporters.chunks import Chunk, ChunkRows
from labeling.models import Solution, Step
from labeling.services.exports.snapshots import export_build, export_create
from labeling.services.imports import import_file
from tests.exports.conftest import read_rows, steplab_file


def _step_row(solution_id: int, step_id: int, index: int) -> tuple:
    # solution_id, id, index, text, via, images, citations, thinking
    return (solution_id, step_id, index, f"s{solution_id} i{index}", None, None, None, False)


def test_a_chunk_orders_each_solutions_steps_by_index():
    rows = ChunkRows(
        steps=[
            _step_row(1, 12, 2),
            _step_row(2, 20, 0),
            _step_row(1, 10, 0),
            _step_row(2, 21, 1),
            _step_row(1, 11, 1),
        ]
    )
    chunk = Chunk(rows, project_id=1)
    assert [(s.id, s.index) for s in chunk.steps[1]] == [(10, 0), (11, 1), (12, 2)]
    assert [(s.id, s.index) for s in chunk.steps[2]] == [(20, 0), (21, 1)]


@pytest.mark.django_db
def test_steps_stored_out_of_index_order_export_in_index_order(project, tmp_path):
    path = steplab_file(tmp_path / "s.jsonl", 3, steps=4)
    import_file(project=project, path=path, fmt="steplab", labels_as="annotations")
    solution = Solution.objects.filter(project=project).order_by("pk").first()  # all +1
    steps = list(Step.objects.filter(solution=solution).order_by("index"))
    # Reverse the indexes in place: the rows' physical (and id) order is now the reverse of
    # their index order, as after a resegmentation that renumbered them.
    with connection.cursor() as cursor:
        for step in steps:
            cursor.execute(
                "UPDATE labeling_step SET index = %s WHERE id = %s", [100 + step.index, step.pk]
            )
        for step in steps:
            cursor.execute(
                "UPDATE labeling_step SET index = %s WHERE id = %s",
                [len(steps) - 1 - step.index, step.pk],
            )
    export = export_build(
        export=export_create(
            project=project, created_by=None, format="trl", filters={"label_source": "imported"}
        )
    )
    assert export.status == "done", export.error
    by_prompt = {row["prompt"]: row for row in read_rows(export)}
    row = by_prompt[solution.problem.text]
    assert row["completions"] == [s.text for s in reversed(steps)]
    assert row["labels"] == [True] * 4
