"""Fill the review queue's stored reasons (Solution.review_reasons) and switch projects to them.

    manage.py review_reasons_refresh              # every project
    manage.py review_reasons_refresh --project 3 --project 7

Projects made before the column existed compute their queue's reasons live on every page load
(exact, slow past ~10k solutions) until this has run for them; projects made since are kept by
the services from the start. Running it again recomputes every row (harmless; it also repairs
rows changed behind the services' back, e.g. in the Django admin).
"""

import time

from django.core.management.base import BaseCommand, CommandError

from labeling.models import Project
from labeling.services.review_reasons import review_reasons_fill


class Command(BaseCommand):
    help = __doc__.split("\n\n")[0]

    def add_arguments(self, parser) -> None:
        parser.add_argument("--project", type=int, action="append", help="project id (repeat)")

    def refresh(self, project: Project) -> int:
        return review_reasons_fill(project=project)

    def handle(self, *args, **options) -> None:
        projects = Project.objects.order_by("pk")
        if options["project"]:
            projects = projects.filter(pk__in=options["project"])
            missing = set(options["project"]) - set(projects.values_list("pk", flat=True))
            if missing:
                raise CommandError(f"--project: no project with id {sorted(missing)}")
        for project in projects:
            started = time.perf_counter()
            n = self.refresh(project)
            self.stdout.write(
                f"project {project.pk} ({project.name}): {n} solutions "
                f"in {time.perf_counter() - started:.1f} s"
            )
