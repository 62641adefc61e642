import io

import pytest
from django.core.management import call_command

from tests.docs.blocks import REPO
from tests.factories import MembershipFactory, UserFactory

EXAMPLE = REPO / "docs" / "examples" / "two_solutions.jsonl"
PROJECT = "My project"


@pytest.fixture
def docs_world(transactional_db, settings):
    """What the docs assume: the demo logins, and the example file imported as "My project";
    webhooks may call this machine (docs/client.md's receiver is a local thread)."""
    settings.WEBHOOK_ALLOW_PRIVATE = True
    from django.contrib.auth import get_user_model

    from labeling.models import Project

    admin = get_user_model().objects.create_superuser("admin", password="steplab-admin")
    call_command(
        "import",
        str(EXAMPLE),
        "--project",
        PROJECT,
        "--create-project",
        "--labels-as",
        "annotations",
        stdout=io.StringIO(),
    )
    project = Project.objects.get(name=PROJECT)
    annotator = UserFactory(username="annotator")
    annotator.set_password("steplab-annotator")
    annotator.save()
    MembershipFactory(project=project, user=annotator, role="annotator")
    return {"admin": admin, "project": project}


@pytest.fixture
def docs_worker(transactional_db):
    """A Celery worker thread on the queues the documented API calls reach (imports, exports)."""
    from celery.contrib.testing.worker import start_worker

    from annotate.celery import app
    from annotate.queues import Queue

    with start_worker(
        app,
        pool="solo",
        concurrency=1,
        perform_ping_check=False,
        shutdown_timeout=10,
        queues=[Queue.DEFAULT.value, Queue.AUTOLABEL.value, Queue.EXPORTS.value],
    ) as worker:
        yield worker
