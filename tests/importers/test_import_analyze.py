"""An import gives the tables it filled planner statistics at its end (labeling/pg/analyze.py):
without them the export's chunk queries plan as a sequential scan of the whole steps and
step labels tables per chunk until autovacuum gets there."""

import pytest
from django.db import connection, transaction

from labeling.models import Step, StepLabel
from labeling.pg.analyze import analyze_grown
from labeling.services.imports import import_file
from tests.exports.conftest import steplab_file

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _estimated(table: str) -> float:
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE oid = to_regclass(%s)", [table])
        return cursor.fetchone()[0]


def test_an_import_leaves_its_tables_analyzed(project, tmp_path):
    path = steplab_file(tmp_path / "rows.jsonl", 301, problems=37, steps=5)
    import_file(project=project, path=path, labels_as="annotations")
    # ANALYZE of a table this small reads every row: the estimate is the count.
    assert _estimated("labeling_step") == Step.objects.count() == 1505
    assert _estimated("labeling_steplabel") == StepLabel.objects.count() > 1000


def test_only_tables_grown_past_autovacuums_rule_are_analyzed(project, tmp_path):
    import_file(project=project, path=steplab_file(tmp_path / "a.jsonl", 200), labels_as="none")
    assert _estimated("labeling_step") == 800
    # 50 rows + 10% of the 800 it had: 130 rows more are needed.
    assert analyze_grown({Step: 50, StepLabel: 10}) == []
    assert analyze_grown({Step: 129}) == []
    assert analyze_grown({Step: 131, StepLabel: 0}) == ["labeling_step"]
    with transaction.atomic():  # not inside a transaction block: its rows are not committed
        assert analyze_grown({Step: 10_000}) == []


def test_a_table_locked_by_a_running_vacuum_is_skipped_not_waited_for(project, tmp_path):
    """The import has committed: a VACUUM or ANALYZE of the table in another session (which
    holds SHARE UPDATE EXCLUSIVE) must not keep it waiting, nor fail it."""
    import psycopg

    settings = connection.settings_dict
    other = psycopg.connect(
        dbname=settings["NAME"],
        host=settings["HOST"],
        port=settings["PORT"] or 5432,
        user=settings["USER"],
    )
    try:
        other.execute("LOCK TABLE labeling_step IN SHARE UPDATE EXCLUSIVE MODE")
        before = _estimated("labeling_step")  # as earlier tests of this database left it
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '5s'")  # the old ANALYZE waits, then fails
        try:
            path = steplab_file(tmp_path / "rows.jsonl", 40, problems=7, steps=5)
            result = import_file(project=project, path=path, labels_as="none")
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET lock_timeout")
    finally:
        other.rollback()
        other.close()
    assert result.steps_created == Step.objects.count() == 200
    assert _estimated("labeling_step") == before  # skipped: not analyzed (200 if it were)
