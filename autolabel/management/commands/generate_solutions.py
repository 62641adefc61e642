"""`manage.py generate_solutions --project P --backend '{...}' [--n 15]`: sample solutions.

For problems that arrived without solutions (GSM8K, MATH): each is sampled `--n` times through a
completer (local transformers / GGUF, or an OpenAI-compatible server), split into steps by the
project's rule, deduplicated, and stored, which queues them for labeling.
"""

import json

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from autolabel.completers.config import validate_backend
from autolabel.generation_service import solutions_generate
from labeling.models import Problem, Project


class Command(BaseCommand):
    help = "Sample candidate solutions for a project's problems through a model backend."

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True, help="Project name or id.")
        parser.add_argument(
            "--backend",
            required=True,
            help='Completer config as JSON, e.g. {"kind": "transformers", "path": "model.gguf"}.',
        )
        parser.add_argument("--n", type=int, default=15, help="Solutions per problem.")
        parser.add_argument("--only-without-solutions", action="store_true")
        parser.add_argument("--limit", type=int, default=None, help="At most this many problems.")
        parser.add_argument("--temperature", type=float, default=0.7)
        parser.add_argument("--max-tokens", type=int, default=1024)
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args, **opts):
        key = opts["project"]
        project = Project.objects.filter(
            **({"pk": int(key)} if key.isdigit() else {"name": key})
        ).first()
        if project is None:
            raise CommandError(f"No project {key!r}.")
        try:
            backend = validate_backend(json.loads(opts["backend"]))
        except (ValueError, json.JSONDecodeError) as exc:
            raise CommandError(f"--backend: {exc}") from exc
        problems = Problem.objects.filter(project=project).order_by("id")
        if opts["only_without_solutions"]:
            problems = problems.filter(solutions__isnull=True)
        ids = list(problems.values_list("id", flat=True)[: opts["limit"]])
        written = 0
        for problem_id in tqdm(ids, unit="problem"):
            written += solutions_generate(
                project=project,
                problem_ids=[problem_id],
                completer_params=backend,
                n=opts["n"],
                temperature=opts["temperature"],
                max_tokens=opts["max_tokens"],
                seed=opts["seed"],
            )
        self.stdout.write(f"{written} new solutions for {len(ids)} problems in {project.name!r}.")
