"""Who speaks for the server itself: staff users (its operators) and the server's own code
(``user`` None: a management command, a task acting for nobody). They may use what the server
owns (any model path, URL or key variable: training_runs.model_refs; the server's Hugging Face
token for any repo: labeling.services.people.hub_tokens); everyone else gets what an operator
listed."""

from __future__ import annotations

from typing import Any


def acts_as_server(user: Any) -> bool:
    return user is None or bool(getattr(user, "is_staff", False))
