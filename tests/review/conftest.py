import pytest

from labeling.services.labeling.annotations import annotation_submit
from labeling.services.queue.claim import task_claim_next
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory


def member(project, name: str, role: str = "annotator"):
    user = UserFactory(username=name)
    MembershipFactory(project=project, user=user, role=role)
    return user


def label(user, project, ratings, *, unsure=(), finish_reason="solution", reason=""):
    """Claim the user's next solution and submit `ratings` (one per step, in order)."""
    claim = task_claim_next(project=project, user=user)
    assert claim is not None
    steps = list(claim.annotation.solution.steps.order_by("index").values_list("id", flat=True))
    labels = [
        {"step_id": s, "rating": r, "unsure": i in unsure}
        for i, (s, r) in enumerate(zip(steps, ratings, strict=True))
    ]
    return annotation_submit(
        annotation=claim.annotation,
        user=user,
        version=claim.annotation.version,
        labels=labels,
        finish_reason=finish_reason,
        finish_reason_text=reason,
    )


@pytest.fixture
def rw(db):
    """Overlap-2 project with one 4-step solution, annotators a and b, a reviewer."""
    project = ProjectFactory(name="Review", overlap=2)
    solution = SolutionFactory(problem__project=project, steps=4)
    return {
        "project": project,
        "solution": solution,
        "steps": list(solution.steps.order_by("index").values_list("id", flat=True)),
        "a": member(project, "a"),
        "b": member(project, "b"),
        "reviewer": member(project, "rev", "reviewer"),
    }
