"""The load test's CI variant: 8 annotators for ~20 s on PostgreSQL, a real server and worker.

Asserts the invariants, not timings: every submitted label is in the database exactly once and
equal to what the client sent, no solution was held by more annotators than its overlap at any
moment (client-side windows), submitted <= overlap per solution, and the background auto-label
run and export both finish. `bench/load/run.py` is the long version (50 annotators, minutes).
"""

import pytest
from django.db import connection

from bench.load.annotators import (
    client_side_violations,
    database_violations,
    report,
    run_annotators,
    start_background,
    wait_background,
)
from bench.load.procs import PrivateRedis, free_port, start_server, start_worker, steplab_env, stop
from labeling.services.people.tokens import token_create
from tests.factories import MembershipFactory, UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ANNOTATORS = 8
OVERLAP = 2


def test_annotators_under_load_lose_nothing_and_never_share_a_solution(pb_project, tmp_path):
    if reason := PrivateRedis.available():
        pytest.skip(reason)
    pb_project.overlap = OVERLAP
    pb_project.save(update_fields=["overlap"])
    tokens = {}
    for i in range(ANNOTATORS):
        user = UserFactory(username=f"load{i}")
        MembershipFactory(project=pb_project, user=user, role="annotator")
        tokens[user.username] = token_create(user=user).key
    admin_token = token_create(user=pb_project.admin).key

    db = connection.settings_dict
    redis = PrivateRedis(tmp_path / "redis")
    redis.start()
    env = steplab_env(f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}", redis.url)
    port = free_port()
    server = worker = None
    try:
        worker = start_worker(env, tmp_path / "worker.log")
        server = start_server(env, port, tmp_path / "server.log", threads=4)
        base = f"http://127.0.0.1:{port}"
        jobs = start_background(base_url=base, admin_token=admin_token, project_id=pb_project.pk)
        recorder, wall, failures = run_annotators(
            base_url=base, tokens=tokens, project_id=pb_project.pk, duration_s=20
        )
        final = wait_background(base_url=base, admin_token=admin_token, jobs=jobs, timeout_s=120)
    finally:
        stop(server)
        stop(worker)
        redis.stop()
    print(report(recorder, wall))
    assert not failures, failures
    assert not [k for k in recorder.errors if not k.startswith("POST submit 409")], recorder.errors
    submitted = [c for c in recorder.claims if c.submitted_labels is not None]
    assert len(submitted) >= 20, report(recorder, wall)
    assert client_side_violations(recorder.claims, OVERLAP) == []
    assert database_violations(pb_project.pk, recorder.claims, OVERLAP) == []
    assert final["run"]["status"] == "done", (final, (tmp_path / "worker.log").read_text()[-3000:])
    assert final["run"]["done"] == final["run"]["total"] == 100
    assert final["export"]["status"] == "done", final
