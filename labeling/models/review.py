"""Review: resolved labels with provenance, reviewer actions, comment threads, gold labels.

Nothing here deletes a label. A new resolution supersedes the current one (`is_current`
moves), a rejected annotation keeps its labels and a new draft `revises` it.
"""

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from .annotation import Annotation
from .data import Solution, Step


class Provenance(models.TextChoices):
    REVIEWER = "reviewer", "Reviewer"
    HUMAN_CONSENSUS = "human_consensus", "Overlap annotators agreed"
    AUTO_CONSENSUS = "auto_consensus", "Machine sources agreed"


class ReviewActionKind(models.TextChoices):
    ACCEPT = "accept", "Accepted an annotation"
    REJECT = "reject", "Rejected an annotation"
    ADJUDICATE = "adjudicate", "Adjudicated per step"


class ReviewAction(models.Model):
    """One reviewer decision on a solution (accept / reject an annotation, or adjudicate)."""

    solution = models.ForeignKey(Solution, on_delete=models.CASCADE, related_name="reviews")
    annotation = models.ForeignKey(
        Annotation, null=True, blank=True, on_delete=models.PROTECT, related_name="reviews"
    )
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="review_actions"
    )
    action = models.CharField(max_length=20, choices=ReviewActionKind.choices)
    comment = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.action} on solution {self.solution_id} by {self.reviewer_id}"


class Resolution(models.Model):
    """A solution's resolved label. At most one is current; older ones stay, superseded."""

    solution = models.ForeignKey(Solution, on_delete=models.CASCADE, related_name="resolutions")
    provenance = models.CharField(max_length=20, choices=Provenance.choices)
    # 0-based index of the first step resolved −1; null when no step is wrong.
    first_error_index = models.PositiveIntegerField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="resolutions",
    )
    review = models.OneToOneField(
        ReviewAction, null=True, blank=True, on_delete=models.PROTECT, related_name="resolution"
    )
    annotations = models.ManyToManyField(Annotation, blank=True, related_name="resolutions")
    is_current = models.BooleanField(default=True)
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["solution"],
                condition=models.Q(is_current=True),
                name="resolution_one_current",
            )
        ]

    def __str__(self) -> str:
        return f"Resolution {self.pk} ({self.provenance}) of solution {self.solution_id}"


class ResolutionLabel(models.Model):
    resolution = models.ForeignKey(Resolution, on_delete=models.CASCADE, related_name="labels")
    step = models.ForeignKey(Step, on_delete=models.CASCADE, related_name="resolution_labels")
    rating = models.SmallIntegerField(null=True, blank=True)
    # The earlier steps (0-based) the resolved step uses, as the reviewer decided or as the
    # accepted / agreeing annotations marked them; null: not decided, the step's own stand.
    uses = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["resolution_id", "step__index"]
        constraints = [
            models.UniqueConstraint(fields=["resolution", "step"], name="resolutionlabel_unique")
        ]

    def __str__(self) -> str:
        return f"{self.rating} on {self.step_id} in resolution {self.resolution_id}"


class GoldLabel(models.Model):
    """The known rating of one step of a gold solution (`Solution.is_gold`)."""

    step = models.OneToOneField(Step, on_delete=models.CASCADE, related_name="gold")
    rating = models.SmallIntegerField(null=True, blank=True)
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"gold {self.rating} on step {self.step_id}"


class Comment(models.Model):
    """A message in a solution's thread, or in one step's thread when `step` is set."""

    solution = models.ForeignKey(Solution, on_delete=models.CASCADE, related_name="comments")
    step = models.ForeignKey(
        Step, null=True, blank=True, on_delete=models.CASCADE, related_name="comments"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="comments"
    )
    body = models.TextField()
    # Set on the comment a reviewer wrote when rejecting: the annotator sees it with the rework.
    review = models.OneToOneField(
        ReviewAction, null=True, blank=True, on_delete=models.CASCADE, related_name="comment_row"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["solution", "step"], name="comment_thread_idx")]

    def __str__(self) -> str:
        return f"Comment {self.pk} by {self.author_id} on solution {self.solution_id}"


class LabelAction(models.TextChoices):
    DRAFT = "draft", "Draft saved"
    SUBMIT = "submit", "Submitted"
    REWORK = "rework", "Copied into a rework draft after a rejection"
    RESOLVE = "resolve", "Resolved label set"
    WITHDRAW = "withdraw", "Resolution withdrawn (its annotation was rejected)"
    SPLIT = "split", "Step split in two by the annotator"
    MERGE = "merge", "Step merged with the next by the annotator"


class LabelHistory(models.Model):
    """An audit row per changed label: an annotation's StepLabel or a resolution's label.

    Written by the services that change labels (never by signals). `before`/`after` are the
    label's fields ({rating, unsure, comment, alternative_text}; {rating} for resolutions),
    null when the label did not exist / was removed from a draft.
    """

    annotation = models.ForeignKey(
        Annotation, null=True, blank=True, on_delete=models.CASCADE, related_name="history"
    )
    resolution = models.ForeignKey(
        Resolution, null=True, blank=True, on_delete=models.CASCADE, related_name="history"
    )
    # No index of its own: labelhistory_solution_idx (solution, id) serves it, one index fewer
    # for every history row a draft save or submit writes.
    solution = models.ForeignKey(
        Solution, on_delete=models.CASCADE, related_name="history", db_index=False
    )
    step = models.ForeignKey(Step, on_delete=models.CASCADE, related_name="history")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=20, choices=LabelAction.choices)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "label history"
        indexes = [models.Index(fields=["solution", "id"], name="labelhistory_solution_idx")]

    def __str__(self) -> str:
        return f"{self.action} on step {self.step_id}: {self.before} -> {self.after}"


class MetricsSnapshot(models.Model):
    """A project's metrics as last computed, and the project's metrics version they were
    computed at: served as they are while the version is unchanged (exact); behind it,
    computed again when small and cheap, else served with their age and refreshed by the
    task at a bounded rate (services/projects/metrics.py)."""

    project = models.OneToOneField(
        "labeling.Project", on_delete=models.CASCADE, related_name="metrics_snapshot"
    )
    data = models.JSONField(default=dict, encoder=DjangoJSONEncoder)
    computed_at = models.DateTimeField(null=True, blank=True)
    duration_ms = models.PositiveIntegerField(default=0)
    # When a refresh was last queued; a second request within the max age queues nothing.
    requested_at = models.DateTimeField(null=True, blank=True)
    # MetricsVersion's sum for the project, read before the metrics were computed (None: a
    # snapshot from before the versions, served by age only).
    labels_version = models.BigIntegerField(null=True, blank=True)
    # The partial aggregates' totals at labels_version (rater-pair confusions and step-rating
    # profiles, by rater id and domain) and when they were last rebuilt in full; None: none
    # yet, the next refresh rebuilds (labeling.services.projects.metrics_parts).
    partials = models.JSONField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Metrics of project {self.project_id} at {self.computed_at}"


class MetricsVersion(models.Model):
    """How many writes that change a project's metrics have committed, counted in a few rows
    per project (a connection's slot: its backend's pid modulo METRICS_VERSION_SLOTS) so that
    concurrent submits do not queue on one row lock held to their commits. The project's
    version is the sum of its rows: it moves with every committed bump, in any order
    (labeling.services.projects.metrics_version)."""

    project = models.ForeignKey(
        "labeling.Project", on_delete=models.CASCADE, related_name="metrics_versions"
    )
    slot = models.PositiveSmallIntegerField()
    bumps = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["project", "slot"], name="metrics_version_slot_uniq")
        ]

    def __str__(self) -> str:
        return f"Metrics version of project {self.project_id}, slot {self.slot}: {self.bumps}"
