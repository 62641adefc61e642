"""Export snapshots: a training-set file built by a worker from a project's labels."""

from django.conf import settings
from django.db import models

from .project import Project


class ExportStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class ExportFormat(models.TextChoices):
    TRL = "trl", "TRL stepwise supervision"
    PRM800K = "prm800k", "PRM800K JSONL"
    MATH_SHEPHERD = "math_shepherd", "Math-Shepherd"
    PROCESSBENCH = "processbench", "ProcessBench"
    PAIRWISE = "pairwise", "Pairwise step preferences"
    DENSE_REWARDS = "dense_rewards", "Dense per-step rewards (RL episodes)"


class ExportFileType(models.TextChoices):
    JSONL = "jsonl", "JSON Lines"
    JSONL_GZ = "jsonl.gz", "JSON Lines, gzip"
    PARQUET = "parquet", "Parquet"


class Export(models.Model):
    """One export of a project: what was asked (format, filters, policies), how far the worker
    got, and the finished file with its sha256. Immutable once done; deleting removes the file.

    `filters`, `label_policy` and `split_policy` hold the normalized options (every default
    filled in, see labeling.exporters.options), so a later export with the same values
    produces the same bytes from the same data.
    """

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="exports")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Made by the server itself (a management command), not by a user since deleted: both
    # leave created_by NULL, and only the first acts with the server's privileges in a worker
    # (labeling.accounts.operators.job_actor).
    created_by_server = models.BooleanField(default=False)
    format = models.CharField(max_length=20, choices=ExportFormat.choices)
    file_type = models.CharField(
        max_length=10, choices=ExportFileType.choices, default=ExportFileType.JSONL
    )
    filters = models.JSONField(default=dict, blank=True)
    label_policy = models.JSONField(default=dict, blank=True)
    split_policy = models.JSONField(default=dict, blank=True)
    status = models.CharField(
        max_length=20, choices=ExportStatus.choices, default=ExportStatus.PENDING
    )
    # Progress: solutions read so far out of those that match the filters.
    solutions_total = models.PositiveIntegerField(default=0)
    solutions_done = models.PositiveIntegerField(default=0)
    # The result.
    row_count = models.PositiveIntegerField(default=0)
    step_count = models.PositiveBigIntegerField(default=0)
    stats = models.JSONField(default=dict, blank=True, help_text="Counts shown in the card.")
    sha256 = models.CharField(max_length=64, blank=True, help_text="Of the data file only.")
    size_bytes = models.PositiveBigIntegerField(default=0)
    file = models.FileField(upload_to="exports/", max_length=300, blank=True)
    card = models.TextField(blank=True, help_text="The dataset card (Markdown).")
    error = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="Last progress written by whoever builds it."
    )
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["project", "-id"], name="export_project_idx")]

    def __str__(self) -> str:
        return f"Export {self.pk} of {self.project_id} as {self.format} ({self.status})"


class HubTokenKind(models.TextChoices):
    """Whose token a push or a Hub import used (labeling.hub.connection.HubAuth); never the
    token itself."""

    USER = "user", "The user's own token"
    SERVER = "server", "The server's HF_TOKEN"
    GIVEN = "given", "A token given on the command line"
    NONE = "none", "No token"


class HubPush(models.Model):
    """One push of an export to a Hub dataset repo (labeling.hub.push), run by a worker."""

    export = models.ForeignKey(Export, on_delete=models.CASCADE, related_name="hub_pushes")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Made by the server itself (a management command), not by a user since deleted: both
    # leave created_by NULL, and only the first acts with the server's privileges in a worker
    # (labeling.accounts.operators.job_actor).
    created_by_server = models.BooleanField(default=False)
    repo_id = models.CharField(max_length=200)
    private = models.BooleanField(default=True)
    status = models.CharField(
        max_length=20, choices=ExportStatus.choices, default=ExportStatus.PENDING
    )
    revision = models.CharField(max_length=64, blank=True, help_text="The commit pushed.")
    tag = models.CharField(max_length=100, blank=True)
    url = models.CharField(max_length=500, blank=True)
    splits = models.JSONField(default=dict, blank=True, help_text="Rows per split pushed.")
    error = models.TextField(blank=True)
    token_kind = models.CharField(
        max_length=10,
        choices=HubTokenKind.choices,
        blank=True,
        help_text="Whose token the push used (empty until it runs); never the token.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"Push of export {self.export_id} to {self.repo_id} ({self.status})"
