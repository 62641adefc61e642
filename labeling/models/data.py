"""What gets labeled: problems, candidate solutions and their ordered steps."""

from django.db import models

from .imports import ImportJob
from .project import PROBLEM_DOMAINS, Project

# How many labels one solution may want beyond its project's overlap (Solution.extra_overlap);
# the project's own overlap is capped at 50 by its API as well.
EXTRA_OVERLAP_MAX = 50


class Problem(models.Model):
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="problems")
    text = models.TextField()
    answer = models.TextField(blank=True, help_text="Ground-truth final answer.")
    reference_solution = models.TextField(blank=True)
    source = models.CharField(max_length=200, blank=True, help_text="Where the problem came from.")
    external_id = models.CharField(max_length=300, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    # The problem's own domain in a `mixed` project (blank: the project's). Rendering, the
    # auto-label sources run on it, metrics, the review filter and exports read it.
    domain = models.CharField(
        max_length=20,
        blank=True,
        default="",
        choices=[(d, d) for d in PROBLEM_DOMAINS],
        help_text="This problem's domain; blank means the project's.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Its near-duplicate cluster (labeling/rules/near_dups.py), named by one member's split key
    # (external id, else problem_id of the text); blank: a cluster of its own. Kept at import
    # (services/imports/near_keys.py); an export splits by it, so a cluster shares a split.
    near_cluster = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["project", "external_id"],
                condition=~models.Q(external_id=""),
                name="problem_unique_external_id",
            )
        ]
        indexes = [
            models.Index(fields=["project", "domain"], name="problem_domain_idx"),
            # A merge relabels a cluster: its members by name (partial: most have none).
            models.Index(
                fields=["project", "near_cluster"],
                condition=~models.Q(near_cluster=""),
                name="problem_near_cluster_idx",
            ),
        ]

    def __str__(self) -> str:
        return self.text[:60]


class Solution(models.Model):
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="solutions")
    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="solutions")
    generator = models.CharField(max_length=200, blank=True, help_text="Model that wrote it.")
    final_answer = models.TextField(blank=True)
    answer_correct = models.BooleanField(null=True, blank=True)
    source = models.CharField(max_length=200, blank=True)
    external_id = models.CharField(max_length=300, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    # Kept by labeling.services.labeling.annotations inside the submit transaction; the queue
    # reads it.
    submitted_count = models.PositiveIntegerField(default=0)
    # Gold question: admins know its labels (GoldLabel rows, one per step).
    is_gold = models.BooleanField(default=False)
    # The review queue's reason bit mask (labeling.selectors.review.REASON_BITS), stored by
    # labeling.services.review.reasons.review_reasons_refresh in every service that changes
    # its inputs; read by the queue of a project with `review_reasons_stored`.
    review_reasons = models.PositiveSmallIntegerField(default=0)
    # It has a submitted annotation (a person's or an imported one): stored beside
    # review_reasons by the same statements (the refresh, a submission's count UPDATE, the
    # set-based fill), so every service that adds or removes a submission keeps it. The review
    # queue reads it instead of probing the annotations, through solution_queued_idx, which
    # holds only these solutions: "rest" (mask 0 with a submission) is an index range that no
    # unlabeled solution sits in.
    has_submission = models.BooleanField(default=False, db_default=False, editable=False)
    # In the claim pool: not gold, nobody assigned, fewer submissions than the project's
    # overlap. Kept by labeling.services.queue.pool.queue_open_refresh in every service that
    # changes one of those; the claim reads open work through a partial index on it
    # (labeling.services.queue.claim), so a claim costs the same at any project size.
    queue_open = models.BooleanField(default=True, db_default=True, editable=False)
    # Labels wanted beyond the project's overlap for this solution only: the explorer's
    # requeue of a complete solution raises it by one (labeling.services.projects.explorer). Every
    # rule that asks "open / may this user take it / complete" reads overlap + extra_overlap
    # (labeling.rules.overlap).
    extra_overlap = models.PositiveSmallIntegerField(default=0, db_default=0, editable=False)
    # The uploaded file that created it (null: made another way, or the job was deleted);
    # the solutions explorer filters by it.
    import_job = models.ForeignKey(
        ImportJob, null=True, blank=True, on_delete=models.SET_NULL, related_name="solutions"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["project", "external_id"],
                condition=~models.Q(external_id=""),
                name="solution_unique_external_id",
            ),
            models.CheckConstraint(
                condition=models.Q(extra_overlap__lte=EXTRA_OVERLAP_MAX),
                name="solution_extra_overlap_max",
            ),
        ]
        indexes = [
            models.Index(fields=["project", "submitted_count"], name="solution_queue_idx"),
            models.Index(fields=["project", "review_reasons", "id"], name="solution_review_idx"),
            # The review queue's order (most reasons first, then oldest): its first page walks
            # this index and stops, where solution_review_idx needed a sort of the project.
            models.Index(
                fields=["project", "-review_reasons", "id"], name="solution_review_queue_idx"
            ),
            # The same order over the solutions with a submission only: the queue of a project
            # whose reasons are stored, every reason and "rest" a range of it (migration 0043).
            models.Index(
                fields=["project", "-review_reasons", "id"],
                name="solution_queued_idx",
                condition=models.Q(has_submission=True),
            ),
            # The solutions explorer's default order (by id, either way) within a project.
            models.Index(fields=["project", "id"], name="solution_explorer_idx"),
            # The default claim order (overlap first, then by id) over open work only.
            models.Index(
                fields=["project", "-submitted_count", "id"],
                name="solution_claim_idx",
                condition=models.Q(queue_open=True),
            ),
        ]

    def __str__(self) -> str:
        return f"Solution {self.pk} of problem {self.problem_id}"


class Step(models.Model):
    solution = models.ForeignKey(Solution, on_delete=models.CASCADE, related_name="steps")
    index = models.PositiveIntegerField(help_text="0-based position in the solution.")
    text = models.TextField()
    metadata = models.JSONField(default=dict, blank=True)
    # The earlier steps this one builds on (0-based indices, ascending), as the import file
    # gave them (`uses_source` "import") or as labeling.importers.dependencies found them
    # ("detected"); an annotator's own marks are per annotation (StepLabel.uses).
    uses = models.JSONField(default=list, blank=True)
    uses_source = models.CharField(max_length=10, blank=True)
    # A step of the model's reasoning trace (the `<think>...</think>` block of a DeepSeek-R1 /
    # Qwen3 style solution, or a steplab step object with "thinking": true): the label page
    # shows these folded before the answer's steps; exports say which were thinking.
    thinking = models.BooleanField(default=False, db_default=False)

    class Meta:
        ordering = ["solution_id", "index"]
        constraints = [
            models.UniqueConstraint(fields=["solution", "index"], name="step_unique_index")
        ]
        indexes = [
            # The reasoning steps only (a few of a project's steps, or none): whether a
            # project has any is one short read (labeling.exporters.source).
            models.Index(
                fields=["solution"], name="step_thinking_idx", condition=models.Q(thinking=True)
            )
        ]

    def __str__(self) -> str:
        return f"Step {self.index} of solution {self.solution_id}"


# StepAlternative's columns other than its id, in one order: the importer writes its rows in
# it (labeling.services.imports) and the exporter reads them in it, building AlternativeRecord
# positionally from all but step_id (labeling.exporters).
STEP_ALTERNATIVE_COLUMNS = (
    "step_id",
    "position",
    "text",
    "rating",
    "flagged",
    "is_chosen",
    "is_human",
    "metadata",
)


class StepAlternative(models.Model):
    """A candidate step at one position (PRM800K phase 1 rates several, continues with one).

    Every completion of an imported position is kept in its original order, the chosen one
    included, with the rating it came with, so an export can reproduce the file.
    """

    step = models.ForeignKey(Step, on_delete=models.CASCADE, related_name="alternatives")
    position = models.PositiveIntegerField(help_text="Index in the original completions list.")
    text = models.TextField()
    rating = models.SmallIntegerField(null=True, blank=True)
    flagged = models.BooleanField(null=True, blank=True)
    is_chosen = models.BooleanField(default=False)
    is_human = models.BooleanField(default=False)
    metadata = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["step_id", "is_human", "position"]

    def __str__(self) -> str:
        return f"Alternative {self.position} at {self.step}"
