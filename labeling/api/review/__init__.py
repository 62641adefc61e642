"""Review: the queue, one solution side by side, accept / reject / adjudicate, comments,
metrics, gold, and the annotator's view of reviews of their own work.

Reviewers and admins only, except comments (annotators on solutions they labeled) and the
annotator's own feedback and rejections. Other projects' objects answer 404.

Modules, by concern:
    common.py    who may review what, the validated body, outputs several endpoints share
    queue.py     the queue page
    detail.py    one solution's review page
    actions.py   accept, reject, adjudicate; gold
    comments.py  comment threads
    feedback.py  an annotator's reviews and rejections
    metrics.py   the project's review metrics
"""

from .actions import AcceptApi, AdjudicateApi, GoldApi, RejectApi
from .comments import CommentListApi
from .detail import ReviewDetailApi
from .feedback import AnnotationFeedbackApi, MyRejectionsApi
from .metrics import MetricsApi
from .queue import ReviewQueueApi

__all__ = [
    "AcceptApi",
    "AdjudicateApi",
    "AnnotationFeedbackApi",
    "CommentListApi",
    "GoldApi",
    "MetricsApi",
    "MyRejectionsApi",
    "RejectApi",
    "ReviewDetailApi",
    "ReviewQueueApi",
]
