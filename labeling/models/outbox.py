from django.conf import settings
from django.db import models
from django.db.models import Q


class OutboxMessage(models.Model):
    """A Celery task to send, written in the same transaction as the job row it starts.

    The job and its message commit together or not at all. After the commit the message is
    sent at once; while the broker (Redis) is down it stays unsent and the outbox sweep
    (labeling.services.jobs.outbox.outbox_drain, from beat) sends it once the broker is back.
    `idempotency_key` is the client's Idempotency-Key (or request_id): a retry with the same key
    answers the job the first request made instead of making another.
    """

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    queue = models.CharField(max_length=50, blank=True, help_text="Empty: CELERY_TASK_ROUTES.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    idempotency_key = models.CharField(max_length=100, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["created_by", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="outbox_one_job_per_idempotency_key",
            )
        ]
        indexes = [
            models.Index(
                fields=["created_at"], condition=Q(sent_at__isnull=True), name="outbox_unsent"
            )
        ]

    def __str__(self) -> str:
        return f"{self.task}{self.args} ({'sent' if self.sent_at else 'unsent'})"
