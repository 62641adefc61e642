"""The labeling page's next task: claim it, read what the page shows, remember what it showed.

One transaction for the three, so a claim costs one commit (the shown suggestions used to be
recorded in a commit of their own after the claim's); a submit that asks for the next task
runs the submit in that transaction too (`annotation_submit_then_next`). The claim's rules are
labeling.services.queue.claim.task_claim_next's; the payload is
labeling.selectors.labeling_page.task_payload."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from labeling.models import Annotation, Project
from labeling.pg.db_retry import retry_on_conflict
from labeling.selectors.labeling_page import task_payload
from labeling.services.labeling.annotations import annotation_record_shown, annotation_submit_within
from labeling.services.queue.claim import task_claim_next


@retry_on_conflict
@transaction.atomic(savepoint=False)  # joins submit-and-next's transaction
def next_task_claim(*, project: Project, user: AbstractBaseUser) -> dict | None:
    """The user's next task as the API answers it (None: nothing left to label)."""
    claim = task_claim_next(project=project, user=user)  # joins this transaction
    if claim is None:
        return None
    task = task_payload(
        annotation=claim.annotation, lock_expires_at=claim.lock.expires_at, created=claim.created
    )
    annotation_record_shown(annotation=claim.annotation, task=task)
    return task


@retry_on_conflict
@transaction.atomic
def annotation_submit_then_next(
    *, annotation: Annotation, user: AbstractBaseUser, project: Project, **fields
) -> tuple[Annotation, dict | None]:
    """Submit (labeling.services.labeling.annotations.annotation_submit_within, `fields` its
    arguments), then claim the user's next task: one transaction, one commit. If the claim
    fails, the submit is rolled back with it and the request fails as a whole; the page keeps
    its autosaved draft and sends the submit again with the same request_id."""
    submitted = annotation_submit_within(annotation=annotation, user=user, **fields)
    return submitted, next_task_claim(project=project, user=user)
