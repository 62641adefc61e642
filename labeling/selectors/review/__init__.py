"""Reads for review: the queue ordered by need, one solution's review page, feedback.

The queue's reasons are computed by the database with subqueries over the submitted labels
(`reasons_mask`); nothing loads labels into Python to decide what needs review. Computing them
for a whole project on every page load takes seconds past ~10k solutions, so a project with
`review_reasons_stored` reads the mask the services store on each solution
(`Solution.review_reasons`, labeling/services/review/reasons.py) instead: the same expression,
evaluated when the inputs change rather than when a reviewer opens a page.

Modules, by concern:
    reasons.py   the reasons and their bit mask (disagreement, unsure, gold, auto conflict)
    queue.py     the queue: filters, order, per-reason counts, the annotator filter's names
    detail.py    one solution's review page
    feedback.py  comments, review actions, label history; an annotator's own feedback
"""

from .detail import resolution_payload, review_detail
from .feedback import (
    annotation_feedback,
    comment_list,
    comment_rows,
    label_history_rows,
    rejection_list_for_user,
    review_action_rows,
)
from .queue import (
    COUNT_CAP,
    QUEUE_STATES,
    count_capped,
    review_annotator_list,
    review_queue,
    review_queue_counts,
    review_queue_counts_bounded,
    with_review_reasons,
)
from .reasons import (
    AUTO_CONFLICT_SOURCES,
    NO_ERROR,
    REASON_BITS,
    REASONS,
    has_submission,
    item_reasons,
    masks_with,
    reason_conditions,
    reason_sets,
    reasons_mask,
)

__all__ = [
    "AUTO_CONFLICT_SOURCES",
    "COUNT_CAP",
    "NO_ERROR",
    "QUEUE_STATES",
    "REASONS",
    "REASON_BITS",
    "annotation_feedback",
    "comment_list",
    "comment_rows",
    "count_capped",
    "has_submission",
    "item_reasons",
    "label_history_rows",
    "masks_with",
    "reason_conditions",
    "reason_sets",
    "reasons_mask",
    "rejection_list_for_user",
    "review_action_rows",
    "review_annotator_list",
    "resolution_payload",
    "review_detail",
    "review_queue",
    "review_queue_counts",
    "review_queue_counts_bounded",
    "with_review_reasons",
]
