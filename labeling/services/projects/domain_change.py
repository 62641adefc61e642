"""A project's domain changed: a fixed number of statements in the request, whatever its size.

A problem that names no domain (blank) is of its project's default: the project's domain, or
in a many-domains (`mixed`) project its `blank_domain`, the domain it had before it became
many-domains (`labeling.models.problem_domain`; every reader: the labeling and review pages,
the review queue's filter, the auto-label runs, the exports, the metrics per domain).

- One domain -> many: `blank_domain` is the old domain; no problem is written.
- Many -> one: refused while problems name another domain, or while blank ones are of
  another default (each an index probe on problem_domain_idx, the refusal counting at most
  COUNT_CAP); `blank_domain` goes back to blank. Problems that name the new domain mean the
  same as blank ones; a background job (`problem_domains_clear`) blanks them, batch by batch,
  so that a later change of the domain carries them.
- One domain -> another: refused while problems still name the old one (that job's pending
  work), else nothing to write: they are all blank.
"""

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from labeling.errors import ValidationFailed
from labeling.models import Domain, Problem, Project
from labeling.services.jobs.outbox import outbox_add

CLEAR_TASK = "labeling.tasks.problem_domains_clear_task"

COUNT_CAP = 1000  # problems a refusal counts at most

BATCH = 5000  # problems per transaction of the clear (SQLite caps a statement's parameters)


def _named(project: Project) -> QuerySet[Problem]:
    """Problems that name a domain: a range (domain > '') of the (project, domain) index."""
    return Problem.objects.filter(project=project, domain__gt="")


def _count_upto(*parts: QuerySet) -> str:
    """How many rows the querysets hold together, counted up to COUNT_CAP each."""
    cap = COUNT_CAP
    n = sum(qs.order_by().values("pk")[:cap].count() for qs in parts)
    return f"{cap}+" if n >= cap else str(n)


def _leave_mixed(*, project: Project) -> list[str]:
    new = project.domain
    # Two ranges of the index ('' < domain < new, domain > new), each probed on its own: one
    # probe of both with an OR could walk the new domain's entries in between, all of them.
    others = [_named(project).filter(domain__lt=new), _named(project).filter(domain__gt=new)]
    if any(qs.exists() for qs in others):
        raise ValidationFailed(
            f"{_count_upto(*others)} problems name another domain than {new!r}; a project of "
            "one domain cannot hold them (keep it many-domains, or move them first).",
            field="domain",
        )
    default = project.blank_domain
    blank = Problem.objects.filter(project=project, domain="")
    if default not in ("", new) and blank.exists():
        raise ValidationFailed(
            f"{_count_upto(blank)} problems are {default!r} (the project's domain before it "
            f"became many-domains); a project of domain {new!r} cannot hold them.",
            field="domain",
        )
    project.blank_domain = ""
    if not _named(project).exists():
        return ["blank_domain"]
    # They name the new domain: blanked in the background. The mark says the job is owed: the
    # recovery sweep sends it again if it is lost (autolabel.recovery), so a later change of
    # the domain is not refused for ever.
    project.domain_clear_since = timezone.now()
    outbox_add(task=CLEAR_TASK, args=[project.pk])
    return ["blank_domain", "domain_clear_since"]


def domain_change(*, project: Project, before: str) -> list[str]:
    """Apply the change of `project.domain` from `before` (not saved yet: the caller saves
    it with the returned fields). Raises ValidationFailed when the problems cannot follow."""
    if project.domain == Domain.MIXED:
        project.blank_domain = before
        return ["blank_domain"]
    if before == Domain.MIXED:
        return _leave_mixed(project=project)
    if _named(project).exists():
        raise ValidationFailed(
            f"Problems still name {before!r} since the project left many-domains; a "
            "background job is clearing that: try again in a minute.",
            field="domain",
        )
    return []


def problem_domains_clear(*, project_id: int, batch: int = BATCH) -> int:
    """The job: blank the problems that name the domain of their project of one domain (the
    same meaning), `batch` a transaction; idempotent (a redelivery finds fewer or none).
    Stops when the project is many-domains again (there a name is the problem's own). Then
    clears the project's mark unless a later change marked it again (its own job walks).
    Returns the problems blanked."""
    since = Project.objects.filter(pk=project_id).values_list("domain_clear_since", flat=True)
    since = since.first()
    done = 0
    while True:
        with transaction.atomic():
            project = Project.objects.filter(pk=project_id).first()
            if project is None or project.domain == Domain.MIXED:
                break
            ids = list(
                Problem.objects.filter(project_id=project_id, domain=project.domain)
                .order_by()
                .values_list("pk", flat=True)[:batch]
            )
            if not ids:
                break
            done += Problem.objects.filter(pk__in=ids, domain=project.domain).update(domain="")
    Project.objects.filter(pk=project_id, domain_clear_since=since).update(domain_clear_since=None)
    return done
