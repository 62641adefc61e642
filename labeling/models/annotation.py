"""One annotator's labels on one solution."""

from django.conf import settings
from django.db import models

from .data import Solution, Step


class AnnotationStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    SUBMITTED = "submitted", "Submitted"
    DISCARDED = "discarded", "Discarded"
    # A reviewer sent it back: its labels stay as they were; a new draft `revises` it.
    REJECTED = "rejected", "Rejected by a reviewer"


class FinishReason(models.TextChoices):
    SOLUTION = "solution", "Reached the end of the solution"
    FOUND_ERROR = "found_error", "Stopped at the first wrong step"
    GIVE_UP = "give_up", "Gave up"
    BAD_PROBLEM = "bad_problem", "Bad problem"


class Annotation(models.Model):
    solution = models.ForeignKey(Solution, on_delete=models.CASCADE, related_name="annotations")
    # Null for labels imported from a dataset; `external_annotator` then names the labeler.
    annotator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="annotations",
    )
    external_annotator = models.CharField(max_length=200, blank=True)
    status = models.CharField(
        max_length=20, choices=AnnotationStatus.choices, default=AnnotationStatus.DRAFT
    )
    finish_reason = models.CharField(max_length=20, choices=FinishReason.choices, blank=True)
    finish_reason_text = models.TextField(blank=True)
    time_spent_ms = models.PositiveBigIntegerField(default=0)
    # Optimistic concurrency: every save names the version it read; a stale one is refused.
    version = models.PositiveIntegerField(default=1)
    # The client's id of the last write applied (draft save, submit, skip). A retry whose
    # response was lost carries the same id and is answered as a success, not a false 409.
    last_request_id = models.UUIDField(null=True, blank=True, editable=False)
    imported = models.BooleanField(default=False)
    # The machine suggestions the annotator was shown ({step_id, source, agent, value, score}),
    # so agreement with each source can be measured; empty for blind projects.
    shown_suggestions = models.JSONField(default=list, blank=True)
    # Rework after a rejection: the rejected annotation this draft replaces (labels copied).
    revises = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="revised_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    submitted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["solution", "annotator"],
                condition=models.Q(annotator__isnull=False)
                & ~models.Q(status__in=["discarded", "rejected"]),
                name="annotation_one_live_per_annotator",
            )
        ]
        indexes = [
            models.Index(fields=["annotator", "status"], name="annotation_annotator_idx"),
            models.Index(fields=["solution", "status"], name="annotation_solution_idx"),
        ]

    def __str__(self) -> str:
        return f"Annotation {self.pk} ({self.status}) of solution {self.solution_id}"


class StepLabel(models.Model):
    annotation = models.ForeignKey(Annotation, on_delete=models.CASCADE, related_name="labels")
    step = models.ForeignKey(Step, on_delete=models.CASCADE, related_name="labels")
    rating = models.SmallIntegerField(null=True, blank=True, help_text="−1, 0 or +1; null unrated.")
    unsure = models.BooleanField(default=False)
    comment = models.TextField(blank=True)
    alternative_text = models.TextField(blank=True)
    # The earlier steps (0-based indices) the annotator says this step uses; null: they did
    # not mark any, so the step's own `uses` (imported or detected) stands.
    uses = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["annotation_id", "step__index"]
        constraints = [
            models.UniqueConstraint(fields=["annotation", "step"], name="steplabel_unique_step"),
            models.CheckConstraint(
                condition=models.Q(rating__isnull=True) | models.Q(rating__in=[-1, 0, 1]),
                name="steplabel_rating_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rating} on {self.step}"
