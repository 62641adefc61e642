"""The export task reaches the `exports` queue through CELERY_TASK_ROUTES, not a task attribute."""

import warnings

from annotate.celery import app
from annotate.queues import Queue
from labeling.tasks import export_build_task


def test_export_task_is_routed_to_the_exports_queue():
    route = app.amqp.router.route({}, export_build_task.name, args=(1,), kwargs={})
    assert route["queue"].name == Queue.EXPORTS


def test_export_task_has_no_deprecated_queue_attribute():
    # Celery 5.7 warns about a task-level `queue` (removed in 6.0); the routes cover it.
    task = export_build_task._get_current_object()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        queue = getattr(task, "queue", None)
    assert queue is None
    assert not [w for w in caught if "queue" in str(w.message)]
