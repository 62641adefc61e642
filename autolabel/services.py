"""Auto-labeling runs: create, process a chunk of solutions, finish, pause, resume, cancel.

Every effect is idempotent so a redelivered chunk (a killed worker, acks_late) changes nothing
twice: suggestions are upserts keyed by (step, source, agent), an item is processed only while
pending, and the run's counters are added to only for items marked in that same transaction
while still pending (autolabel.run_progress).
"""

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Max, QuerySet
from django.utils import timezone

from autolabel.engines.base import EngineResult, SolutionInput
from autolabel.engines.prm import check_params as prm_check_params
from autolabel.limits import check_run_limits
from autolabel.models import AutolabelItem, AutolabelRun, ItemStatus, RunStatus
from autolabel.registry import ENGINES, PLUGINS
from autolabel.run_chunks import (
    autolabel_chunk_process,
    solution_input,
    suggestions_write,
)
from autolabel.run_dispatch import run_dispatch_owed, run_dispatch_start, run_items_write
from autolabel.run_progress import STOPPED, items_fail, run_finish_if_complete
from labeling.accounts.operators import job_actor
from labeling.errors import Conflict, ValidationFailed
from labeling.models import (
    DOMAIN_SOURCES,
    Domain,
    Project,
    Solution,
    sources_for_problem,
)
from labeling.pg.named_locks import named_xact_lock
from labeling.pg.opaque import opaque_id
from labeling.services.jobs.outbox import outbox_add
from labeling.services.jobs.quota import active_jobs_check
from training_runs.model_refs import check_backend, check_model_path, check_prm, trusted
from training_runs.models import PrmModel

log = logging.getLogger(__name__)
UNSTOPPED = (RunStatus.PENDING, RunStatus.RUNNING)
START_TASK = "autolabel.tasks.autolabel_run_start_task"


def _domains_for(sources: list[str], blank_domain: str = "") -> list[str] | None:
    """A many-domains project's problem domains some of these sources apply to ("" : none
    named, which are of `blank_domain`, the project's default, else get the sources every
    domain has); None: every domain (a plug-in that names no domains)."""
    plugins = [PLUGINS[s] for s in sources if s in PLUGINS]
    if any(not p.domains for p in plugins):
        return None
    domains = [
        d for d, own in DOMAIN_SOURCES.items() if d != Domain.MIXED and set(own) & {*sources}
    ]
    domains += [d for p in plugins for d in p.domains]
    if blank_domain:
        return domains + ([""] if blank_domain in domains else [])
    return domains + ([""] if set(sources_for_problem("", Domain.MIXED)) & {*sources} else [])


def project_sources(project: Project) -> list[str]:
    """The sources a run in this project may name: its domain's built-ins, then the engine
    plug-ins that apply to it (all of them in a many-domains project)."""
    plugins = [
        name
        for name, plugin in PLUGINS.items()
        if project.domain == Domain.MIXED or plugin.applies_to(project.domain)
    ]
    return [*project.domain_sources, *plugins]


def _solutions_for(project: Project, filter_: dict, sources: list[str]) -> QuerySet:
    # The project as an InitPlan parameter (labeling.pg.opaque): a project imported moments
    # ago has no statistics, and its start's batches (`id > after ORDER BY id LIMIT n`) were
    # planned as a walk of the project's solutions on project_id, each batch.
    qs = Solution.objects.filter(project_id=opaque_id(project.pk))
    domains = _domains_for(sources, project.blank_domain)
    if project.domain == Domain.MIXED and domains is not None:
        qs = qs.filter(problem__domain__in=domains)  # only solutions some source applies to
    if filter_.get("solution_ids"):
        qs = qs.filter(pk__in=filter_["solution_ids"])
    if filter_.get("only_unlabeled"):
        qs = qs.filter(submitted_count=0)
    if filter_.get("source"):
        qs = qs.filter(problem__source=filter_["source"])
    return qs.order_by("id").values_list("id", flat=True)


MODEL_SOURCES = ("rollout", "judge")


def _check_params(sources: list[str], params: dict, *, user: Any, project: Project) -> None:
    """Refuse a run whose model backend is missing or malformed, or that names a path, server
    or key variable the user may not (training_runs.model_refs), before any work is queued.
    A backend's paths are replaced by their resolved form, the one checked."""
    from autolabel.completers.config import validate_backend
    from autolabel.engines.checks import check_run_params

    try:
        check_run_params(sources, params)
    except KeyError as exc:
        raise ValidationFailed(f"params: {exc.args[0]}.", field="params") from exc
    except ValueError as exc:
        where = getattr(exc, "field", None) or str(exc).split(":", 1)[0]
        raise ValidationFailed(f"params.{exc}.", field=f"params.{where}") from exc
    for source in sources:
        own = params.get(source, {})
        if source in MODEL_SOURCES:
            try:
                validate_backend(own.get("backend"))
            except ValueError as exc:
                raise ValidationFailed(
                    f"params.{source}.backend: {exc}", field=f"params.{source}.backend"
                ) from exc
            backend = check_backend(
                own["backend"], user=user, project=project, field=f"params.{source}.backend"
            )
            params[source] = {**own, "backend": backend}
    check_run_limits(sources, params, user=user)


def _check_filter(filter_: dict) -> None:
    from autolabel.engines.checks import check_run_filter

    if not isinstance(filter_, dict):
        raise ValidationFailed("filter must be an object.", field="filter")
    try:
        check_run_filter(filter_)
    except ValueError as exc:
        where = str(exc).split(":", 1)[0]
        raise ValidationFailed(f"filter.{exc}.", field=f"filter.{where}") from exc


def _resolve_prm(project: Project, own: dict, *, user: Any) -> dict:
    """params.prm: a registered model (model_id) becomes its path and name; a path must hold a
    saved model (a public PRM on a vLLM server has a url instead). The engine then only ever
    sees a path or a url (engines do not touch the database). A path, url or key variable the
    user may not name is refused first (training_runs.model_refs), also a registered model's
    path when a non-staff user registered it (one registered before the policy existed)."""
    if not isinstance(own, dict):
        raise ValidationFailed("params.prm must be an object.", field="params.prm")
    own = check_prm(own, user=user, project=project, field="params.prm")
    if "model_id" in own:
        model_id = own["model_id"]
        model = None
        if isinstance(model_id, int) and not isinstance(model_id, bool):
            # Locked: the model is not deleted under the run being created (prm_model_delete).
            models = PrmModel.objects.select_for_update()
            model = models.filter(project=project, pk=model_id).first()
        if model is None:
            raise ValidationFailed(
                f"params.prm.model_id: no model {own['model_id']!r} in this project.",
                field="params.prm.model_id",
            )
        path = model.path
        if not trusted(job_actor(model)):  # a creator deleted since is nobody, not the server
            path = check_model_path(path, user=user, project=project, field="params.prm.model_id")
        own.update(path=path, model=model.name)
    elif (
        own.get("backend", "transformers") == "transformers"
        and isinstance(own.get("path"), str)
        and not (Path(own["path"]) / "config.json").is_file()
    ):
        raise ValidationFailed(
            f"params.prm.path: {own['path']} is not a saved model directory.",
            field="params.prm.path",
        )
    try:
        prm_check_params(own)
    except ValueError as exc:
        raise ValidationFailed(f"params.prm: {exc}", field="params.prm") from exc
    return own


@transaction.atomic
def autolabel_run_create(
    *,
    project: Project,
    sources: list[str],
    created_by=None,
    params: dict | None = None,
    filter: dict | None = None,  # noqa: A002 - the run's field name
    prepare_later: bool = False,
) -> AutolabelRun:
    """Check and create a run, and write its items (one per matching solution) now or, with
    `prepare_later` (the API), in its start task (`autolabel_run_start`), so the request
    answers in the same time whatever the project's size."""
    unknown = [s for s in sources if s not in ENGINES]
    if not sources or unknown:
        raise ValidationFailed(
            f"Unknown or missing sources {unknown}; available: {sorted(ENGINES)}.", field="sources"
        )
    allowed = project_sources(project)
    refused = [s for s in sources if s not in allowed]
    if refused:
        raise ValidationFailed(
            f"Source {', '.join(refused)} does not apply to "
            f"{'an' if project.domain[:1] in 'aeiou' else 'a'} {project.domain} project; "
            f"its sources are {', '.join(allowed)}.",
            field="sources",
        )
    params = dict(params or {})
    _check_params(sources, params, user=created_by, project=project)
    _check_filter(filter or {})
    if "prm" in sources:
        params["prm"] = _resolve_prm(project, params.get("prm", {}), user=created_by)
    unfinished = AutolabelRun.objects.filter(
        project=project, status__in=(RunStatus.PENDING, RunStatus.RUNNING, RunStatus.PAUSED)
    )
    active_jobs_check(
        project_id=project.pk, kind="autolabel_runs", unfinished=unfinished, user=created_by
    )
    run = AutolabelRun.objects.create(
        project=project,
        sources=list(dict.fromkeys(sources)),
        params=params,
        filter=filter or {},
        created_by=created_by,
        prepared=not prepare_later,
    )
    if not prepare_later:
        run.total, _ = run_items_write(
            run=run, solution_ids=_solutions_for(project, run.filter, run.sources)
        )
        run.save(update_fields=["total"])
    return run


PREPARE_BATCH = 10_000


def prepare_batch_size() -> int:
    """Items a start writes per transaction (AUTOLABEL_PREPARE_BATCH)."""
    return max(1, int(getattr(settings, "AUTOLABEL_PREPARE_BATCH", PREPARE_BATCH)))


def autolabel_run_prepare_batch(*, run: AutolabelRun) -> bool:
    """Write the next batch of the items of a run created with `prepare_later` (its start
    task): the matching solutions after the highest solution id it has an item for, at most
    `prepare_batch_size()`, its `total` counted up and, after the last batch, `prepared` set,
    in one short transaction. Returns whether more may be left to write: not after the last
    batch, nor for a prepared run or one paused or cancelled (a pause stops the write; its
    resume's start goes on from where it stopped). Written by the database: no solution id
    passes through this process.

    Each batch goes on from the items committed, so a start killed mid-write and sent again
    (the recovery sweep) writes no item twice, and two starts at once write each batch once
    (a lock named by the run; and the (run, solution) key). The run's row is updated last, so
    a pause or cancel waits at most for the end of one batch (their FOR NO KEY UPDATE does
    not wait for the items' foreign-key checks, which take FOR KEY SHARE on it)."""
    size = prepare_batch_size()
    with transaction.atomic():
        named_xact_lock(f"autolabel-run-prepare:{run.pk}")
        row = AutolabelRun.objects.filter(pk=run.pk).values("prepared", "status").first()
        if row is None or row["prepared"] or row["status"] not in UNSTOPPED:
            return False
        after = AutolabelItem.objects.filter(run_id=run.pk).aggregate(last=Max("solution_id"))
        # On PostgreSQL the items' key checks now, not at the commit after the UPDATE below
        # (whose row lock a pause would wait for), then Django's deferred checks again.
        postgres = connection.vendor == "postgresql"
        with connection.cursor() as cursor:
            if postgres:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            written, listed = run_items_write(
                run=run,
                solution_ids=_solutions_for(run.project, run.filter, run.sources),
                after=after["last"] or 0,
                limit=size,
            )
            if postgres:
                cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        last = listed < size
        AutolabelRun.objects.filter(pk=run.pk).update(total=F("total") + written, prepared=last)
    return not last


def autolabel_run_prepare(*, run: AutolabelRun) -> AutolabelRun:
    """Write all the items of a run created with `prepare_later` still to write (batch after
    batch: `autolabel_run_prepare_batch`). Nothing for a cancelled run; a paused one is
    prepared by its resume's start."""
    while autolabel_run_prepare_batch(run=run):
        pass
    run.refresh_from_db(fields=["status", "total", "prepared"])  # its cached project kept
    return run


def autolabel_run_start(
    *, run: AutolabelRun, size: int, send: Callable[[list[list[int]]], None]
) -> int:
    """A run's start (its start task; sent again by a resume or the recovery sweep): the
    first batch of its items written (a run created over the API), the first window of its
    chunks sent (autolabel.run_dispatch), then the rest of the items written batch by batch,
    each followed by the chunks the window is owed; the run finished if nothing is left.
    `send` sends chunks to the workers. Returns the chunks sent."""
    more = autolabel_run_prepare_batch(run=run)
    chunks = run_dispatch_start(run=run, size=size)
    send(chunks)
    sent = len(chunks)
    while more:
        more = autolabel_run_prepare_batch(run=run)
        owed = run_dispatch_owed(run=run, size=size)
        send(owed)
        sent += len(owed)
    autolabel_run_refresh(run=run)
    return sent


def autolabel_run_chunks(*, run: AutolabelRun, size: int = 20) -> list[list[int]]:
    """Pending solution ids in chunks, all at once, for a process that runs them itself (the
    CLI's --inline; the workers take them a window at a time: autolabel.run_dispatch); writes
    the items of a run created with `prepare_later`, and marks the run running."""
    autolabel_run_prepare(run=run)
    AutolabelRun.objects.filter(pk=run.pk, status=RunStatus.PENDING).update(
        status=RunStatus.RUNNING, started_at=timezone.now()
    )
    ids = list(
        run.items.filter(status=ItemStatus.PENDING)
        .order_by("solution_id")
        .values_list("solution_id", flat=True)
    )
    return [ids[i : i + size] for i in range(0, len(ids), size)]


def _solution_input(solution: Solution) -> SolutionInput:
    steps = list(solution.steps.order_by("index").values_list("id", "text", "metadata"))
    return solution_input(solution, steps)


def suggestions_upsert(*, solution: Solution, result: EngineResult) -> int:
    """Write an engine's suggestions for one solution; re-running overwrites, never duplicates
    (autolabel.run_chunks.suggestions_write, which a chunk calls for all its solutions)."""
    step_ids = dict(solution.steps.values_list("index", "id"))
    return suggestions_write([(solution, step_ids, [result])])[0]


def autolabel_item_process(*, run: AutolabelRun, solution_id: int) -> AutolabelItem | None:
    """Run every source of the run on one solution. A no-op unless the item is pending."""
    items = autolabel_chunk_process(run=run, solution_ids=[solution_id])
    return items[0] if items else None


def autolabel_item_fail(*, run: AutolabelRun, solution_ids: list[int], error: str) -> None:
    """Give up on items after their task exhausted its retries (e.g. a backend that is down)."""
    items_fail(run=run, solution_ids=solution_ids, error=error)


def autolabel_run_refresh(*, run: AutolabelRun) -> AutolabelRun:
    """Finish the run when none of its items is pending, and re-read it.

    The counters are not recounted: each chunk added its own in the transaction that marked
    its items (autolabel.run_progress), so this is one keyed lookup, whatever the run's size."""
    run_finish_if_complete(run=run)
    run.refresh_from_db()
    return run


def autolabel_run_stopped(*, run: AutolabelRun) -> bool:
    """Paused or cancelled: its chunks leave their remaining items pending."""
    return AutolabelRun.objects.filter(pk=run.pk, status__in=STOPPED).exists()


def autolabel_run_cancelled(*, run: AutolabelRun) -> bool:
    return AutolabelRun.objects.filter(pk=run.pk, status=RunStatus.CANCELLED).exists()


def _locked(run: AutolabelRun) -> AutolabelRun:
    """The run's row, locked for a change of its status: FOR NO KEY UPDATE, which its items'
    foreign-key checks (FOR KEY SHARE, while a start writes them) do not hold up."""
    return AutolabelRun.objects.select_for_update(no_key=True).get(pk=run.pk)


@transaction.atomic
def autolabel_run_pause(*, run: AutolabelRun) -> AutolabelRun:
    """Stop sending chunks: a chunk that starts now leaves its items pending, one running
    stops within about a second. Pausing a paused run changes nothing."""
    run = _locked(run)
    if run.status == RunStatus.PAUSED:
        return run
    if run.status not in (RunStatus.PENDING, RunStatus.RUNNING):
        raise Conflict(f"The run is already {run.status}; only a queued or running run pauses.")
    run.status = RunStatus.PAUSED
    run.save(update_fields=["status"])
    return run


@transaction.atomic
def autolabel_run_resume(*, run: AutolabelRun) -> AutolabelRun:
    """Send the pending items again as chunks to the workers (after the commit, through the
    outbox; a CLI --inline run, which stopped at the pause, too). The rate goes on from now,
    not counting the pause. Resuming an unpaused run changes nothing."""
    run = _locked(run)
    if run.status in (RunStatus.PENDING, RunStatus.RUNNING):
        return run
    if run.status != RunStatus.PAUSED:
        raise Conflict(f"The run is {run.status}; only a paused run resumes.")
    run.status = RunStatus.RUNNING if run.started_at else RunStatus.PENDING
    run.rate_at = timezone.now() if run.started_at else None
    run.inline = False  # a CLI --inline run stopped at the pause: the workers finish it
    run.save(update_fields=["status", "rate_at", "inline"])
    outbox_add(task=START_TASK, args=[run.pk], created_by=run.created_by)
    return run


@transaction.atomic
def autolabel_run_cancel(*, run: AutolabelRun) -> AutolabelRun:
    """Stop for good (also a paused run); its items left pending stay so. Cancelling a
    cancelled run changes nothing."""
    run = _locked(run)
    if run.status == RunStatus.CANCELLED:
        return run
    if run.status not in (RunStatus.PENDING, RunStatus.RUNNING, RunStatus.PAUSED):
        raise Conflict(f"The run is already {run.status}.")
    AutolabelRun.objects.filter(pk=run.pk).update(
        status=RunStatus.CANCELLED, finished_at=timezone.now()
    )
    run.refresh_from_db()
    return run
