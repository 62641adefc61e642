"""Draft saves write label history for real edits only: changed labels, coalesced per step
within LABEL_HISTORY_DRAFT_COALESCE_S (issue 24: 22,000 rows in 1.9 s from one client)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from labeling.models import LabelHistory
from labeling.services.labeling.annotations import annotation_save_draft, annotation_submit
from labeling.services.queue.claim import task_claim_next
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory

pytestmark = pytest.mark.django_db
BLANK = {"unsure": False, "comment": "", "alternative_text": ""}


@pytest.fixture
def draft(db):
    project = ProjectFactory(name="Drafts")
    solution = SolutionFactory(problem__project=project, steps=3)
    user = UserFactory(username="clicker")
    MembershipFactory(project=project, user=user, role="annotator")
    annotation = task_claim_next(project=project, user=user).annotation
    steps = list(solution.steps.order_by("index").values_list("id", flat=True))
    state = {"annotation": annotation}

    def save(ratings: list[int | None]):
        labels = [{"step_id": s, "rating": r} for s, r in zip(steps, ratings, strict=False)]
        ann = state["annotation"]
        state["annotation"] = annotation_save_draft(
            annotation=ann, user=user, version=ann.version, labels=labels
        )
        return state["annotation"]

    return {"save": save, "steps": steps, "user": user, "state": state}


def _rows():
    return list(
        LabelHistory.objects.order_by("id").values_list("action", "step_id", "before", "after")
    )


def test_rapid_alternating_saves_leave_one_row_per_step(draft):
    save, steps = draft["save"], draft["steps"]
    for i in range(300):  # a client saving in a loop, flipping two steps each time
        save([1 if i % 2 else -1, 0 if i % 2 else 1, 1])
    assert draft["state"]["annotation"].version == 301
    assert _rows() == [
        ("draft", steps[0], None, {"rating": 1, **BLANK}),
        ("draft", steps[1], None, {"rating": 0, **BLANK}),
        ("draft", steps[2], None, {"rating": 1, **BLANK}),
    ]


def test_identical_saves_write_nothing_and_a_revert_removes_the_row(draft):
    save, steps = draft["save"], draft["steps"]
    save([1])
    save([1])
    save([1])
    assert len(_rows()) == 1
    save([1, -1])
    save([1, -1])
    assert len(_rows()) == 2
    save([1])  # step 1's label removed again within the window: no change at all
    assert _rows() == [("draft", steps[0], None, {"rating": 1, **BLANK})]


def test_changes_after_the_window_are_new_rows(draft, settings):
    save, steps = draft["save"], draft["steps"]
    save([1])
    LabelHistory.objects.update(at=timezone.now() - timedelta(seconds=31))
    save([-1])
    save([0])  # within the new row's window: folds into it
    assert _rows() == [
        ("draft", steps[0], None, {"rating": 1, **BLANK}),
        ("draft", steps[0], {"rating": 1, **BLANK}, {"rating": 0, **BLANK}),
    ]
    settings.LABEL_HISTORY_DRAFT_COALESCE_S = 0  # no coalescing: every change is a row
    save([1])
    assert len(_rows()) == 3


def test_a_submit_is_never_folded_into_a_draft_row(draft):
    save, steps, user = draft["save"], draft["steps"], draft["user"]
    ann = save([1, 1, 0])
    annotation_submit(
        annotation=ann,
        user=user,
        version=ann.version,
        labels=[{"step_id": s, "rating": 1} for s in steps],
    )
    assert [row[0] for row in _rows()] == ["draft", "draft", "draft", "submit"]


def test_a_draft_save_stays_one_joined_statement_on_postgres(draft):
    if connection.vendor != "postgresql":
        pytest.skip("writes are joined on PostgreSQL only")
    from django.test.utils import CaptureQueriesContext

    draft["save"]([1])
    with CaptureQueriesContext(connection) as first:
        draft["save"]([-1, 1])
    with CaptureQueriesContext(connection) as again:
        draft["save"]([1, -1])
    # The coalescing adds no round trip: the same statements as any draft save.
    assert len(first) == len(again)
    writes = [q["sql"] for q in again if "labeling_labelhistory" in q["sql"]]
    assert len(writes) == 1 and "labeling_steplabel" in writes[0]
