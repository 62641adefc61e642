from django.conf import settings
from django.db import models

from .data import Solution


class TaskLock(models.Model):
    """An annotator's claim on a solution until `expires_at`; saving a draft extends it."""

    solution = models.ForeignKey(Solution, on_delete=models.CASCADE, related_name="locks")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="task_locks"
    )
    expires_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["solution", "user"], name="tasklock_unique_user")
        ]
        indexes = [models.Index(fields=["solution", "expires_at"], name="tasklock_active_idx")]

    def __str__(self) -> str:
        return f"{self.user} holds {self.solution_id} until {self.expires_at}"
