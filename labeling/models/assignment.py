"""Explicit assignment of solutions to annotators."""

from django.conf import settings
from django.db import models

from .data import Solution


class Assignment(models.Model):
    """`user` should label `solution`. A solution with assignments is claimable only by its
    assignees (others never get it); an assignee gets assigned solutions before open ones."""

    solution = models.ForeignKey(Solution, on_delete=models.CASCADE, related_name="assignments")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assignments"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["solution", "user"], name="assignment_unique_user")
        ]
        indexes = [models.Index(fields=["user", "solution"], name="assignment_user_idx")]

    def __str__(self) -> str:
        return f"solution {self.solution_id} -> user {self.user_id}"
