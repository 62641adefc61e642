"""bench/stream_bench.py at toy size: 300 solutions, 1 and 4 annotators, 20 cycles a level.

Runs the bench's own functions (seeding through the importer, gunicorn with the production
settings, the HTTP cycles in threads and in two forked client processes, the bare-SQL cycles
and every check) on the test database, and asserts that the checks pass and the report has
its rows. No timing is asserted.
"""

import pytest
from django.db import connection

from bench.stream_bench import level_report, run_bench, seed_project, summary
from labeling.models import Annotation, StepLabel

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CYCLES = 20


@pytest.mark.parametrize("submit_next", [False, True], ids=["claim-then-submit", "submit-next"])
def test_stream_bench_small_run_passes_its_checks(tmp_path, submit_next):
    seeded = seed_project(n=300, workdir=tmp_path)
    assert seeded.solutions == 300
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"

    result = run_bench(
        database_url=url, project=seeded.project, levels=(1, 4), cycles=CYCLES,
        client_processes=2, warmup=4, workdir=tmp_path, out=lambda _: None,
        submit_next=submit_next,
    )  # fmt: skip

    assert result.problems == [], result.problems
    assert [(level.annotators, level.processes) for level in result.levels] == [(1, 1), (4, 2)]
    for level in result.levels:
        assert len(level.http.cycle_s) == len(level.bare.cycle_s) == CYCLES
        assert len({c.solution_id for c in level.http.claims}) == CYCLES
        text = level_report(level, CYCLES)
        for row in ("steplab claim", "steplab submit", "steplab cycle", "bare SQL claim"):
            assert row in text
        assert "double claims 0 (database 0, client windows 0)" in text
        assert "lost/duplicated labels 0; errors 0" in text
    submitted = Annotation.objects.filter(
        solution__project=seeded.project, status="submitted", annotator__isnull=False
    )
    assert submitted.count() == 4 + 2 * CYCLES  # the warm-up's too
    if submit_next:  # one claim request per annotator; every other task came with a submit
        assert 2 <= sum(len(level.http.claim_s) for level in result.levels) <= 1 + 4
    assert StepLabel.objects.filter(annotation__in=submitted).count() > 2 * submitted.count()
    assert "OK: every submission stored once" in summary(result, 300)


def test_the_checks_catch_a_lost_and_a_doubled_submission(tmp_path):
    """The database check fails when a sent submission is missing or a solution is over."""
    from bench.load.annotators import Claim
    from bench.stream_bench import Checks, database_checks
    from tests.factories import UserFactory

    seeded = seed_project(n=3, workdir=tmp_path, labels_as="none")
    solution = seeded.project.solutions.order_by("id").first()
    step = solution.steps.order_by("index").first()
    annotations = [
        Annotation.objects.create(solution=solution, annotator=UserFactory(), status="submitted")
        for _ in range(2)
    ]
    StepLabel.objects.create(annotation=annotations[0], step=step, rating=1)
    claims = [Claim("a", solution.pk, annotations[0].pk, 0.0, 1.0, {step.pk: -1})]

    checks = Checks()
    database_checks(project_id=seeded.project.pk, claims=claims, overlap=1, checks=checks)

    assert any("2 submitted annotations" in p for p in checks.double_db)
    assert any("counter 0, 2 submitted" in p for p in checks.double_db)
    assert any("unexpected" in p for p in checks.labels)
    assert any("differ from the sent" in p for p in checks.labels)
