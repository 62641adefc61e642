"""One migrated PostgreSQL template per pytest-xdist run, copied into each worker's database.

pytest-django gives each worker gwN its own test database (test_<name>_gwN) and, left alone,
each worker migrates it: every migration, once per worker, all at the same time on a machine
whose cores the workers share (about 10 s for one serial run here, 37 s each for four workers
at load 8). Here the first worker to get the lock migrates a template database
(test_<name>_tpl) once; every worker's database is then made with `CREATE DATABASE ... WITH
TEMPLATE` (Django's TEST["TEMPLATE"]), where Django's migrate finds nothing left to apply. The
controller drops the template when the run ends. A serial run, SQLite, --reuse-db and
--no-migrations keep pytest-django's own setup.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

READY = "django-db-template.ready"


def template_name(test_name: str) -> str:
    """test_<name>_tpl for test_<name> (a worker's test_<name>_gwN without its suffix)."""
    return f"{test_name}_tpl"


def use_template(*, run_dir: Path, worker: str, verbosity: int) -> None:
    """Make sure this run's template exists (the first worker here migrates it, the others wait
    for it), then have this worker's test database copied from it. `run_dir` is shared by the
    run's workers and by no other run (pytest's basetemp's parent)."""
    from django.conf import settings
    from django.db import connections

    connection = connections["default"]
    test = connection.settings_dict.setdefault("TEST", {})
    worker_name = test.get("NAME") or f"test_{connection.settings_dict['NAME']}_{worker}"
    template = template_name(worker_name.removesuffix(f"_{worker}"))
    with (run_dir / "django-db-template.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (run_dir / READY).exists():
            name = connection.settings_dict["NAME"]
            test["NAME"] = template
            try:
                # autoclobber: a template a killed run left behind is dropped and made again.
                connection.creation.create_test_db(
                    verbosity=verbosity, autoclobber=True, serialize=False
                )
            finally:
                connection.close()  # nobody may be connected to a template being copied
                connection.settings_dict["NAME"] = name
                settings.DATABASES["default"]["NAME"] = name
                test["NAME"] = worker_name
            (run_dir / READY).write_text(template)
    test["TEMPLATE"] = template


def drop_template() -> None:
    """In the controller at the end of a run: drop the template the workers copied, if any."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    if not db["ENGINE"].endswith("postgresql"):
        return
    import psycopg

    template = template_name(db.get("TEST", {}).get("NAME") or f"test_{db['NAME']}")
    params = {
        "host": db.get("HOST"),
        "port": db.get("PORT"),
        "user": db.get("USER"),
        "password": db.get("PASSWORD"),
    }
    given = {key: value for key, value in params.items() if value}
    with psycopg.connect(dbname="postgres", autocommit=True, **given) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{template}" WITH (FORCE)')


def worker_id() -> str:
    """gw0, gw1, ... in a pytest-xdist worker; empty in a serial run and in the controller."""
    return os.environ.get("PYTEST_XDIST_WORKER", "")
