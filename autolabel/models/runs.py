"""Auto-labeling runs: which sources ran over which solutions, with progress and errors."""

from django.conf import settings
from django.db import models

from labeling.models import Project, Solution


class RunStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    RUNNING = "running", "Running"
    PAUSED = "paused", "Paused"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"
    CANCELLED = "cancelled", "Cancelled"


class ItemStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class AutolabelRun(models.Model):
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="autolabel_runs")
    sources = models.JSONField(help_text='Engine names, e.g. ["answer", "symbolic"].')
    params = models.JSONField(default=dict, blank=True, help_text="Per-source parameters.")
    filter = models.JSONField(default=dict, blank=True, help_text="Which solutions to label.")
    status = models.CharField(max_length=20, choices=RunStatus.choices, default=RunStatus.PENDING)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    suggestions_written = models.PositiveIntegerField(default=0)
    errors = models.JSONField(default=list, blank=True, help_text="The first errors, for display.")
    error_groups = models.JSONField(
        default=list,
        blank=True,
        help_text='Failures by message, [{"error": ..., "count": n}], at most a few dozen.',
    )
    verdicts = models.JSONField(
        default=dict,
        blank=True,
        help_text='Suggestions written by verdict: {"+1", "0", "-1", "doubtful", "evidence": n}.',
    )
    rate = models.FloatField(
        null=True, blank=True, help_text="Solutions a second, smoothed over chunk completions."
    )
    rate_at = models.DateTimeField(
        null=True, blank=True, help_text="The last chunk completion the rate counts."
    )
    inline = models.BooleanField(
        default=False,
        help_text="Processed by the CLI in its own process (--inline), not by workers: the "
        "recovery sweep never sends it to them.",
    )
    prepared = models.BooleanField(
        default=True,
        db_default=True,
        help_text="Its items are all written. A run created over the API is not until its start "
        "task has written them (in the worker, not the request, in batches by solution id: "
        "autolabel.run_dispatch): `total` counts the items written so far until then.",
    )
    dispatched_to = models.BigIntegerField(
        default=0,
        db_default=0,  # a row written by code older than the field (a rolling deploy) has one
        help_text="The highest solution id sent to the workers in a chunk since the run was last "
        "started or resumed: the next chunk takes the pending items after it "
        "(autolabel.run_dispatch).",
    )
    dispatch_owed = models.PositiveIntegerField(
        default=0,
        db_default=0,
        help_text="Chunks the window is owed while the start still writes the items: chunks that "
        "ended with no written item left to send next; the start sends them after its next batch "
        "(autolabel.run_dispatch).",
    )
    dispatched_at = models.DateTimeField(
        null=True, blank=True, help_text="When a chunk was last sent: a sign of life."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"Run {self.pk} {self.sources} ({self.status})"


class AutolabelItem(models.Model):
    """One solution of a run. Marking it done once makes a redelivered chunk a no-op."""

    # No index of its own: the (run, solution) key leads with the run. A second index on the run
    # alone let the planner read a whole run's items to find a chunk's few.
    run = models.ForeignKey(
        AutolabelRun, on_delete=models.CASCADE, related_name="items", db_index=False
    )
    solution = models.ForeignKey(Solution, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=20, choices=ItemStatus.choices, default=ItemStatus.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    suggestions = models.PositiveIntegerField(default=0, help_text="Suggestions written.")
    error = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["run", "solution"], name="autolabelitem_unique")
        ]
        indexes = [
            models.Index(fields=["run", "status"], name="autolabelitem_status_idx"),
            # "Any pending item left?" after each chunk, and the next chunk's pending items
            # after the dispatch cursor (autolabel.run_dispatch): only pending rows, so either
            # stays one index probe however many of the run's items are done.
            models.Index(
                fields=["run", "solution"],
                condition=models.Q(status="pending"),
                name="autolabelitem_pending_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"Item {self.solution_id} of run {self.run_id} ({self.status})"


class RolloutCacheEntry(models.Model):
    """Rollouts sampled from one prompt prefix, so a repeated run does not resample.

    ``key`` hashes (completer, params, prefix_hash); ``correct`` holds the grading with the
    gold answer and grader version it was made against (autolabel.rollouts.db_cache).
    """

    key = models.CharField(max_length=64, unique=True)
    completer = models.CharField(max_length=300)
    params = models.JSONField(help_text="Sampling parameters.")
    prefix_hash = models.CharField(max_length=64, help_text="sha256 of the prompt text.")
    texts = models.JSONField(help_text="The sampled continuations.")
    correct = models.JSONField(help_text='{"gold": ..., "grader": ..., "values": [...]}.')
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Rollouts {self.key[:12]} from {self.completer}"
