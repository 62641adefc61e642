"""PRM training runs, the PRMs they produce, and the queue priority those PRMs drive.

The models moved here from autolabel (migration training_runs 0001); their tables kept their
names (`db_table`), so the rows never moved.
"""

from django.conf import settings
from django.db import models

from labeling.models import Export, Project


class TrainingStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"
    CANCELLED = "cancelled", "Cancelled"


class TrainingRun(models.Model):
    """One `python -m training.train` run over a TRL export, executed on the `gpu` queue.

    `worker` and `heartbeat_at` form a lease: the process running the trainer refreshes the
    heartbeat while it streams progress, so a redelivered task sees a live run and leaves it
    alone, and takes over only a run whose heartbeat went stale (training_runs.execution).
    """

    FINISHED = (TrainingStatus.DONE, TrainingStatus.FAILED, TrainingStatus.CANCELLED)

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="training_runs")
    export = models.ForeignKey(
        Export, null=True, on_delete=models.SET_NULL, related_name="training_runs"
    )
    base_model = models.CharField(max_length=1000, help_text="Checkpoint directory trained from.")
    config = models.JSONField(default=dict, blank=True, help_text="TrainConfig settings.")
    status = models.CharField(
        max_length=20, choices=TrainingStatus.choices, default=TrainingStatus.PENDING
    )
    step = models.PositiveIntegerField(default=0, help_text="Optimizer steps done.")
    total_steps = models.PositiveIntegerField(default=0)
    metrics = models.JSONField(
        default=dict, blank=True, help_text="The latest metrics.jsonl record of each split."
    )
    history = models.JSONField(default=list, blank=True, help_text="metrics.jsonl records.")
    log_tail = models.TextField(blank=True)
    artifact_path = models.CharField(max_length=1000, blank=True)
    error = models.TextField(blank=True)
    worker = models.CharField(max_length=200, blank=True, help_text="host:pid running it.")
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Made by the server itself (a management command), not by a user since deleted: both
    # leave created_by NULL, and only the first acts with the server's privileges in a worker
    # (labeling.accounts.operators.job_actor).
    created_by_server = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "autolabel_trainingrun"
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"Training run {self.pk} of project {self.project_id} ({self.status})"

    @property
    def progress(self) -> float:
        if self.status == TrainingStatus.DONE:
            return 1.0
        return round(self.step / self.total_steps, 4) if self.total_steps else 0.0


class PrmKind(models.TextChoices):
    """How the PRM was trained; read from its directory (training.scorers.prm_kind)."""

    POINTWISE = "pointwise", "Pointwise: step labels, cross-entropy"
    PAIRWISE = "pairwise", "Pairwise: step preferences, Bradley-Terry"
    IMPLICIT = "implicit", "Implicit: outcome labels, log-likelihood ratio"


class PrmModel(models.Model):
    """A trained PRM the app can score with: from a TrainingRun, or registered by path."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="prm_models")
    name = models.CharField(max_length=200)
    path = models.CharField(max_length=1000, help_text="Directory with the saved PRM.")
    training_run = models.OneToOneField(
        TrainingRun, null=True, blank=True, on_delete=models.SET_NULL, related_name="prm_model"
    )
    base_model = models.CharField(max_length=1000, blank=True)
    kind = models.CharField(max_length=20, choices=PrmKind.choices, default=PrmKind.POINTWISE)
    metrics = models.JSONField(default=dict, blank=True, help_text="Evaluation metrics.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Made by the server itself (a management command), not by a user since deleted: both
    # leave created_by NULL, and only the first acts with the server's privileges in a worker
    # (labeling.accounts.operators.job_actor).
    created_by_server = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "autolabel_prmmodel"
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["project", "name"], name="prmmodel_unique_name")
        ]

    def __str__(self) -> str:
        return f"PRM {self.name} ({self.path})"


class QueueOrder(models.TextChoices):
    DEFAULT = "default", "Default: finish started solutions first"
    PRM_ACTIVE = "prm_active", "Active learning: convincing wrong answers, then least certain"


class QueuePriority(models.Model):
    """A project's opt-in claim order, read by labeling.services.queue.claim through its hook."""

    project = models.OneToOneField(Project, on_delete=models.CASCADE, related_name="queue_priority")
    order = models.CharField(max_length=20, choices=QueueOrder.choices, default=QueueOrder.DEFAULT)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "autolabel_queuepriority"

    def __str__(self) -> str:
        return f"Queue order of project {self.project_id}: {self.order}"
