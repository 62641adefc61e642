"""A chunk's writes go in transactions of at most WRITE_BATCH solutions (autolabel/run_chunks.py):
a run with a large chunk_size holds its solutions' row locks no longer than a default chunk, and a
batch that fails is written one solution at a time without touching the other batches."""

import pytest
from django.db import connection

from autolabel import run_chunks
from autolabel.models import ItemStatus
from autolabel.run_chunks import WRITE_BATCH, autolabel_chunk_process
from autolabel.services import autolabel_run_create
from labeling.models import Solution, Suggestion

# PostgreSQL only: a batch's transaction is told by txid_current().
pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _transaction_id() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT txid_current()")
        return cursor.fetchone()[0]


def test_a_large_chunk_writes_in_batches(pb_project, monkeypatch):
    ids = list(
        Solution.objects.filter(project=pb_project).order_by("id").values_list("id", flat=True)
    )
    chunk = ids[: 2 * WRITE_BATCH + 5]
    run = autolabel_run_create(
        project=pb_project, sources=["symbolic"], filter={"solution_ids": chunk},
        params={"chunk_size": len(chunk)},
    )  # fmt: skip
    real = run_chunks.suggestions_write
    calls: list[tuple[int, int]] = []

    def recorded(entries):
        calls.append((len(entries), _transaction_id()))
        if len(calls) == 2:  # the second batch fails as a whole once: one solution at a time
            raise RuntimeError("batch write failed")
        return real(entries)

    monkeypatch.setattr(run_chunks, "suggestions_write", recorded)
    items = autolabel_chunk_process(run=run, solution_ids=chunk)

    written = calls[:1] + calls[2:]
    assert [n for n, _ in calls] == [WRITE_BATCH, WRITE_BATCH] + [1] * WRITE_BATCH + [5]
    assert len({txid for _, txid in written}) == len(written)  # each in its own transaction
    assert len(items) == len(chunk)
    assert {item.status for item in items} == {ItemStatus.DONE}
    assert Suggestion.objects.filter(step__solution_id__in=chunk, source="symbolic").exists()
