"""The SQLite-file broker (the embedded stack's, kombu's SQLAlchemy transport) is used by two
threads of one worker: the main loop polls (`_get`) while billiard's pool thread sends back the
message of a task whose process was killed (acks_late + reject_on_worker_lost: `_restore` ->
`_put`). kombu's channel keeps one SQLAlchemy session for both; a `_put` during the poll's
commit raised IllegalStateChangeError in the main loop, a "Unrecoverable error" that stopped
the worker, and `make run`/bin/serve with it (found by SIGKILLing a machine worker's pool
process during an auto-label run). annotate.celery serializes the channel's session use."""

import threading

from kombu import Connection
from sqlalchemy import event

import annotate.celery  # noqa: F401  (installs the serialized channel)


def test_a_put_from_another_thread_waits_for_the_poll_commit(tmp_path):
    conn = Connection(f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}")
    channel = conn.channel()
    try:
        channel._new_queue("q")
        session = channel.session  # opened here, as the worker's main loop does before polling
        in_commit = threading.Event()
        put_done = threading.Event()
        errors: list[BaseException] = []

        @event.listens_for(session, "before_commit")
        def hold_the_commit(session):
            if threading.current_thread() is threading.main_thread() and not in_commit.is_set():
                in_commit.set()
                # Serialized, the other thread's put cannot finish while this commit runs.
                put_done.wait(timeout=1.0)

        def put():
            in_commit.wait(timeout=5)
            try:
                channel._put("q", {"body": "requeued"})
            except BaseException as e:  # noqa: BLE001 - the test reports what the thread raised
                errors.append(e)
            finally:
                put_done.set()

        thread = threading.Thread(target=put)
        thread.start()
        try:
            channel._get("q")
        except Exception as e:  # an empty queue raises Empty; the race raised something else
            assert type(e).__name__ == "Empty", repr(e)
        thread.join(timeout=10)

        assert not errors, errors
        assert channel._size("q") == 1
        assert channel._get("q") == {"body": "requeued"}
    finally:
        channel.close()
        conn.release()
