"""`manage.py train_implicit --project P --model PATH --out DIR [--name NAME] [--beta 0.05] ...`

Trains an implicit PRM (training.implicit) from the project's outcome labels only (each
solution's answer_correct; no step labels) in this process, then registers it as a PrmModel
of kind "implicit", which the `prm` auto-label source scores with (params {"model_id": ID}).
"""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from labeling.errors import DomainError
from labeling.models import Project
from training_runs.outcomes import write_outcome_rows
from training_runs.services import prm_model_register


class Command(BaseCommand):
    help = "Train an implicit PRM from a project's answer_correct outcomes and register it."

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True, help="Project name or id.")
        parser.add_argument("--model", required=True, help="Causal LM checkpoint directory.")
        parser.add_argument("--out", required=True, help="Directory for the trained PRM.")
        parser.add_argument("--name", help="Registered model name (default: the out dir's).")
        parser.add_argument("--beta", type=float, default=0.05)
        parser.add_argument("--learning-rate", type=float, default=5e-6)
        parser.add_argument("--num-epochs", type=float, default=1.0)
        parser.add_argument("--batch-size", type=int, default=4)
        parser.add_argument("--device")

    def handle(self, *args, project, model, out, name, **options):
        from training.data import DataError
        from training.implicit import ImplicitConfig, train_implicit

        found = Project.objects.filter(pk=int(project)) if project.isdigit() else None
        target = (found or Project.objects.filter(name=project, deleted_at__isnull=True)).first()
        if target is None:
            raise CommandError(f"No project {project!r}.")
        out_dir = Path(out).expanduser().resolve()
        out_dir.mkdir(parents=True, exist_ok=True)
        data = out_dir / "outcomes.jsonl"
        count = write_outcome_rows(project=target, path=data)
        if not count:
            raise CommandError(f"Project {target.name!r} has no solution with answer_correct.")
        self.stdout.write(f"{count} solutions with an outcome")
        config = ImplicitConfig(
            model=model,
            data=[str(data)],
            output_dir=str(out_dir),
            beta=options["beta"],
            learning_rate=options["learning_rate"],
            num_epochs=options["num_epochs"],
            batch_size=options["batch_size"],
            device=options["device"],
        )
        try:
            result = train_implicit(config)
            registered = prm_model_register(
                project=target,
                name=name or out_dir.name,
                path=str(out_dir),
                base_model=model,
                metrics={"train": result.after, "train_before": result.before},
            )
        except DataError as exc:
            raise CommandError(str(exc)) from exc
        except DomainError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(json.dumps({"model_id": registered.pk, "kind": registered.kind}))
