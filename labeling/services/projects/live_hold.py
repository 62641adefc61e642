"""The hold a job's start takes on its project: refused (410) unless the project is live, and
kept live until the job's transaction ends (`project_delete`'s FOR UPDATE waits for it)."""

from labeling.errors import ProjectDeleted
from labeling.models import Project
from labeling.pg.key_share import key_share


def project_live_hold(*, project_id: int) -> None:
    """Refuse (410) unless the project is live, and keep it live until the caller's transaction
    ends: its row is share-locked (FOR KEY SHARE), which `project_delete`'s FOR UPDATE waits
    for. A job created at the moment the project is deleted is then either made first, and
    cancelled (`_runs_cancel`) or purged with the project, or refused; never left running on a
    project whose rows the purge is deleting. The weakest lock: a running import, which holds
    the project's row (FOR NO KEY UPDATE) for its whole file, does not hold the start up."""
    live = key_share(Project.objects.filter(pk=project_id, deleted_at__isnull=True).only("pk"))
    if not live:
        raise ProjectDeleted()
