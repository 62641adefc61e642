"""The outbox on `make run`'s broker: a SQLite file through kombu's SQLAlchemy transport.

That transport hands its transport options to SQLAlchemy's create_engine and caches the engine
per process, so the Redis socket timeouts the outbox adds to its connection made create_engine
refuse (TypeError) wherever the outbox's send was the process's first broker connection: the
web process's every send failed and each job (an auto-label run, an export, an import) waited
for beat's sweep. Here the engine cache starts empty, as in a fresh web process.
"""

import logging
import sqlite3
from unittest import mock

import pytest
from kombu.transport import sqlalchemy as kombu_sqlalchemy

from annotate.celery import app
from labeling.models import OutboxMessage
from labeling.services.jobs.outbox import PUBLISH_TIMEOUTS, outbox_send, publish_options

pytestmark = pytest.mark.django_db


@pytest.fixture
def sqlite_broker(tmp_path):
    url = f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}"
    saved = app.conf.broker_url, app.conf.broker_transport_options
    app.conf.broker_url, app.conf.broker_transport_options = url, {}
    try:
        with mock.patch.dict(kombu_sqlalchemy.Channel._engines, clear=True):
            yield tmp_path / "broker.sqlite3"
    finally:
        app.conf.broker_url, app.conf.broker_transport_options = saved


def test_a_send_as_a_fresh_process_first_connection_reaches_the_sqlite_broker(
    sqlite_broker, caplog
):
    message = OutboxMessage.objects.create(task="labeling.tasks.outbox_drain_task", args=[])
    with caplog.at_level(logging.WARNING, logger="labeling.services.jobs.outbox"):
        assert outbox_send(message_id=message.pk) is True
    assert not [r for r in caplog.records if "unsent" in r.getMessage()]
    message.refresh_from_db()
    assert message.sent_at is not None and message.last_error == ""
    with sqlite3.connect(sqlite_broker) as db:
        (queued,) = db.execute("SELECT count(*) FROM kombu_message").fetchone()
    assert queued == 1


@pytest.mark.parametrize(
    ("url", "timeouts"),
    [
        ("redis://127.0.0.1:6379/0", True),
        ("rediss://cache.example:6380/1", True),
        ("sentinel://127.0.0.1:26379", True),
        ("sqla+sqlite:///var/broker.sqlite3", False),
        ("memory://", False),
    ],
)
def test_socket_timeouts_go_only_to_brokers_that_take_them(url, timeouts):
    options = publish_options(url, {"visibility_timeout": 60})
    assert options["visibility_timeout"] == 60
    assert all((options.get(k) == v) is timeouts for k, v in PUBLISH_TIMEOUTS.items())
