"""The exporter reads solutions through one (server-side) cursor, a chunk at a time: never
the whole set."""

import tracemalloc

import pytest
from django.db import connection
from django.db.models import QuerySet

from labeling.exporters import raw
from labeling.services.exports.snapshots import export_build, export_create
from labeling.services.imports import import_file
from tests.exports.conftest import steplab_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def solutions(project, tmp_path):
    def make(n: int, target=None):
        path = steplab_file(tmp_path / f"s{n}.jsonl", n)
        import_file(project=target or project, path=path, fmt="steplab", labels_as="annotations")

    return make


@pytest.mark.parametrize(
    ("filters", "per_chunk", "first"),
    [
        # steps, annotations, labels of each chunk
        ({"label_source": "annotations"}, 3, [16, 4]),
        # the default (final): steps, resolutions (none here: their labels are not read),
        # annotations, labels
        ({}, 4, [16, 0, 4]),
    ],
)
def test_solutions_are_streamed_and_no_query_holds_more_than_a_chunk(
    project, solutions, monkeypatch, filters, per_chunk, first
):
    solutions(25)
    cursors, fetched = [], []
    real_chunked, real_fetch = connection.chunked_cursor, QuerySet._fetch_all
    real_rows = raw.ChunkQuery.rows

    def chunked_cursor():  # the solutions: one cursor, read a chunk at a time
        cursor = real_chunked()
        real_fetchmany = cursor.fetchmany

        def fetchmany(size):
            rows = real_fetchmany(size)
            fetched.append(("solutions cursor", len(rows)))
            return rows

        cursor.fetchmany = fetchmany
        cursors.append(cursor)
        return cursor

    def fetch_all(self):
        real_fetch(self)
        fetched.append((self.model.__name__, len(self._result_cache)))

    def rows(self, ids):  # a chunk's steps, annotations and labels: compiled once, run raw
        result = real_rows(self, ids)
        fetched.append(("chunk query", len(result)))
        return result

    monkeypatch.setattr(connection, "chunked_cursor", chunked_cursor)
    monkeypatch.setattr(QuerySet, "_fetch_all", fetch_all)
    monkeypatch.setattr(raw.ChunkQuery, "rows", rows)
    progress = []
    export = export_create(project=project, created_by=None, format="trl", filters=filters)
    export = export_build(
        export=export, chunk_size=4, progress=lambda d, t: progress.append((d, t))
    )
    assert export.status == "done" and export.row_count == 25
    assert len(cursors) == 1
    assert [n for query, n in fetched if query == "solutions cursor"] == [4] * 6 + [1, 0]
    assert "Solution" not in {model for model, _ in fetched}  # never materialized
    # The small project's split plan reads its problems' keys once (at most split.SMALL + 1).
    # (list() fetches, then iterates the cache: reported twice for one query)
    assert {n for model, n in fetched if model == "Problem"} == {25}
    # a chunk's steps (4 solutions × 4 steps)
    assert max(n for model, n in fetched if model != "Problem") <= 4 * 4
    chunk_queries = [n for query, n in fetched if query == "chunk query"]
    assert len(chunk_queries) == 7 * per_chunk
    assert chunk_queries[: len(first)] == first
    assert progress == [(d, 25) for d in (4, 8, 12, 16, 20, 24, 25)]


@pytest.mark.postgres
def test_postgres_reads_through_a_server_side_cursor(project, solutions, monkeypatch):
    import psycopg

    solutions(6)
    cursors = []
    real = connection.chunked_cursor

    def chunked_cursor():
        cursor = real()
        cursors.append(cursor.cursor)
        return cursor

    monkeypatch.setattr(connection, "chunked_cursor", chunked_cursor)
    export = export_build(
        export=export_create(project=project, created_by=None, format="trl"), chunk_size=2
    )
    assert export.row_count == 6
    assert len(cursors) == 1 and isinstance(cursors[0], psycopg.ServerCursor)


def _peak(project, chunk_size: int) -> int:
    export = export_create(project=project, created_by=None, format="trl")
    tracemalloc.start()
    try:
        export = export_build(export=export, chunk_size=chunk_size)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_peak_memory_does_not_grow_with_the_number_of_solutions(solutions, project, monkeypatch):
    from labeling.exporters import writers
    from labeling.services.exports import writing as exports
    from tests.factories import ProjectFactory

    # The JSONL writer buffers up to BUFFER_BYTES (1 MiB) of lines; keep it below these sizes.
    monkeypatch.setattr(writers, "BUFFER_BYTES", 16 * 1024)
    # The rows stream; a small project's split plan does not: it holds every problem's key
    # (at most SMALL of them). Near-duplicate clusters come with the rows (Problem.near_cluster).
    monkeypatch.setattr(exports, "SMALL", 0)
    small, large = project, ProjectFactory()
    solutions(100, small)
    solutions(800, large)
    peak_small, peak_large = _peak(small, 50), _peak(large, 50)
    # Eight times the solutions: a materializing exporter needs about eight times the memory;
    # a streaming one about the same (measured: ×1.5, from Django's and sqlite3's caches).
    assert peak_large < 3 * peak_small, (peak_small, peak_large)
