"""Reads for the people pages: pending invites, the staff's user search."""

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.utils import timezone

from labeling.models import Invite, Project

USER_SEARCH_LIMIT = 50


def invite_list_pending(*, project: Project) -> QuerySet[Invite]:
    """Invites that still work: not used, not withdrawn, not expired; newest first."""
    return (
        Invite.objects.filter(
            project=project, used_at=None, revoked_at=None, expires_at__gt=timezone.now()
        )
        .select_related("created_by")
        .order_by("-created_at")
    )


def user_search(*, q: str) -> QuerySet:
    """Active accounts whose username or e-mail contains `q`, by username, at most 50."""
    rows = get_user_model()._default_manager.filter(is_active=True)
    if q.strip():
        rows = rows.filter(Q(username__icontains=q.strip()) | Q(email__icontains=q.strip()))
    return rows.order_by("username").only("id", "username", "email")[:USER_SEARCH_LIMIT]
