"""A solution's effective overlap: its project's overlap plus its own `extra_overlap`.

The project's overlap says how many annotators label each solution; a reviewer who doubts one
solution's labels requeues it from the explorer (labeling.services.projects.explorer), which raises
that solution's `extra_overlap` so that one more annotator labels it. Every rule that asks whether
a solution is still open, whether a user may take it, or whether it is complete reads the
effective overlap through these helpers (the claim's locking read of a candidate returns the
column, labeling.services.queue.claim; the submit reads it with its row lock,
labeling.services.labeling.solution_state).
"""

from django.db.models import Expression, F, Q, Value

from labeling.models import Project, Solution


def solution_overlap(*, project: Project, solution: Solution) -> int:
    """How many annotators this solution wants (gold questions: see the queue, no overlap)."""
    return project.overlap + solution.extra_overlap


def overlap_expression(overlap: int) -> Expression:
    """The effective overlap of a Solution row, as SQL (`overlap`: its project's)."""
    return Value(overlap) + F("extra_overlap")


def complete_q(overlap: int) -> Q:
    """Solutions whose submissions reached their effective overlap (`overlap`: the project's)."""
    return Q(submitted_count__gte=overlap_expression(overlap))


def open_q(overlap: int) -> Q:
    """Solutions with fewer submissions than their effective overlap."""
    return Q(submitted_count__lt=overlap_expression(overlap))
