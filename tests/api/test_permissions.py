"""Every endpoint, for anonymous, annotator, annotator of another project, reviewer, admin."""

import io

import pytest

ROLES = ["anonymous", "annotator", "outsider", "reviewer", "admin"]


def _steps(w):
    return list(w["annotation"].solution.steps.order_by("index").values_list("id", flat=True))


def _labels(w, rating=1):
    return [{"step_id": s, "rating": rating} for s in _steps(w)]


def _resegment(w, **more):
    """A split/merge body for the annotator's draft, in a project that allows re-segmenting."""
    w["project"].__class__.objects.filter(pk=w["project"].pk).update(allow_resegment=True)
    return {"version": 1, "step_id": _steps(w)[0], **more}


def _upload(_w):
    return {
        "file": io.BytesIO(b'{"problem": "1+1?", "answer": "2", "steps": ["1+1=2"]}\n'),
        "format": "steplab",
    }


def _import_job(w):
    from labeling.models import ImportJob

    return ImportJob.objects.create(project=w["project"], filename="x.jsonl", file="x.jsonl").pk


def _spare_submitted(w):
    """A submitted annotation by another annotator, on another solution of the project."""
    from labeling.services.labeling.annotations import annotation_submit
    from labeling.services.queue.claim import task_claim_next

    spare = w["users"]["spare"]
    claim = task_claim_next(project=w["project"], user=spare)
    steps = claim.annotation.solution.steps.values_list("id", flat=True)
    annotation_submit(
        annotation=claim.annotation,
        user=spare,
        version=claim.annotation.version,
        labels=[{"step_id": s, "rating": 1} for s in steps],
    )
    return claim.annotation


def _annotator_submitted(w):
    """The annotator's claimed annotation, submitted (My work reopens and resubmits it)."""
    from labeling.models import Annotation
    from labeling.services.labeling.annotations import annotation_submit

    annotation = Annotation.objects.get(pk=w["annotation"].pk)
    if annotation.status == "draft":
        annotation_submit(
            annotation=annotation, user=w["users"]["annotator"], version=1, labels=_labels(w)
        )
    return annotation


def _failed_screening(w):
    """The spare annotator failed the screening; an unseen gold question is left to retake."""
    from labeling.models import ProjectMembership

    solution = _untouched_solution(w)
    solution.is_gold = True
    solution.save(update_fields=["is_gold"])
    ProjectMembership.objects.filter(project=w["project"], user=w["users"]["spare"]).update(
        screening="failed"
    )
    return w["users"]["spare"].pk


def _invite(w):
    from labeling.services.people.accounts import invite_create

    return invite_create(project=w["project"], role="annotator", created_by=None).invite.pk


def _temporary_member(w):
    """A member of the project who still holds the temporary password an admin made."""
    from labeling.models import ProjectMembership, TemporaryPassword
    from tests.factories import UserFactory

    user = UserFactory(username="newcomer")
    TemporaryPassword.objects.get_or_create(user=user)
    ProjectMembership.objects.get_or_create(project=w["project"], user=user)
    return user.pk


def _webhook(w):
    from labeling.services.webhooks.endpoints import webhook_endpoint_create

    made = webhook_endpoint_create(
        project=w["project"], url="https://hooks.example.com/in", events=["export.ready"]
    )
    return made.endpoint.pk


def _untouched_solution(w):
    return w["project"].solutions.exclude(annotations__isnull=False).order_by("id").last()


# (name, method, url(w), body(w) or None, format, expected status per role)
ENDPOINTS = [
    # Everyone gets 200: signed out, `authenticated: false` (no console error on the first load).
    ("me", "get", lambda w: "/api/auth/me/", None, None, [200, 200, 200, 200, 200]),
    (
        "password-change",
        "post",
        lambda w: "/api/auth/password/",
        lambda w: {"old_password": "wrong", "new_password": "brisk-otter-harbor-42"},
        "json",
        [403, 400, 400, 400, 400],
    ),
    ("user-list", "get", lambda w: "/api/users/", None, None, [403, 403, 403, 403, 403]),
    (
        "project-user-create",
        "post",
        lambda w: f"/api/projects/{w['project'].pk}/users/",
        lambda w: {"username": "newbie", "role": "annotator"},
        "json",
        [403, 403, 404, 403, 201],
    ),
    (
        "member-temporary-password",
        "post",
        lambda w: (
            f"/api/projects/{w['project'].pk}/members/{_temporary_member(w)}/temporary-password/"
        ),
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "invites",
        "get",
        lambda w: f"/api/projects/{w['project'].pk}/invites/",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "invite-create",
        "post",
        lambda w: f"/api/projects/{w['project'].pk}/invites/",
        lambda w: {"role": "reviewer"},
        "json",
        [403, 403, 404, 403, 201],
    ),
    (
        "invite-revoke",
        "delete",
        lambda w: f"/api/projects/{w['project'].pk}/invites/{_invite(w)}/",
        None,
        None,
        [403, 403, 404, 403, 204],
    ),
    # Webhooks (labeling/api/webhooks.py): project admins only; the event list for anyone.
    (
        "webhook-events",
        "get",
        lambda w: "/api/webhook-events/",
        None,
        None,
        [403, 200, 200, 200, 200],
    ),
    (
        "webhook-list",
        "get",
        lambda w: f"/api/projects/{w['project'].pk}/webhooks/",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "webhook-create",
        "post",
        lambda w: f"/api/projects/{w['project'].pk}/webhooks/",
        lambda w: {"url": "https://hooks.example.com/new", "events": ["import.finished"]},
        "json",
        [403, 403, 404, 403, 201],
    ),
    (
        "webhook-detail",
        "get",
        lambda w: f"/api/projects/{w['project'].pk}/webhooks/{_webhook(w)}/",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "webhook-update",
        "patch",
        lambda w: f"/api/projects/{w['project'].pk}/webhooks/{_webhook(w)}/",
        lambda w: {"active": False},
        "json",
        [403, 403, 404, 403, 200],
    ),
    (
        "webhook-delete",
        "delete",
        lambda w: f"/api/projects/{w['project'].pk}/webhooks/{_webhook(w)}/",
        None,
        None,
        [403, 403, 404, 403, 204],
    ),
    (
        "webhook-rotate-secret",
        "post",
        lambda w: f"/api/projects/{w['project'].pk}/webhooks/{_webhook(w)}/rotate-secret/",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "webhook-test",
        "post",
        lambda w: f"/api/projects/{w['project'].pk}/webhooks/{_webhook(w)}/test/",
        None,
        None,
        [403, 403, 404, 403, 202],
    ),
    (
        "webhook-deliveries",
        "get",
        lambda w: f"/api/projects/{w['project'].pk}/webhooks/{_webhook(w)}/deliveries/",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    ("projects", "get", lambda w: "/api/projects/", None, None, [403, 200, 200, 200, 200]),
    (
        "project-create",
        "post",
        lambda w: "/api/projects/",
        lambda w: {"name": "New"},
        "json",
        [403, 403, 403, 403, 403],
    ),
    (
        "project",
        "get",
        lambda w: f"/api/projects/{w['project'].pk}/",
        None,
        None,
        [403, 200, 404, 200, 200],
    ),
    (
        "project-update",
        "patch",
        lambda w: f"/api/projects/{w['project'].pk}/",
        lambda w: {"overlap": 2},
        "json",
        [403, 403, 404, 403, 200],
    ),
    (
        "project-delete",
        "delete",
        lambda w: f"/api/projects/{w['project'].pk}/",
        None,
        None,
        [403, 403, 404, 403, 202],
    ),
    (
        "members",
        "get",
        lambda w: f"/api/projects/{w['project'].pk}/members/",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "member-add",
        "post",
        lambda w: f"/api/projects/{w['project'].pk}/members/",
        lambda w: {"username": "outsider", "role": "annotator"},
        "json",
        [403, 403, 404, 403, 201],
    ),
    (
        "member-role",
        "patch",
        lambda w: f"/api/projects/{w['project'].pk}/members/{w['users']['spare'].pk}/",
        lambda w: {"role": "reviewer"},
        "json",
        [403, 403, 404, 403, 200],
    ),
    (
        "member-remove",
        "delete",
        lambda w: f"/api/projects/{w['project'].pk}/members/{w['users']['spare'].pk}/",
        None,
        None,
        [403, 403, 404, 403, 204],
    ),
    (
        "solutions",
        "get",
        lambda w: f"/api/projects/{w['project'].pk}/solutions/",
        None,
        None,
        [403, 403, 404, 200, 200],
    ),
    (
        "imports",
        "get",
        lambda w: f"/api/projects/{w['project'].pk}/imports/",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "import-create",
        "post",
        lambda w: f"/api/projects/{w['project'].pk}/imports/",
        _upload,
        "multipart",
        [403, 403, 404, 403, 202],
    ),
    (
        "step-preview",
        "post",
        lambda w: f"/api/projects/{w['project'].pk}/step-preview/",
        lambda w: {"text": "<think>a</think>b. C.", "step_split": "sentence"},
        "json",
        [403, 403, 404, 403, 200],
    ),
    (
        "import",
        "get",
        lambda w: f"/api/imports/{_import_job(w)}/",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "predictions",
        "get",
        lambda w: f"/api/projects/{w['project'].pk}/predictions/",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "predictions-upload",
        "post",
        lambda w: f"/api/projects/{w['project'].pk}/predictions/?name=m&version=1",
        lambda _w: [],  # a JSON array of no predictions: nothing to store
        "json",
        [403, 403, 404, 403, 200],
    ),
    (
        "queue-next",
        "post",
        lambda w: f"/api/projects/{w['project'].pk}/queue/next/",
        None,
        None,
        [403, 200, 404, 200, 200],
    ),
    (
        "progress",
        "get",
        lambda w: f"/api/projects/{w['project'].pk}/progress/",
        None,
        None,
        [403, 200, 404, 200, 200],
    ),
    (
        "annotation",
        "get",
        lambda w: f"/api/annotations/{w['annotation'].pk}/",
        None,
        None,
        [403, 200, 404, 404, 404],
    ),
    (
        "draft",
        "put",
        lambda w: f"/api/annotations/{w['annotation'].pk}/draft/",
        lambda w: {"version": 1, "labels": _labels(w)},
        "json",
        [403, 200, 404, 404, 404],
    ),
    (
        "submit",
        "post",
        lambda w: f"/api/annotations/{w['annotation'].pk}/submit/",
        lambda w: {"version": 1, "labels": _labels(w)},
        "json",
        [403, 200, 404, 404, 404],
    ),
    (
        "skip",
        "post",
        lambda w: f"/api/annotations/{w['annotation'].pk}/skip/",
        None,
        None,
        [403, 204, 404, 404, 404],
    ),
    (
        "step-split",
        "post",
        lambda w: f"/api/annotations/{w['annotation'].pk}/steps/split/",
        lambda w: _resegment(w, offset=7),
        "json",
        [403, 200, 404, 404, 404],
    ),
    (
        "step-merge",
        "post",
        lambda w: f"/api/annotations/{w['annotation'].pk}/steps/merge/",
        lambda w: _resegment(w),
        "json",
        [403, 200, 404, 404, 404],
    ),
    (
        "my-work",
        "get",
        lambda w: f"/api/projects/{w['project'].pk}/my-work/",
        None,
        None,
        [403, 200, 404, 200, 200],
    ),
    (  # nothing submitted or skipped yet: 204 (the annotator's reopen is tested elsewhere)
        "my-work-back",
        "post",
        lambda w: f"/api/projects/{w['project'].pk}/my-work/back/",
        None,
        None,
        [403, 204, 404, 204, 204],
    ),
    (
        "annotation-reopen",
        "post",
        lambda w: f"/api/annotations/{_annotator_submitted(w).pk}/reopen/",
        None,
        None,
        [403, 200, 404, 404, 404],
    ),
    (
        "annotation-resubmit",
        "post",
        lambda w: f"/api/annotations/{_annotator_submitted(w).pk}/resubmit/",
        lambda w: {"version": 2, "labels": _labels(w, rating=-1)},
        "json",
        [403, 200, 404, 404, 404],
    ),
    (
        "review-queue",
        "get",
        lambda w: f"/api/projects/{w['project'].pk}/review/queue/",
        None,
        None,
        [403, 403, 404, 200, 200],
    ),
    (
        "metrics",
        "get",
        lambda w: f"/api/projects/{w['project'].pk}/metrics/",
        None,
        None,
        [403, 403, 404, 200, 200],
    ),
    (
        "my-rejections",
        "get",
        lambda w: f"/api/projects/{w['project'].pk}/rejections/",
        None,
        None,
        [403, 200, 404, 200, 200],
    ),
    (
        "review-detail",
        "get",
        lambda w: f"/api/solutions/{w['annotation'].solution_id}/review/",
        None,
        None,
        [403, 403, 404, 200, 200],
    ),
    (
        "review-adjudicate",
        "post",
        lambda w: f"/api/solutions/{w['annotation'].solution_id}/adjudicate/",
        lambda w: {"labels": _labels(w, rating=0)},
        "json",
        [403, 403, 404, 200, 200],
    ),
    (
        "review-accept",
        "post",
        lambda w: f"/api/annotations/{_spare_submitted(w).pk}/accept/",
        lambda w: {},
        "json",
        [403, 403, 404, 200, 200],
    ),
    (
        "review-reject",
        "post",
        lambda w: f"/api/annotations/{_spare_submitted(w).pk}/reject/",
        lambda w: {"comment": "step 2 is wrong"},
        "json",
        [403, 403, 404, 200, 200],
    ),
    (
        "comments-own-solution",
        "get",
        lambda w: f"/api/solutions/{w['annotation'].solution_id}/comments/",
        None,
        None,
        [403, 200, 404, 200, 200],
    ),
    (
        "comment-create-own-solution",
        "post",
        lambda w: f"/api/solutions/{w['annotation'].solution_id}/comments/",
        lambda w: {"body": "is step 3 right?", "step_id": _steps(w)[2]},
        "json",
        [403, 201, 404, 201, 201],
    ),
    (
        "comments-other-solution",
        "get",
        lambda w: f"/api/solutions/{_untouched_solution(w).pk}/comments/",
        None,
        None,
        [403, 403, 404, 200, 200],
    ),
    (
        "comment-create-other-solution",
        "post",
        lambda w: f"/api/solutions/{_untouched_solution(w).pk}/comments/",
        lambda w: {"body": "hello"},
        "json",
        [403, 403, 404, 201, 201],
    ),
    (
        "gold-set",
        "put",
        lambda w: f"/api/solutions/{w['annotation'].solution_id}/gold/",
        lambda w: {"labels": _labels(w)},
        "json",
        [403, 403, 404, 403, 200],
    ),
    (
        "assignments",
        "get",
        lambda w: f"/api/projects/{w['project'].pk}/assignments/",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "assignment-create",
        "post",
        lambda w: f"/api/projects/{w['project'].pk}/assignments/",
        lambda w: {"user_ids": [w["users"]["spare"].pk]},
        "json",
        [403, 403, 404, 403, 201],
    ),
    (
        "assignment-preview",
        "post",
        lambda w: f"/api/projects/{w['project'].pk}/assignments/preview/",
        lambda w: {"user_ids": [w["users"]["spare"].pk]},
        "json",
        [403, 403, 404, 403, 200],
    ),
    (
        "problem-sources",
        "get",
        lambda w: f"/api/projects/{w['project'].pk}/problem-sources/",
        None,
        None,
        [403, 403, 404, 200, 200],
    ),
    (
        "explorer-list",
        "get",
        lambda w: f"/api/projects/{w['project'].pk}/explorer/?state=unlabeled",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "explorer-bulk",
        "post",
        lambda w: f"/api/projects/{w['project'].pk}/explorer/bulk/",
        lambda w: {"action": "unmark_gold", "filter": {"gold": True}},
        "json",
        [403, 403, 404, 403, 200],
    ),
    (
        "gold-list",
        "get",
        lambda w: f"/api/projects/{w['project'].pk}/gold/",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "screening-reset",
        "post",
        lambda w: (
            f"/api/projects/{w['project'].pk}/members/{_failed_screening(w)}/screening/reset/"
        ),
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "annotation-feedback",
        "get",
        lambda w: f"/api/annotations/{w['annotation'].pk}/feedback/",
        None,
        None,
        [403, 200, 404, 404, 404],
    ),
]


def _export(w):
    from labeling.models import Export

    return Export.objects.create(project=w["project"], format="trl").pk


def _hub_push(w):
    from labeling.models import HubPush

    return HubPush.objects.create(export_id=_export(w), repo_id="team/x").pk


def _autolabel_run(w):
    from autolabel.models import AutolabelRun

    return AutolabelRun.objects.create(project=w["project"], sources=["answer"]).pk


def _training_run(w):
    from labeling.models import Export
    from training_runs.models import TrainingRun

    export = Export.objects.create(project=w["project"], format="trl", status="done")
    return TrainingRun.objects.create(project=w["project"], export=export, base_model="/m").pk


def _prm_model(w):
    from training_runs.models import PrmModel

    return PrmModel.objects.create(project=w["project"], name="m", path="/m").pk


def _png() -> bytes:
    from tests.domains.test_media import png

    return png()


def _media_upload(_w):
    return {"file": io.BytesIO(_png())}


def _media_name(w):
    from labeling.services.media.images import media_save

    return media_save(project=w["project"], blob=_png(), content_type="image/png")["media"]


def _pid(w):
    return w["project"].pk


def _annotator_token(w):
    from labeling.services.people.tokens import token_create

    return token_create(user=w["users"]["annotator"], name="matrix").token.pk


# Exports (reviewers and admins; delete is for admins; a pending export's file answers 409),
# auto-label runs (admins), training runs and PRM models (reviewers read, admins write; the
# writes below are refused by validation, which runs after the access check), the queue
# priority, and stored images (upload: admins; read: every member).
ENDPOINTS += [
    ("my-tokens", "get", lambda w: "/api/auth/tokens/", None, None, [403, 200, 200, 200, 200]),
    (
        "token-create",
        "post",
        lambda w: "/api/auth/tokens/",
        lambda w: {"name": "matrix", "expires_in_days": 7},
        "json",
        [403, 201, 201, 201, 201],
    ),
    # One's own Hugging Face token: any signed-in user, each their own (no id to guess).
    ("hub-token", "get", lambda w: "/api/auth/hub-token/", None, None, [403, 200, 200, 200, 200]),
    (
        "hub-token-save",  # unchecked: no Hub to ask in the matrix
        "put",
        lambda w: "/api/auth/hub-token/",
        lambda w: {"token": "hf_matrixMATRIXmatrix0001", "check": False},
        "json",
        [403, 200, 200, 200, 200],
    ),
    (
        "hub-token-remove",
        "delete",
        lambda w: "/api/auth/hub-token/",
        None,
        None,
        [403, 204, 204, 204, 204],
    ),
    (  # the sources exports and the explorer take: any signed-in user
        "machine-sources",
        "get",
        lambda w: "/api/machine-sources/",
        None,
        None,
        [403, 200, 200, 200, 200],
    ),
    (  # the annotator's token: anyone else's id answers 404
        "token-revoke",
        "delete",
        lambda w: f"/api/auth/tokens/{_annotator_token(w)}/",
        None,
        None,
        [403, 204, 404, 404, 404],
    ),
    (
        "exports",
        "get",
        lambda w: f"/api/projects/{_pid(w)}/exports/",
        None,
        None,
        [403, 403, 404, 200, 200],
    ),
    (
        "export-create",
        "post",
        lambda w: f"/api/projects/{_pid(w)}/exports/",
        lambda w: {"format": "trl"},
        "json",
        [403, 403, 404, 202, 202],
    ),
    (
        "export-preview",
        "post",
        lambda w: f"/api/projects/{_pid(w)}/exports/preview/",
        lambda w: {},
        "json",
        [403, 403, 404, 200, 200],
    ),
    (
        "export",
        "get",
        lambda w: f"/api/exports/{_export(w)}/",
        None,
        None,
        [403, 403, 404, 200, 200],
    ),
    (
        "export-delete",
        "delete",
        lambda w: f"/api/exports/{_export(w)}/",
        None,
        None,
        [403, 403, 404, 403, 204],
    ),
    (
        "export-download",
        "get",
        lambda w: f"/api/exports/{_export(w)}/download/",
        None,
        None,
        [403, 403, 404, 409, 409],
    ),
    (
        "export-card",
        "get",
        lambda w: f"/api/exports/{_export(w)}/card/",
        None,
        None,
        [403, 403, 404, 409, 409],
    ),
    # Hub pushes (labeling/api/hub.py): reviewers read them, admins push (a pending export: 409).
    (
        "export-hub-pushes",
        "get",
        lambda w: f"/api/exports/{_export(w)}/hub-pushes/",
        None,
        None,
        [403, 403, 404, 200, 200],
    ),
    (
        "export-hub-pushes",
        "post",
        lambda w: f"/api/exports/{_export(w)}/hub-pushes/",
        lambda w: {"repo_id": "team/x"},
        "json",
        [403, 403, 404, 403, 409],
    ),
    (
        "hub-push-detail",
        "get",
        lambda w: f"/api/hub-pushes/{_hub_push(w)}/",
        None,
        None,
        [403, 403, 404, 200, 200],
    ),
    (
        "autolabel-runs",
        "get",
        lambda w: f"/api/projects/{_pid(w)}/autolabel-runs/",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "autolabel-run-create",
        "post",
        lambda w: f"/api/projects/{_pid(w)}/autolabel-runs/",
        lambda w: {"sources": ["answer"]},
        "json",
        [403, 403, 404, 403, 202],
    ),
    (
        "autolabel-run",
        "get",
        lambda w: f"/api/autolabel-runs/{_autolabel_run(w)}/",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "autolabel-run-cancel",
        "post",
        lambda w: f"/api/autolabel-runs/{_autolabel_run(w)}/cancel/",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "autolabel-run-pause",
        "post",
        lambda w: f"/api/autolabel-runs/{_autolabel_run(w)}/pause/",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "autolabel-run-resume",  # a pending run: nothing to resume, answered as it is
        "post",
        lambda w: f"/api/autolabel-runs/{_autolabel_run(w)}/resume/",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "autolabel-engine-list",  # the sources this server runs: any signed-in user
        "get",
        lambda w: "/api/autolabel-engines/",
        None,
        None,
        [403, 200, 200, 200, 200],
    ),
    (
        "training-runs",
        "get",
        lambda w: f"/api/projects/{_pid(w)}/training-runs/",
        None,
        None,
        [403, 403, 404, 200, 200],
    ),
    (
        "training-run-create",
        "post",
        lambda w: f"/api/projects/{_pid(w)}/training-runs/",
        lambda w: {"export": 0, "base_model": "/nonexistent"},
        "json",
        [403, 403, 404, 403, 400],
    ),
    (
        "training-run",
        "get",
        lambda w: f"/api/training-runs/{_training_run(w)}/",
        None,
        None,
        [403, 403, 404, 200, 200],
    ),
    (
        "training-run-cancel",
        "post",
        lambda w: f"/api/training-runs/{_training_run(w)}/cancel/",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "prm-models",
        "get",
        lambda w: f"/api/projects/{_pid(w)}/prm-models/",
        None,
        None,
        [403, 403, 404, 200, 200],
    ),
    (
        "prm-model-delete",
        "delete",
        lambda w: f"/api/projects/{_pid(w)}/prm-models/{_prm_model(w)}/",
        None,
        None,
        [403, 403, 404, 403, 204],
    ),
    (
        "prm-model-register",
        "post",
        lambda w: f"/api/projects/{_pid(w)}/prm-models/",
        lambda w: {"name": "v1", "path": "/nonexistent"},
        "json",
        [403, 403, 404, 403, 400],
    ),
    (
        "queue-priority",
        "get",
        lambda w: f"/api/projects/{_pid(w)}/queue-priority/",
        None,
        None,
        [403, 403, 404, 200, 200],
    ),
    (
        "queue-priority-set",
        "put",
        lambda w: f"/api/projects/{_pid(w)}/queue-priority/",
        lambda w: {"order": "default"},
        "json",
        [403, 403, 404, 403, 200],
    ),
    (
        "media-upload",
        "post",
        lambda w: f"/api/projects/{_pid(w)}/media/",
        _media_upload,
        "multipart",
        [403, 403, 404, 403, 201],
    ),
    (
        "assignment-clear",
        "delete",
        lambda w: f"/api/projects/{_pid(w)}/assignments/",
        lambda w: {},
        "json",
        [403, 403, 404, 403, 200],
    ),
    (
        "gold-unset",
        "delete",
        lambda w: f"/api/solutions/{w['annotation'].solution_id}/gold/",
        None,
        None,
        [403, 403, 404, 403, 200],
    ),
    (
        "media-file",
        "get",
        lambda w: f"/api/projects/{_pid(w)}/media/{_media_name(w)}",
        None,
        None,
        [403, 200, 404, 200, 200],
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize("role_index,role", list(enumerate(ROLES)))
@pytest.mark.parametrize(
    "name,method,url,body,fmt,expected", ENDPOINTS, ids=[e[0] for e in ENDPOINTS]
)
def test_permission_matrix(
    world,
    client_for,
    django_capture_on_commit_callbacks,
    name,
    method,
    url,
    body,
    fmt,
    expected,
    role_index,
    role,
):
    client = client_for(None if role == "anonymous" else role)
    kwargs = {}
    if body is not None:
        kwargs = {"data": body(world), "format": fmt}
    with django_capture_on_commit_callbacks(execute=False):
        response = getattr(client, method)(url(world), **kwargs)
    assert response.status_code == expected[role_index], (name, role, response.content[:300])
    if response.status_code >= 400:
        error = response.json()["error"]
        assert error["code"] and error["message"]


def test_staff_can_create_projects_and_becomes_admin(client_for):
    response = client_for("staff").post("/api/projects/", {"name": "Gamma"}, format="json")
    assert response.status_code == 201
    assert response.json()["role"] == "admin"


def test_project_list_shows_only_member_projects(client_for):
    names = [p["name"] for p in client_for("outsider").get("/api/projects/").json()["results"]]
    assert names == ["Beta"]
    names = [p["name"] for p in client_for("staff").get("/api/projects/").json()["results"]]
    assert names == ["Alpha", "Beta"]


# Endpoints outside the matrix, each with the reason. Everything else under /api/ must be in it.
EXEMPT = {
    ("auth-login", "post"): "anonymous by design; rate-limited (tests/api/test_login_throttle.py)",
    ("auth-logout", "post"): "anonymous by design: logging out needs no role",
    ("auth-token", "post"): "anonymous by design: exchanges a password for a token",
    ("auth-password-reset", "post"): "anonymous by design: e-mails a reset link; throttled",
    ("auth-password-reset-confirm", "post"): "anonymous by design: the e-mailed link; throttled",
    ("invite-open", "get"): "anonymous by design: an invite link's page; throttled",
    ("invite-accept", "post"): "anonymous by design: an invite link makes an account; throttled",
    ("schema", "get"): "the OpenAPI schema, public documentation of the API",
    ("swagger-ui", "get"): "the Swagger UI page, public documentation of the API",
}


def _api_routes() -> set[tuple[str, str]]:
    """(url name, method) for every view under /api/, read from the URL resolver."""
    from django.urls import URLPattern, URLResolver, get_resolver

    routes: set[tuple[str, str]] = set()

    def walk(patterns, prefix: str) -> None:
        for entry in patterns:
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, route)
            elif isinstance(entry, URLPattern) and route.startswith("api/"):
                view = getattr(entry.callback, "view_class", None) or getattr(
                    entry.callback, "cls", None
                )
                assert view is not None, f"{route} is not a class-based API view"
                for method in ("get", "post", "put", "patch", "delete"):
                    if hasattr(view, method):
                        routes.add((entry.name, method))

    walk(get_resolver().url_patterns, "")
    return routes


def test_every_api_endpoint_is_in_the_matrix(world):
    from django.db import transaction
    from django.urls import resolve

    covered = set()
    for _name, method, url, *_ in ENDPOINTS:
        with transaction.atomic():  # the url builders create rows: undo each one's
            path = url(world).split("?")[0]
            transaction.set_rollback(True)
        covered.add((resolve(path).url_name, method))
    routes = _api_routes()
    missing = sorted(routes - covered - set(EXEMPT))
    assert not missing, f"endpoints without a permission test (add them to ENDPOINTS): {missing}"
    stale = sorted(set(EXEMPT) - routes)
    assert not stale, f"exemptions for endpoints that no longer exist: {stale}"
    assert len(routes) > 40
