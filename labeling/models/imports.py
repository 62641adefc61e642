from django.conf import settings
from django.db import models

from .project import STEP_TAG_MAX, Project, StepSplit


class ImportStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class ImportJob(models.Model):
    """An uploaded file being imported by a worker; the UI polls it for progress."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="imports")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    file = models.FileField(upload_to="imports/%Y/%m/", blank=True)
    # A Hub dataset's split to import (labeling.hub.pull.HubSource as a dict): the worker
    # fetches it into `file` first. Empty for an uploaded file.
    hub = models.JSONField(default=dict, blank=True)
    filename = models.CharField(max_length=300)
    format = models.CharField(max_length=30, default="auto")
    labels_as = models.CharField(max_length=20, default="suggestions")
    # The domain of rows that do not name one (a `mixed` project's dataset files); "" = none.
    domain = models.CharField(max_length=20, blank=True, default="")
    # Run the step-reference detector on solutions whose rows give no `uses`.
    detect_uses = models.BooleanField(default=True)
    # Problems that are near-duplicates of the project's or of earlier ones in the file:
    # "keep" (imported, reported) or "skip" (left out with their solutions, reported).
    near_duplicates = models.CharField(max_length=10, default="keep")
    # The step rule this import split one-string solutions by (the import's own, else the
    # project's at the time), with its regex or tag; "" for imports made before it was kept.
    step_split = models.CharField(max_length=20, choices=StepSplit.choices, blank=True)
    step_split_regex = models.CharField(max_length=500, blank=True)
    step_split_tag = models.CharField(max_length=STEP_TAG_MAX, blank=True)
    status = models.CharField(
        max_length=20, choices=ImportStatus.choices, default=ImportStatus.PENDING
    )
    bytes_total = models.PositiveBigIntegerField(default=0)
    bytes_done = models.PositiveBigIntegerField(default=0)
    rows_done = models.PositiveIntegerField(default=0)
    detected_format = models.CharField(max_length=30, blank=True)
    result = models.JSONField(default=dict, blank=True)
    error = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"Import {self.pk} of {self.filename} ({self.status})"
