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


class SourceCountsSnapshot(models.Model):
    """When a large project's per-source counts (SourceCountRow) were last computed, and at
    what: the project's metrics version (moved by every write that changes a solution's set,
    gold flag, source, submissions, extra overlap or the project's overlap) and its assignment
    version (moved by every assignment write, `source_counts_mark`) read before the counting.
    Equal to the current ones: exact. Behind: served with `computed_at` and refreshed by a
    background task (labeling.services.queue.source_counts)."""

    project = models.OneToOneField(
        "labeling.Project", on_delete=models.CASCADE, related_name="source_counts"
    )
    computed_at = models.DateTimeField(null=True, blank=True)  # None: never computed
    duration_ms = models.PositiveIntegerField(default=0)
    requested_at = models.DateTimeField(null=True, blank=True)  # a refresh queued then
    labels_version = models.BigIntegerField(null=True, blank=True)
    # Moved by each assignment write (an upsert of this row); `computed_assignments` is its
    # value read before the rows were computed.
    assignments_version = models.BigIntegerField(default=0)
    computed_assignments = models.BigIntegerField(null=True, blank=True)
    # The non-gold solutions counted (the rows' total): whether the project is past the live
    # bound is read from here, not counted.
    solutions = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"Source counts of project {self.project_id} at {self.computed_at}"


class SourceCountRow(models.Model):
    """One problem source of a large project's non-gold solutions, as of its
    SourceCountsSnapshot: how many, how many still open, how many nobody is assigned."""

    project = models.ForeignKey("labeling.Project", on_delete=models.CASCADE, related_name="+")
    source = models.TextField()
    solutions = models.BigIntegerField()
    open = models.BigIntegerField()
    unassigned = models.BigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["project", "source"], name="source_count_unique")
        ]

    def __str__(self) -> str:
        return f"{self.source}: {self.solutions} in project {self.project_id}"
