"""The PRM active-learning claim order (opt-in): convincing wrong answers, then least certain."""

from django.utils import timezone

from labeling.models import Annotation, AnnotationStatus
from labeling.selectors.labeling_page import solution_claimable_for_user
from labeling.services.queue.claim import candidates_ordered, task_claim_next
from tests.factories import ProjectFactory, SolutionFactory, UserFactory
from training_runs.active_learning import queue_order_get, queue_order_set
from training_runs.models import QueuePriority


def _prm(min_probability, first_error=None, threshold=0.5):
    return {
        "prm": {
            "min_probability": min_probability,
            "first_error": first_error,
            "threshold": threshold,
            "uncertainty": abs(min_probability - threshold),
        }
    }


def _scenario(db):
    """Solutions created in id order a..g, so the default order is by id."""
    project = ProjectFactory()
    s = {}
    s["unscored"] = SolutionFactory(problem__project=project)
    s["sure_right"] = SolutionFactory(problem__project=project, metadata=_prm(0.97))
    s["sure_wrong"] = SolutionFactory(problem__project=project, metadata=_prm(0.02, 0))
    s["unsure"] = SolutionFactory(problem__project=project, metadata=_prm(0.48, 1))
    s["convincing"] = SolutionFactory(
        problem__project=project, metadata=_prm(0.7), answer_correct=False
    )
    s["most_convincing"] = SolutionFactory(
        problem__project=project, metadata=_prm(0.95), answer_correct=False
    )
    # Wrong answer, but the PRM found the error: not a convincing one, just scored.
    s["caught"] = SolutionFactory(
        problem__project=project, metadata=_prm(0.1, 2), answer_correct=False
    )
    return project, s


def _order(project, user):
    candidates = solution_claimable_for_user(project=project, user=user, now=timezone.now())
    return list(
        candidates_ordered(project=project, candidates=candidates).values_list("pk", flat=True)
    )


def test_default_order_is_unchanged_without_opting_in(db):
    project, s = _scenario(db)
    assert queue_order_get(project=project) == "default"
    assert _order(project, UserFactory()) == sorted(x.pk for x in s.values())


def test_active_learning_order(db):
    project, s = _scenario(db)
    queue_order_set(project=project, order="prm_active")
    names = {v.pk: k for k, v in s.items()}
    assert [names[pk] for pk in _order(project, UserFactory())] == [
        "most_convincing",
        "convincing",
        "unsure",  # |0.48 - 0.5|
        "caught",  # |0.1 - 0.5|
        "sure_right",  # |0.97 - 0.5|
        "sure_wrong",  # |0.02 - 0.5|
        "unscored",
    ]


def test_skipped_solutions_stay_last(db):
    project, s = _scenario(db)
    queue_order_set(project=project, order="prm_active")
    user = UserFactory()
    Annotation.objects.create(
        solution=s["most_convincing"], annotator=user, status=AnnotationStatus.DISCARDED
    )
    order = _order(project, user)
    assert order[0] == s["convincing"].pk and order[-1] == s["most_convincing"].pk


def test_claims_serve_the_convincing_wrong_answer_first(db):
    project, s = _scenario(db)
    queue_order_set(project=project, order="prm_active")
    first = task_claim_next(project=project, user=UserFactory(username="x1"))
    second = task_claim_next(project=project, user=UserFactory(username="x2"))
    assert first.annotation.solution_id == s["most_convincing"].pk
    assert second.annotation.solution_id == s["convincing"].pk
    queue_order_set(project=project, order="default")
    third = task_claim_next(project=project, user=UserFactory(username="x3"))
    assert third.annotation.solution_id == s["unscored"].pk


def test_answer_checked_after_scoring_counts(db):
    """The column is read at claim time: an answer check that ran after the PRM still counts."""
    project, s = _scenario(db)
    queue_order_set(project=project, order="prm_active")
    s["sure_right"].answer_correct = False
    s["sure_right"].save(update_fields=["answer_correct"])
    assert _order(project, UserFactory())[0] == s["sure_right"].pk


def test_a_process_keeps_the_order_briefly_and_forgets_it_when_it_sets_one(
    db, monkeypatch, django_assert_num_queries
):
    """Claims ask the order through the hook, which keeps what it read for ORDER_TTL_S: a
    second ask sends no query; setting the order (here, or once that time has passed in
    another process) is seen at once."""
    from labeling.models import Solution
    from training_runs import active_learning

    project = ProjectFactory()
    none = Solution.objects.none()
    assert active_learning.candidate_order(project=project, candidates=none) is None
    with django_assert_num_queries(0):
        assert active_learning.candidate_order(project=project, candidates=none) is None
    queue_order_set(project=project, order="prm_active")
    assert active_learning.candidate_order(project=project, candidates=none) is not None
    # Another process's change: this one sees it once its copy is older than the TTL.
    QueuePriority.objects.filter(project=project).update(order="default")
    assert active_learning.candidate_order(project=project, candidates=none) is not None
    monkeypatch.setattr(active_learning, "ORDER_TTL_S", 0.0)
    assert active_learning.candidate_order(project=project, candidates=none) is None
