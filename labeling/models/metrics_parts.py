"""The project metrics' partial aggregates: what each solution adds to the rater-pair
confusions, the step-rating profiles and the agreement with machine sources, its own counts
(the project's stats, the coverage), each submitted annotation's own numbers (throughput, the
label distribution, its first error, gold accuracy), and the log of
the solutions whose labels or suggestions changed since the last refresh, so that a refresh
recomputes those solutions only (labeling.services.projects.metrics_parts).

One index per table, (project, solution): a refresh deletes a project's rows or some of its
solutions' (a rebuild writes every row: each index more is a write per row). No database
constraint on the project either (Django's cascade deletes the rows with their project): a
deferred foreign key check per written row made a rebuild's COMMIT take seconds.

No foreign key to the solution: a solution's rows go with a full rebuild (a deleted solution
bumps the metrics version without a logged solution, which forces one), and a log row of a
solution deleted since is recomputed to nothing.
"""

from django.db import models


class SolutionPart(models.Model):
    """What every part row has: its project (no index or constraint of its own: see above) and
    its solution."""

    id = models.BigAutoField(primary_key=True)
    project = models.ForeignKey(
        "labeling.Project",
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )
    solution_id = models.BigIntegerField()

    class Meta:
        abstract = True


class MetricsChange(models.Model):
    """One metrics-version bump that changed the labels of one solution only (`solution_id`),
    or nothing the partial aggregates read (`solution_id` None). A refresh consumes them: when
    the project's version moved by exactly as many bumps as there are rows, the aggregates are
    brought up to date by recomputing these solutions; any other bump forces a full rebuild."""

    id = models.BigAutoField(primary_key=True)
    project = models.ForeignKey(
        "labeling.Project", on_delete=models.CASCADE, related_name="metrics_changes"
    )
    solution_id = models.BigIntegerField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Metrics change {self.pk} of project {self.project_id}: {self.solution_id}"


class MetricsPairPart(SolutionPart):
    """Of one solution: on the steps two submitted annotations both rated, how many times rater
    a (the lower annotation id) rated `a_rating` and rater b `b_rating` (a person's id, else an
    imported dataset's labeler)."""

    a_id = models.BigIntegerField(null=True)
    a_ext = models.CharField(max_length=200, blank=True)
    b_id = models.BigIntegerField(null=True)
    b_ext = models.CharField(max_length=200, blank=True)
    a_rating = models.SmallIntegerField()
    b_rating = models.SmallIntegerField()
    n = models.IntegerField()

    class Meta:
        indexes = [models.Index(fields=["project", "solution_id"], name="metrics_pair_part_idx")]

    def __str__(self) -> str:
        return f"Pair part of solution {self.solution_id}"


class MetricsProfilePart(SolutionPart):
    """Of one solution: how many of its steps with two or more submitted ratings have each
    value-count profile (`profile`: the counts of project.rating_values, comma-separated)."""

    domain = models.CharField(max_length=64, blank=True)
    profile = models.CharField(max_length=64)
    n = models.IntegerField()

    class Meta:
        indexes = [models.Index(fields=["project", "solution_id"], name="metrics_profile_part_idx")]

    def __str__(self) -> str:
        return f"Profile part of solution {self.solution_id}"


class MetricsSourcePart(SolutionPart):
    """Of one solution: on the steps a submitted annotation rated and a machine source
    suggested a rating value for, how many times the rater (a person's id, else an imported
    dataset's labeler) rated `rating` and the source (every agent of it) said `value`."""

    rater_id = models.BigIntegerField(null=True)
    rater_ext = models.CharField(max_length=200, blank=True)
    source = models.CharField(max_length=40)
    rating = models.SmallIntegerField()
    value = models.SmallIntegerField()
    n = models.IntegerField()

    class Meta:
        indexes = [models.Index(fields=["project", "solution_id"], name="metrics_source_part_idx")]

    def __str__(self) -> str:
        return f"Source part of solution {self.solution_id}"


class MetricsSolutionPart(SolutionPart):
    """One solution as the project's stats and the coverage count it: its steps, its submitted
    annotations (imported ones included) and those of people, and whether it is complete."""

    steps = models.IntegerField()
    annotations = models.IntegerField()
    people = models.IntegerField()
    complete = models.BooleanField()

    class Meta:
        indexes = [
            models.Index(fields=["project", "solution_id"], name="metrics_solution_part_idx")
        ]

    def __str__(self) -> str:
        return f"Solution part of solution {self.solution_id}"


class MetricsAnnotationPart(SolutionPart):
    """One submitted annotation as throughput, the label distribution and first-error
    agreement read it: who rated (a person's id, else an imported dataset's labeler), its
    submission day and time, its labeling time, its labels counted (rated, all, per rating,
    unrated, unsure), its first wrong step's index (-1: none), whether it says the problem is
    bad (left out of first-error agreement), its problem's domain and, on a gold solution, its
    agreement with the gold labels, so that their statements group these rows instead of
    joining every label."""

    annotation_id = models.BigIntegerField()
    annotator_id = models.BigIntegerField(null=True)
    external_annotator = models.CharField(max_length=200, blank=True)
    day = models.DateField(null=True)
    submitted_at = models.DateTimeField(null=True)
    time_spent_ms = models.BigIntegerField()
    rated = models.IntegerField()
    labeled = models.IntegerField()
    wrong = models.IntegerField()
    neutral = models.IntegerField()
    correct = models.IntegerField()
    unrated = models.IntegerField()
    unsure = models.IntegerField()
    first_error = models.IntegerField(default=-1)
    bad_problem = models.BooleanField(default=False)
    domain = models.CharField(max_length=64, blank=True, default="")
    # On a gold solution (else False and zeros): its rated steps with a gold rating, how many
    # agree with it, and whether its first error is the gold one.
    gold = models.BooleanField(default=False)
    gold_steps = models.IntegerField(default=0)
    gold_agree = models.IntegerField(default=0)
    gold_first_error = models.BooleanField(default=False)

    class Meta:
        indexes = [
            models.Index(fields=["project", "solution_id"], name="metrics_annotation_part_idx"),
            models.Index(
                fields=["project"], condition=models.Q(gold=True), name="metrics_part_gold_idx"
            ),
        ]

    def __str__(self) -> str:
        return f"Annotation part of annotation {self.annotation_id}"
