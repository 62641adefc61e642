"""The Celery app. Queues are named in `annotate.queues.Queue`; workers of machine queues run
at a lower OS priority (annotate.worker_priority)."""

import os

from celery import Celery
from kombu.transport import sqlalchemy as kombu_sqlalchemy

from annotate import sqla_broker

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annotate.settings.local")

# The SQLite-file broker polls once a second by default; putting polling_interval in
# broker_transport_options crashes it (it is passed to create_engine), the class attribute works.
kombu_sqlalchemy.Transport.polling_interval = 0.05
# ... and its channels' one session is used by one thread at a time (a killed pool process's
# requeue ran beside the poll and stopped the worker): annotate.sqla_broker.
sqla_broker.install()

app = Celery("steplab")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Workers of machine queues lower their own OS priority as they start (MACHINE_WORKER_NICE).
from annotate import worker_priority  # noqa: E402, F401
