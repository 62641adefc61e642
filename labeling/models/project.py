from django.conf import settings
from django.db import models

DEFAULT_GUIDELINES = """\
## How to rate a step

Rate every step of the solution, in order, as a careful teacher would.

- **Correct (+1)**: the step is right and moves the solution forward. Reasonable steps that a
  strong student would write count, even if they are not the shortest route.
- **Neutral (0)**: nothing in the step is wrong, but it makes no progress: it restates the
  problem, repeats earlier work, or explores an idea that is then dropped.
- **Wrong (−1)**: the step contains a mistake: an arithmetic or algebra error, a false claim, a
  misread of the problem, or reasoning that does not follow. Rate it wrong even if the final
  answer turns out right.

Mark a step **unsure** (`u`) when you cannot decide; a reviewer will look at it.
Write a corrected step (`a`) when a wrong step has an obvious fix.
**Give up** (`g`) when the solution is beyond what you can check; mark the **problem bad** (`b`)
when the problem itself is ambiguous or its reference answer is wrong. Both need a reason.
"""


class Role(models.TextChoices):
    ANNOTATOR = "annotator", "Annotator"
    REVIEWER = "reviewer", "Reviewer"
    ADMIN = "admin", "Project admin"


class Screening(models.TextChoices):
    PASSED = "passed", "Passed"
    FAILED = "failed", "Failed"


class StepSplit(models.TextChoices):
    LINE = "line", "One step per line"
    PARAGRAPH = "paragraph", "One step per blank-line paragraph"
    STEP_MARKER = "step_marker", '"Step k:" markers'
    REGEX = "regex", "Split on a regular expression"
    SENTENCE = "sentence", "One step per sentence"
    STEP_TAGS = "step_tags", "A model's step separator tags"


# A step tag is a literal; these are the tags well-known PRM datasets and models use
# (labeling.steps.splitting reads `<name>` as the pair `<name>` / `</name>`).
STEP_TAG_PRESETS: dict[str, str] = {
    "qwen_prm": "<extra_0>",  # Qwen2.5-Math-PRM: a separator after each step
    "math_shepherd": "ки",  # Math-Shepherd: " ки" after each step
    "step_xml": "<step>",  # <step>...</step> around each step
}
STEP_TAG_MAX = 100  # characters in a step tag


class LabelScale(models.TextChoices):
    PRM800K = "prm800k", "PRM800K: wrong (−1), neutral (0), correct (+1)"
    BINARY = "binary", "Binary: wrong (−1), correct (+1)"


class Domain(models.TextChoices):
    MATH = "math", "Math"
    CODE = "code", "Code"
    AGENT = "agent", "Agent trajectories"
    MULTIMODAL = "multimodal", "Multimodal (images)"
    TEXT = "text", "Text tasks (QA, translation)"
    GRAPH = "graph", "Graph reasoning"
    EMBODIED = "embodied", "Robotics / embodied tasks"
    EVIDENCE = "evidence", "Evidence-cited (documents, tables)"
    MIXED = "mixed", "Many domains (each problem names its own)"


# The auto-label sources that make sense in each domain, in the order the Auto-label tab shows
# them; autolabel_run_create refuses any other.
DOMAIN_SOURCES: dict[str, tuple[str, ...]] = {
    Domain.MATH: ("answer", "symbolic", "rollout", "judge", "consensus", "prm"),
    Domain.CODE: ("code", "judge", "prm"),
    Domain.AGENT: ("agent", "judge", "prm"),
    Domain.MULTIMODAL: ("judge", "prm"),
    Domain.TEXT: ("judge", "rollout", "prm"),
    Domain.GRAPH: ("graph", "judge", "prm"),
    Domain.EMBODIED: ("subgoal", "judge", "prm"),
    Domain.EVIDENCE: ("citation", "judge", "prm"),
}
# A many-domains project offers every source of the domains its problems may have (in the
# order the domains list them); a run applies each only to the problems of its domains
# (sources_for_problem), and those common to all domains to a problem that names none.
DOMAIN_SOURCES[Domain.MIXED] = tuple(dict.fromkeys(s for v in DOMAIN_SOURCES.values() for s in v))
COMMON_SOURCES: tuple[str, ...] = tuple(
    s for s in DOMAIN_SOURCES[Domain.MIXED] if all(s in v for v in DOMAIN_SOURCES.values())
)


# The domains a problem can name (every one but `mixed`, which only a project is).
PROBLEM_DOMAINS: tuple[str, ...] = tuple(d for d in Domain.values if d != Domain.MIXED)


def problem_domain(problem_domain: str, project: "Project") -> str:
    """A problem's effective domain: its own, else its project's default (`blank_domain`, in a
    many-domains project that was of one domain), else its project's."""
    return problem_domain or project.blank_domain or project.domain


def blank_means(project: "Project", domain: str) -> bool:
    """Whether a problem that names no domain is of `domain` in this project."""
    return domain == (project.blank_domain or project.domain)


def problem_domains_matching(project: "Project", domain: str) -> list[str]:
    """The stored `Problem.domain` values that mean `domain` in this project (for filters)."""
    return [domain, ""] if blank_means(project, domain) else [domain]


def sources_for_problem(problem_domain: str, project_domain: str) -> tuple[str, ...]:
    """The auto-label sources that apply to one problem: its domain's; in a many-domains
    project, a problem without a domain gets only the sources every domain has."""
    domain = problem_domain or project_domain
    if domain == Domain.MIXED:
        return COMMON_SOURCES
    return DOMAIN_SOURCES.get(domain, DOMAIN_SOURCES[Domain.MATH])


class Project(models.Model):
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    domain = models.CharField(
        max_length=20,
        choices=Domain.choices,
        default=Domain.MATH,
        help_text="What the steps are: decides the labeling page's rendering and the checkers.",
    )
    # In a many-domains project, the domain of its problems that name none: the project's
    # domain before it became many-domains (the change writes nothing over the problems);
    # "" : none (such a problem gets the sources every domain has). Kept by
    # labeling.services.projects.domain_change; always "" in a project of one domain.
    blank_domain = models.CharField(max_length=20, blank=True, default="", editable=False)
    guidelines = models.TextField(blank=True, default=DEFAULT_GUIDELINES)
    label_scale = models.CharField(
        max_length=20, choices=LabelScale.choices, default=LabelScale.PRM800K
    )
    first_error_mode = models.BooleanField(
        default=False, help_text="Annotators stop at the first wrong step (PRM800K phase 2)."
    )
    overlap = models.PositiveSmallIntegerField(
        default=1, help_text="How many annotators must submit each solution."
    )
    lock_ttl_seconds = models.PositiveIntegerField(default=30 * 60)
    gold_rate = models.FloatField(
        default=0.0,
        help_text="Share of claims that serve a gold question (0: never); annotators aren't told.",
    )
    screening_size = models.PositiveSmallIntegerField(
        default=0, help_text="Gold questions a new annotator answers before any other work."
    )
    screening_pass_rate = models.FloatField(
        default=0.8, help_text="Share of screening steps that must match gold to pass."
    )
    auto_resolve = models.BooleanField(
        default=False,
        help_text="Resolve a solution without review when its overlap annotators all agree.",
    )
    show_suggestions = models.BooleanField(default=True)
    # Annotators may split a step in two or merge it with the next in the label page
    # (labeling.services.labeling.resegment); off by default: the import's segmentation stands.
    allow_resegment = models.BooleanField(
        default=False,
        help_text="Annotators may split a step or merge it with the next while labeling.",
    )
    # The review queue reads Solution.review_reasons (kept by the services) instead of
    # computing the reasons per page load. Set by project_create and by the
    # `review_reasons_refresh` command once it has filled the project's rows; until then the
    # queue computes them live (always exact, slow past a few thousand solutions).
    review_reasons_stored = models.BooleanField(default=False, editable=False)
    step_split = models.CharField(max_length=20, choices=StepSplit.choices, default=StepSplit.LINE)
    step_split_regex = models.CharField(max_length=500, blank=True)
    # The `step_tags` rule's tag, a literal (STEP_TAG_PRESETS lists well-known ones).
    step_split_tag = models.CharField(max_length=STEP_TAG_MAX, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Set by project_delete: from then on the project answers 410 `project_deleted` and a
    # background job (labeling.services.projects.delete) deletes its rows in batches.
    deleted_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Set by an overlap change: the claim pool's stored flags (Solution.queue_open) of the
    # project are being brought to the new overlap by a background job, range by range
    # (labeling.services.queue.pool.project_queue_refresh), which clears it.
    queue_refresh_since = models.DateTimeField(null=True, blank=True, editable=False)
    # Set while problems of this one-domain project still name its domain after it left
    # many-domains: the background job that blanks them (labeling.services.projects.
    # domain_change.problem_domains_clear) clears it; the recovery sweep resends a lost one.
    domain_clear_since = models.DateTimeField(null=True, blank=True, editable=False)
    # The event types some active webhook endpoint of the project receives, kept by
    # labeling.services.webhooks: an event nobody listens to costs no query to skip.
    webhook_events = models.JSONField(default=list, blank=True, editable=False)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="ProjectMembership", related_name="projects"
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            # Unique among live projects: a deleted one's name is free as soon as the delete
            # is accepted, not only once its background purge has removed the row.
            models.UniqueConstraint(
                fields=["name"],
                condition=models.Q(deleted_at__isnull=True),
                name="project_unique_live_name",
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def domain_sources(self) -> tuple[str, ...]:
        return DOMAIN_SOURCES.get(self.domain, DOMAIN_SOURCES[Domain.MATH])

    @property
    def rating_values(self) -> tuple[int, ...]:
        return (-1, 1) if self.label_scale == LabelScale.BINARY else (-1, 0, 1)


class ProjectMembership(models.Model):
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=20, choices=Role.choices, default=Role.ANNOTATOR)
    # The screening verdict ("" until the member has answered the project's screening set).
    screening = models.CharField(max_length=10, choices=Screening.choices, blank=True)
    # An admin reset a failed screening then: only gold answers submitted since count.
    screening_reset_at = models.DateTimeField(null=True, blank=True)
    # The member's submitted annotations in the project, and how many are on gold questions:
    # what the gold rate is paced on (labeling.services.gold.pace). Kept while the project has
    # a gold rate; NULL when unknown, and then counted again on the next claim.
    answers = models.PositiveIntegerField(null=True, blank=True)
    gold_answers = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["project", "user"], name="membership_unique_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.project} ({self.role})"
