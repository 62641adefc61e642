"""Hub pushes as jobs: a HubPush row per push, run by a worker or the command line.

A push runs with the token of the user who asked for it (labeling.services.people.hub_tokens), else
the server's HF_TOKEN where they may use it for the repo (staff; HUB_SERVER_TOKEN_REPOS), else it
is refused before anything is sent; the command line may give one. The row records whose
(token_kind).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from labeling.accounts.operators import job_actor
from labeling.errors import Conflict
from labeling.hub.connection import NONE, HubAuth, HubError, repo_id_check, server_auth
from labeling.hub.push import export_push
from labeling.models import Export, ExportStatus, HubPush
from labeling.services.people.hub_tokens import (
    NO_TOKEN_TO_PUSH,
    hub_auth_for,
    hub_push_token_check,
)


@transaction.atomic
def hub_push_create(*, export: Export, repo_id: str, private: bool, created_by) -> HubPush:
    repo_id_check(repo_id)
    # Locked: the export is not deleted under the push (export_delete refuses while it runs).
    locked = Export.objects.select_for_update().filter(pk=export.pk).first()
    if locked is None:
        raise Conflict(f"Export {export.pk} was deleted.")
    export = locked
    if export.status != ExportStatus.DONE:
        raise Conflict(f"Export {export.pk} is {export.status}: push it once it is done.")
    hub_push_token_check(user=created_by, repo_id=repo_id)
    return HubPush.objects.create(
        export=export,
        repo_id=repo_id,
        private=private,
        created_by=created_by,
        created_by_server=created_by is None,
    )


def hub_push_execute(*, push: HubPush, token: str | None = None) -> HubPush:
    """Push with `token` when given (the command line), else its creator's token or the
    server's (where hub_auth_for allows it; a user's push with no token at all fails in words);
    record the revision, tag and splits, or the error, and whose token it used. A done push is
    left as it is."""
    from labeling.errors import DomainError

    if push.status == ExportStatus.DONE:
        return push
    push.status = ExportStatus.RUNNING
    push.save(update_fields=["status"])
    try:
        auth: HubAuth = (
            server_auth(token)
            if token
            else hub_auth_for(user=job_actor(push), repo_id=push.repo_id)
        )
        push.token_kind = auth.kind
        if auth.kind == NONE and not push.created_by_server:
            raise HubError(NO_TOKEN_TO_PUSH.format(repo_id=push.repo_id), field="repo_id")
        result = export_push(
            export=push.export, repo_id=push.repo_id, auth=auth, private=push.private
        )
    except DomainError as exc:
        push.status, push.error = ExportStatus.FAILED, exc.message
    else:
        push.status, push.error = ExportStatus.DONE, ""
        push.revision, push.tag, push.url = result.revision, result.tag, result.url
        push.splits, push.private = result.splits, result.private
    push.finished_at = timezone.now()
    push.save()
    return push


def hub_push_run(
    *, export: Export, repo_id: str, private: bool, created_by, token: str | None = None
) -> HubPush:
    push = hub_push_create(export=export, repo_id=repo_id, private=private, created_by=created_by)
    return hub_push_execute(push=push, token=token)
