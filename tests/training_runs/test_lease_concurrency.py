"""The training lease under real concurrency, on PostgreSQL: of many workers handed the same
run at once (redelivered copies), exactly one trains it."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from autolabel.models import TrainingRun
from autolabel.training_services import HEARTBEAT_STALE_S, Outcome, _claim

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _claim_from_threads(run_id: int, n: int) -> list:
    barrier = threading.Barrier(n)
    results: list = [None] * n
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = _claim(run_id, f"host:{i}")
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    return results


@pytest.mark.parametrize("state", ["pending", "stale"])
def test_16_claimers_one_winner(train_project, trl_export, state):
    assert connection.vendor == "postgresql"
    run = TrainingRun.objects.create(project=train_project, export=trl_export, base_model="/m")
    if state == "stale":
        stale = timezone.now() - timedelta(seconds=HEARTBEAT_STALE_S + 5)
        TrainingRun.objects.filter(pk=run.pk).update(
            status="running", worker="lost:1", heartbeat_at=stale, attempts=1
        )
    results = _claim_from_threads(run.pk, 16)
    winners = [i for i, r in enumerate(results) if r is None]
    assert len(winners) == 1, results
    assert sorted(r for r in results if r is not None) == [Outcome.BUSY] * 15
    run.refresh_from_db()
    assert run.worker == f"host:{winners[0]}"
    assert run.attempts == (1 if state == "pending" else 2)
