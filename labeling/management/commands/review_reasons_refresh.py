"""Fill the review queue's stored reasons (Solution.review_reasons) and switch projects to them.

    manage.py review_reasons_refresh              # every project
    manage.py review_reasons_refresh --project 3 --project 7
    manage.py review_reasons_refresh --project 3 --after 420000   # resume a stopped fill

Projects made before the column existed compute their queue's reasons live on every page load
(exact, slow past ~10k solutions) until this has run for them; projects made since are kept by
the services from the start. Running it again recomputes every row (harmless; it also repairs
rows changed behind the services' back, e.g. in the Django admin). It works in ranges of
--batch solutions, each its own short transaction, and prints its progress after each with the
last id done: the services keep the rows already filled, so a fill stopped part way resumes
with --after that id.
"""

import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from labeling.models import Project
from labeling.pg.id_ranges import FillProgress
from labeling.services.review.reasons import review_reasons_fill
from labeling.services.review.reasons_fill import BATCH

BATCH_MAX = 1_000_000


class Command(BaseCommand):
    help = __doc__.split("\n\n")[0]
    # project, batch, after, progress -> solutions walked (queue_refresh runs its own)
    fill = staticmethod(review_reasons_fill)

    def add_arguments(self, parser) -> None:
        parser.add_argument("--project", type=int, action="append", help="project id (repeat)")
        parser.add_argument(
            "--batch", type=int, default=BATCH, help=f"solutions per transaction ({BATCH})"
        )
        parser.add_argument(
            "--after", type=int, default=0, help="start after this solution id (one --project)"
        )

    def refresh(self, project: Project) -> int:
        started = time.perf_counter()

        def report(done: FillProgress) -> None:
            rate = done.solutions / max(time.perf_counter() - started, 1e-9)
            self.stdout.write(
                f"  project {project.pk}: {done.solutions} solutions, {done.changed} changed, "
                f"last id {done.last_id} ({rate:.0f}/s)"
            )

        return self.fill(project=project, batch=self.batch, after=self.after, progress=report)

    def analyze(self) -> None:
        """Fresh statistics for the planner: a fill changes many masks at once (a project
        from before the column: every one from 0), and the queue's and the explorer's plans
        read the mask's distribution (at 1M, a filter by disagreement planned on "every mask
        is 0" read all 60k of them and sorted, 120 ms, where a walk of the index takes 0.2 ms)."""
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE labeling_solution")

    def handle(self, *args, **options) -> None:
        self.batch, self.after = options.get("batch", BATCH), options.get("after", 0)
        if not 1 <= self.batch <= BATCH_MAX:
            raise CommandError(f"--batch: between 1 and {BATCH_MAX}")
        if self.after and len(options["project"] or ()) != 1:
            raise CommandError("--after: with exactly one --project")
        if self.after < 0:
            raise CommandError("--after: a solution id, 0 or more")
        projects = Project.objects.order_by("pk")
        if options["project"]:
            projects = projects.filter(pk__in=options["project"])
            missing = set(options["project"]) - set(projects.values_list("pk", flat=True))
            if missing:
                raise CommandError(f"--project: no project with id {sorted(missing)}")
        for project in projects:
            started = time.perf_counter()
            n = self.refresh(project)
            self.analyze()
            self.stdout.write(
                f"project {project.pk} ({project.name}): {n} solutions "
                f"in {time.perf_counter() - started:.1f} s"
            )
