"""`manage.py load_demo [--reset]`: demo projects, users and real data.

`make run` runs it at every start: it creates what is missing (a demo user, a demo project with
its members and data) and changes nothing that exists, so an admin's changes to the demo users'
passwords, the members' roles, a project's settings and the labels made survive a restart.
`--reset` deletes the demo projects and loads them again, and gives the demo users their demo
passwords and flags back.
"""

import base64
import json
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from labeling.models import Project, ProjectMembership, Role
from labeling.services.imports import import_file
from labeling.services.media.images import media_delete_project
from labeling.services.review.reasons import review_reasons_fill

DEMO_DIR = Path(__file__).resolve().parents[2] / "demo"
STEP_PROJECT = "Demo: step labeling"
FIRST_ERROR_PROJECT = "Demo: first-error (PRM800K phase 2)"
AGENT_PROJECT = "Demo: agent trajectories"
MULTIMODAL_PROJECT = "Demo: multimodal (charts and figures)"
TEXT_PROJECT = "Demo: text tasks (QA, translation)"
GRAPH_PROJECT = "Demo: graph reasoning"
EMBODIED_PROJECT = "Demo: robotics subgoals"
MIXED_PROJECT = "Demo: many domains"
EVIDENCE_PROJECT = "Demo: evidence-cited (finance, medicine)"

PROJECTS: dict[str, dict[str, Any]] = {
    STEP_PROJECT: {
        "description": "ProcessBench, GSM8K and MATH-500 samples; ProcessBench labels pre-filled.",
        "overlap": 1,
        "show_suggestions": True,
        "first_error_mode": False,
    },
    FIRST_ERROR_PROJECT: {
        "description": "Raw PRM800K rows; stop at the first wrong step, two annotators each.",
        "overlap": 2,
        "show_suggestions": True,
        "first_error_mode": True,
    },
    AGENT_PROJECT: {
        "domain": "agent",
        "description": "Tool-using agents: rate each tool call, observation and reply.",
        "overlap": 1,
        "show_suggestions": True,
        "first_error_mode": False,
    },
    MULTIMODAL_PROJECT: {
        "domain": "multimodal",
        "description": "Questions about charts and figures, with images on problems and steps.",
        "overlap": 1,
        "show_suggestions": True,
        "first_error_mode": False,
    },
    TEXT_PROJECT: {
        "domain": "text",
        "description": "Reading-comprehension answers and sentence-by-sentence translations.",
        "overlap": 1,
        "show_suggestions": True,
        "first_error_mode": False,
    },
    EMBODIED_PROJECT: {
        "domain": "embodied",
        "description": "Robot episodes as timelines of plans, actions, observations and subgoals, "
        "with camera frames and logged success signals.",
        "overlap": 1,
        "show_suggestions": True,
        "first_error_mode": False,
    },
    GRAPH_PROJECT: {
        "domain": "graph",
        "description": "Shortest paths, connectivity, cycles, topological orders and matchings "
        "on a drawn graph; the graph checker decides each claim.",
        "overlap": 1,
        "show_suggestions": True,
        "first_error_mode": False,
    },
    EVIDENCE_PROJECT: {
        "domain": "evidence",
        "description": "Steps cite a trial report, an annual report and FinQA filings: "
        "rate each step supported, unsupported or wrong.",
        "overlap": 1,
        "show_suggestions": True,
        "first_error_mode": False,
    },
    MIXED_PROJECT: {
        "domain": "mixed",
        "description": "Math, text and agent problems in one project; each problem names its "
        "domain, which picks its rendering, its checkers and its row in the metrics.",
        "overlap": 2,
        "show_suggestions": True,
        "first_error_mode": False,
    },
}


@dataclass(frozen=True)
class DemoFile:
    project: str
    name: str
    fmt: str
    labels_as: str
    # `images` entries naming a file in demo/images/ become data: URIs before the import.
    inline_images: bool = False
    # The problem domain of the file's rows (the many-domains project's import option).
    domain: str = ""


# In this order: the step project's first solution (lowest id) is a 5-step ProcessBench one.
FILES = (
    DemoFile(STEP_PROJECT, "processbench_demo.jsonl", "processbench", "suggestions"),
    DemoFile(STEP_PROJECT, "gsm8k_model_solutions_demo.jsonl", "gsm8k", "none"),
    DemoFile(STEP_PROJECT, "math500_demo.jsonl", "math", "none"),
    DemoFile(FIRST_ERROR_PROJECT, "prm800k_demo.jsonl", "prm800k", "suggestions"),
    DemoFile(AGENT_PROJECT, "agent_demo.jsonl", "messages", "none"),
    DemoFile(MULTIMODAL_PROJECT, "multimodal_demo.jsonl", "steplab", "none", inline_images=True),
    DemoFile(TEXT_PROJECT, "text_demo.jsonl", "steplab", "none"),
    DemoFile(GRAPH_PROJECT, "graph_demo.jsonl", "steplab", "none"),
    DemoFile(GRAPH_PROJECT, "graphsilo_demo.jsonl", "graphsilo", "none"),
    DemoFile(EMBODIED_PROJECT, "embodied_demo.jsonl", "embodied", "none", inline_images=True),
    DemoFile(EMBODIED_PROJECT, "alfworld_react_demo.jsonl", "alfworld", "none"),
    # The same files again, one domain each, in one many-domains project.
    DemoFile(
        MIXED_PROJECT, "processbench_demo.jsonl", "processbench", "suggestions", domain="math"
    ),
    DemoFile(MIXED_PROJECT, "text_demo.jsonl", "steplab", "none", domain="text"),
    DemoFile(MIXED_PROJECT, "agent_demo.jsonl", "messages", "none", domain="agent"),
    DemoFile(EVIDENCE_PROJECT, "evidence_demo.jsonl", "steplab", "none"),
    DemoFile(EVIDENCE_PROJECT, "finqa_demo.jsonl", "finqa", "suggestions"),
)
DEMO_IMAGE = re.compile(r"^images/[\w-]+\.png$")


def _inline(value: Any) -> Any:
    """A demo row with its `images/<name>.png` entries as data: URIs (the importer's form)."""
    if isinstance(value, dict):
        return {k: _inline(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_inline(v) for v in value]
    if isinstance(value, str) and DEMO_IMAGE.match(value):
        data = base64.b64encode((DEMO_DIR / value).read_bytes()).decode()
        return f"data:image/png;base64,{data}"
    return value


def _with_inline_images(path: Path, folder: Path) -> Path:
    out = folder / path.name
    with open(path, encoding="utf-8") as src, open(out, "w", encoding="utf-8") as dst:
        for line in src:
            if line.strip():
                dst.write(json.dumps(_inline(json.loads(line)), ensure_ascii=False) + "\n")
    return out


# username, password, role in every demo project, superuser
USERS = (
    ("admin", "steplab-admin", Role.ADMIN, True),
    ("annotator", "steplab-annotator", Role.ANNOTATOR, False),
    ("annotator2", "steplab-annotator2", Role.ANNOTATOR, False),
    ("reviewer", "steplab-reviewer", Role.REVIEWER, False),
)


class Command(BaseCommand):
    help = (
        "Create what is missing of the demo users, projects and data; change nothing that "
        "exists (--reset: reload the demo projects and restore the demo users)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--reset",
            action="store_true",
            help="delete the demo projects (their labels too) and reload them; give the demo "
            "users their demo passwords and flags again",
        )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        reset = options["reset"]
        if reset:
            ids = list(Project.objects.filter(name__in=PROJECTS).values_list("pk", flat=True))
            deleted, _ = Project.objects.filter(pk__in=ids).delete()
            for project_id in ids:
                media_delete_project(project_id=project_id)
            self.stdout.write(f"Deleted the demo projects ({deleted} rows).")
        users, new_users = self._users(reset=reset)
        projects, new_projects = {}, set()
        for name, settings in PROJECTS.items():
            project, created = Project.objects.filter(deleted_at__isnull=True).get_or_create(
                name=name, defaults={**settings, "created_by": users["admin"]}
            )
            projects[name] = project
            if created:
                new_projects.add(name)
            # A new project gets every demo user; an existing one only a demo user made now.
            # Members an admin removed or whose role an admin changed stay as they are.
            for username, _, role, _ in USERS:
                if created or username in new_users:
                    ProjectMembership.objects.get_or_create(
                        project=project, user=users[username], defaults={"role": role}
                    )
            self.stdout.write(
                f"Created project {name!r}."
                if created
                else f"Project {name!r} exists: left as it is (--reset reloads it)."
            )
        for demo in FILES:
            if demo.project in new_projects:
                self._import(demo, projects[demo.project])
        for name in new_projects:  # the review queue then reads the stored reasons
            review_reasons_fill(project=projects[name])
        self.stdout.write("Logins (username / password, unless changed since):")
        for username, password, role, _ in USERS:
            self.stdout.write(f"  {username} / {password}  ({role})")

    def _users(self, *, reset: bool) -> tuple[dict[str, Any], set[str]]:
        """The demo users by username, and the names of those created now.

        An existing user keeps its password and flags unless `reset`.
        """
        User = get_user_model()
        users, created_now = {}, set()
        for username, password, _, superuser in USERS:
            user, created = User.objects.get_or_create(username=username)
            if created or reset:
                user.is_superuser = user.is_staff = superuser
                user.set_password(password)
                user.save()
            if created:
                created_now.add(username)
            users[username] = user
        return users, created_now

    def _import(self, demo: DemoFile, project: Project) -> None:
        with tempfile.TemporaryDirectory() as folder:
            path = DEMO_DIR / demo.name
            if demo.inline_images:
                path = _with_inline_images(path, Path(folder))
            result = import_file(
                project=project,
                path=path,
                fmt=demo.fmt,
                labels_as=demo.labels_as,
                domain=demo.domain,
            )
        self.stdout.write(
            f"  {demo.name}: {result.problems_created} problems, "
            f"{result.solutions_created} solutions, {result.steps_created} steps, "
            f"{result.labels_created} labels created"
        )
