from pathlib import Path

import pytest
from django.db import connection

from tests import xdist_db
from tests.factories import MembershipFactory, ProjectFactory, UserFactory

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
PROCESSBENCH = SHARED_DATA / "processbench_sample.jsonl"


# Directories whose session fixtures build tiny models or start `transformers serve`: under
# pytest-xdist their tests go to one worker together (--dist loadgroup), so each fixture is
# built once per run, not once per worker (tests/autolabel_rollouts summed 158 s serially and
# 1,657 s over four workers, each starting its own server at once).
SESSION_MODEL_GROUPS = {"autolabel_rollouts": "tiny-models", "search": "tiny-models"}


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]):
    """The groups' markers before every other plugin's hook (pytest-xdist's worker reads them
    in its own), their node ids checked after (_group_node_ids)."""
    xdist = config.pluginmanager.hasplugin("xdist")
    if xdist:
        here = Path(__file__).parent
        for item in items:
            parts = item.path.relative_to(here).parts if here in item.path.parents else ("",)
            if group := SESSION_MODEL_GROUPS.get(parts[0]):
                item.add_marker(pytest.mark.xdist_group(group))
    result = yield
    if getattr(config.option, "loadgroup", False):  # a worker of a --dist loadgroup run
        _group_node_ids(items)
    from django.conf import settings

    on_postgres = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
    if not on_postgres:
        skip = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL); CI runs it there")
        for item in items:
            if "postgres" in item.keywords:
                item.add_marker(skip)
    return result


def _group_node_ids(items: list[pytest.Item]) -> None:
    """`--dist loadgroup` schedules by node id: pytest-xdist 3.8's worker appends "@<group>" to
    an xdist_group item's id by setting `item._nodeid`, which pytest 9 no longer reads (a node's
    id is `item._id`). So no group ever held together: every worker that got a test of
    tests/autolabel_rollouts trained its own tiny model, four at once. Where the suffix is
    missing, it is put on the id pytest 9 reads."""
    from _pytest.nodeid import NodeId

    for item in items:
        names = sorted(
            {
                str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                for m in item.iter_markers("xdist_group")
            }
        )
        suffix = f"@{'_'.join(names)}"
        if names and not item.nodeid.endswith(suffix) and hasattr(item, "_id"):
            item._id = NodeId.parse(f"{item.nodeid}{suffix}")


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        xdist_db.drop_template()  # the controller of a pytest-xdist run


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix,
    django_db_blocker,
    django_db_keepdb: bool,
    django_db_use_migrations: bool,
    tmp_path_factory: pytest.TempPathFactory,
    request: pytest.FixtureRequest,
) -> None:
    """Under pytest-xdist on PostgreSQL, each worker's test database is a copy of one template
    migrated once per run (tests/xdist_db.py), not migrated by every worker at once."""
    worker = xdist_db.worker_id()
    if not worker or connection.vendor != "postgresql":
        return
    if django_db_keepdb or not django_db_use_migrations:
        return
    with django_db_blocker.unblock():
        xdist_db.use_template(
            run_dir=tmp_path_factory.getbasetemp().parent,
            worker=worker,
            verbosity=max(0, request.config.option.verbose),
        )


@pytest.fixture(scope="session", autouse=True)
def _transactional_flush_by_delete():
    """A transactional test (`transaction=True`, live_server, a worker) ends with Django's
    `flush`, on PostgreSQL one TRUNCATE of every table: a new file per table and index,
    synced at commit, about 0.5-1.5 s per test on a busy two-core machine, for tables that
    hold a few rows. Here the flush DELETEs them instead, in the same transaction (every
    foreign key is DEFERRABLE, checked at commit): the same empty tables, same sequences
    (TRUNCATE without RESTART IDENTITY keeps them too), the post_migrate rows made again as
    before. It first takes the lock TRUNCATE takes (ACCESS EXCLUSIVE on every table), so a
    request or thread the test left running is waited for as before, not deadlocked with
    row by row. A flush that resets sequences or cascades is left as Django writes it."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade or not tables:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        names = [self.quote_name(table) for table in tables]
        lock = f"LOCK TABLE {', '.join(names)} IN ACCESS EXCLUSIVE MODE;"
        return ["SET CONSTRAINTS ALL DEFERRED;", lock, *(f"DELETE FROM {n};" for n in names)]

    DatabaseOperations.sql_flush = sql_flush
    yield
    DatabaseOperations.sql_flush = truncate


@pytest.fixture(scope="module")
def vacuumed_database(django_db_setup, django_db_blocker):
    """For a module that asserts on PostgreSQL's plans: the test database VACUUMed and
    ANALYZEd before its first test. A transactional test's flush DELETEs (above), and a
    rolled-back test leaves its rows' versions too: dead rows and index entries stay in the
    files until a VACUUM (autovacuum may not run in time), so what a plan costs would depend
    on which tests ran on this database before, an xdist worker's order being another than
    a serial run's."""
    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


@pytest.fixture(autouse=True)
def _symbolic_kinds_all_earned(monkeypatch):
    """Every symbolic claim kind refutes in tests (autolabel/calibration/kinds.py), so the
    checker's tests do not hang on the dev-set numbers; the gating tests turn this off and
    write a table of their own."""
    from autolabel.calibration import kinds

    monkeypatch.setattr(kinds, "assume_all_earned", True)


@pytest.fixture(autouse=True)
def _claim_orders_fresh():
    """Each test reads its projects' claim order anew (a web process keeps it 2 s: a
    rolled-back test's project id can come back in the next test on SQLite)."""
    from training_runs.active_learning import queue_orders_forget

    queue_orders_forget()


@pytest.fixture
def on_postgres() -> bool:
    return connection.vendor == "postgresql"


@pytest.fixture
def project(db):
    return ProjectFactory()


@pytest.fixture
def annotator(project):
    user = UserFactory(username="ann")
    MembershipFactory(project=project, user=user, role="annotator")
    return user


@pytest.fixture
def celery_worker_live(transactional_db):
    """A real Celery worker thread (on Redis when REDIS_URL is set) for one test: the short
    tasks' queue and the auto-label chunks' (annotate.queues)."""
    from celery.contrib.testing.worker import start_worker

    from annotate.celery import app
    from annotate.queues import Queue

    with start_worker(
        app,
        pool="solo",
        concurrency=1,
        perform_ping_check=False,
        shutdown_timeout=10,
        queues=[Queue.DEFAULT.value, Queue.AUTOLABEL.value],
    ) as worker:
        yield worker


@pytest.fixture
def pb_project(db):
    """A project with the 100 real ProcessBench solutions, no labels imported."""
    from labeling.services.imports import import_file

    project = ProjectFactory(name="PB")
    import_file(project=project, path=PROCESSBENCH, fmt="processbench", labels_as="none")
    admin = UserFactory(username="runadmin")
    MembershipFactory(project=project, user=admin, role="admin")
    project.admin = admin
    return project
