"""Two metrics refreshes of one project at once (the worker's task and a dashboard's live
computation): the refresh lock makes the second wait, so the changed solutions' parts are
replaced once, not inserted twice, and the totals stay a full computation's."""

import random
import threading

import pytest
from django.db import connections
from django.db.models import Count

from labeling.models import LabelScale, MetricsPairPart, Project
from labeling.services.projects.metrics import STATS_KEY, metrics_refresh
from tests.metrics.test_metrics_parts import Run, _fresh
from tests.metrics.test_metrics_statements import _same

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_refreshes_at_once_replace_the_changed_parts_once():
    run = Run(random.Random(11), LabelScale.PRM800K)
    project = run.project
    metrics_refresh(project=project)
    for _ in range(4):
        run.submit()
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def refresh() -> None:
        try:
            barrier.wait()
            metrics_refresh(project=Project.objects.get(pk=project.pk))
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=refresh) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    keys = ("solution_id", "a_id", "a_ext", "b_id", "b_ext", "a_rating", "b_rating")
    twice = (
        MetricsPairPart.objects.filter(project=project)
        .values(*keys)
        .annotate(rows=Count("id"))
        .filter(rows__gt=1)
    )
    assert not twice.exists()
    for _ in range(3):  # the same solutions changed again: their old rows subtracted once
        run.resubmit()
    snapshot = metrics_refresh(project=project)
    served = {k: v for k, v in snapshot.data.items() if k != STATS_KEY}
    assert _same(served, _fresh(project))
