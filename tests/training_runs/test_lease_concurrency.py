"""The training lease under real concurrency, on PostgreSQL: of many workers handed the same
run at once (redelivered copies), exactly one trains it."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from tests.concurrency.threads import run_threads
from training_runs.execution import Outcome, _claim
from training_runs.models import TrainingRun
from training_runs.services import HEARTBEAT_STALE_S

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("state", ["pending", "stale"])
def test_16_claimers_one_winner(train_project, trl_export, state):
    assert connection.vendor == "postgresql"
    run = TrainingRun.objects.create(project=train_project, export=trl_export, base_model="/m")
    if state == "stale":
        stale = timezone.now() - timedelta(seconds=HEARTBEAT_STALE_S + 5)
        TrainingRun.objects.filter(pk=run.pk).update(
            status="running", worker="lost:1", heartbeat_at=stale, attempts=1
        )
    results = run_threads(16, lambda i: _claim(run.pk, f"host:{i}"))
    winners = [i for i, r in enumerate(results) if r is None]
    assert len(winners) == 1, results
    assert sorted(r for r in results if r is not None) == [Outcome.BUSY] * 15
    run.refresh_from_db()
    assert run.worker == f"host:{winners[0]}"
    assert run.attempts == (1 if state == "pending" else 2)
