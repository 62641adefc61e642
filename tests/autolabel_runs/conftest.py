from pathlib import Path

import pytest

from labeling.services.imports import import_file
from tests.factories import MembershipFactory, ProjectFactory, UserFactory

PROCESSBENCH = Path(__file__).resolve().parents[3] / "shared" / "data" / "processbench_sample.jsonl"


@pytest.fixture
def pb_project(db):
    """A project with the 100 real ProcessBench solutions, no labels imported."""
    project = ProjectFactory(name="PB")
    import_file(project=project, path=PROCESSBENCH, fmt="processbench", labels_as="none")
    admin = UserFactory(username="runadmin")
    MembershipFactory(project=project, user=admin, role="admin")
    project.admin = admin
    return project
