"""One invite link used from several browsers at once makes exactly one account (the invite's
row lock), on PostgreSQL with real threads."""

import pytest
from django.contrib.auth import get_user_model

from labeling.errors import Gone
from labeling.models import Invite, ProjectMembership
from labeling.services.people.accounts import invite_accept, invite_create
from tests.concurrency.threads import run_threads
from tests.factories import ProjectFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_one_link_used_at_once_makes_one_account():
    project = ProjectFactory()
    token = invite_create(project=project, role="reviewer", created_by=None).token

    def accept(i: int) -> str:
        try:
            invite_accept(token=token, username=f"racer{i}", password="brisk-otter-harbor-42")
            return "ok"
        except Gone:
            return "gone"

    outcomes = run_threads(4, accept)
    assert sorted(outcomes) == ["gone", "gone", "gone", "ok"]
    assert get_user_model().objects.filter(username__startswith="racer").count() == 1
    assert ProjectMembership.objects.filter(project=project, role="reviewer").count() == 1
    assert Invite.objects.get().used_by.username.startswith("racer")
