"""Who speaks for the server itself: staff users (its operators) and the server's own code
(``user`` None: a management command, a task acting for nobody). They may use what the server
owns (any model path, URL or key variable: training_runs.model_refs; the server's Hugging Face
token for any repo: labeling.services.people.hub_tokens); everyone else gets what an operator
listed. A job read by a worker later acts for `job_actor(job)`: a deleted creator is nobody, not
the server."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings


def acts_as_server(user: Any) -> bool:
    return user is None or bool(getattr(user, "is_staff", False))


def job_actor(job: Any) -> Any:
    """Whom a job acts for where its worker decides, after the fact, what it may use (the
    server's Hub token, an unlisted model path): its creator; None (the server itself) only for
    a job the server made (`created_by_server`: a management command); a job whose creator was
    deleted since (`created_by` set to NULL) acts as an anonymous member, with the least
    privilege, never as the server."""
    if job.created_by_id is not None:
        return job.created_by
    if getattr(job, "created_by_server", False):
        return None
    from django.contrib.auth.models import AnonymousUser  # needs the apps loaded

    return AnonymousUser()


def operator_caps(setting: str, defaults: Mapping[str, float]) -> dict[str, float]:
    """The caps in force: `defaults` with the operator's own (the JSON object in the setting
    `setting`, numbers checked at start-up by annotate.settings) over them; unknown keys are
    left out."""
    given = getattr(settings, setting, None) or {}
    return {**defaults, **{k: v for k, v in given.items() if k in defaults}}
