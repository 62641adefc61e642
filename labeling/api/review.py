"""Review: the queue, one solution side by side, accept / reject / adjudicate, comments,
metrics, gold, and the annotator's view of reviews of their own work.

Reviewers and admins only, except comments (annotators on solutions they labeled) and the
annotator's own feedback and rejections. Other projects' objects answer 404.
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api.access import project_for
from labeling.models import Annotation, AnnotationStatus, Role, Solution
from labeling.review_selectors import (
    QUEUE_STATES,
    REASONS,
    annotation_feedback,
    comment_list,
    item_reasons,
    rejection_list_for_user,
    review_annotator_list,
    review_detail,
    review_queue,
    review_queue_counts,
)
from labeling.selectors import ROLE_RANK, annotation_get_for_user
from labeling.services.comments import comment_create
from labeling.services.gold import gold_set, gold_unset
from labeling.services.metrics import metrics_get
from labeling.services.review import review_accept, review_adjudicate, review_reject


def _solution_for(request, solution_id: int, *, at_least: str = Role.REVIEWER) -> Solution:
    solution = get_object_or_404(Solution.objects.select_related("project"), pk=solution_id)
    solution.project = project_for(request, solution.project_id, at_least=at_least)
    return solution


def _annotation_for_review(request, annotation_id: int) -> Annotation:
    annotation = get_object_or_404(Annotation.objects.select_related("solution"), pk=annotation_id)
    project_for(request, annotation.solution.project_id, at_least=Role.REVIEWER)
    return annotation


def _valid(input_class: type[serializers.Serializer], request: Request) -> dict:
    """The request body validated by the view's `Input` (400 naming the field otherwise).

    The writes below pass it on as the service's keyword arguments: each Input's fields are
    named after them, and a field left out keeps the service's default (an omitted
    `expected_resolution_id` means "do not check").
    """
    data = input_class(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


class RatingLabel(serializers.Serializer):
    step_id = serializers.IntegerField()
    rating = serializers.IntegerField(allow_null=True, min_value=-1, max_value=1)


class ResolutionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    provenance = serializers.CharField()
    first_error_index = serializers.IntegerField(allow_null=True)
    resolved_by = serializers.CharField(allow_null=True)
    annotation_ids = serializers.ListField(child=serializers.IntegerField())
    is_current = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    labels = RatingLabel(many=True)


class QueueItemOutput(serializers.Serializer):
    id = serializers.IntegerField()
    problem_id = serializers.IntegerField()
    problem_text = serializers.CharField(source="problem.text")
    problem_source = serializers.CharField(source="problem.source")
    generator = serializers.CharField()
    is_gold = serializers.BooleanField()
    reasons = serializers.SerializerMethodField()
    reason = serializers.SerializerMethodField()
    annotations_submitted = serializers.IntegerField()
    last_submitted_at = serializers.DateTimeField(allow_null=True)
    resolution_id = serializers.IntegerField(allow_null=True)
    resolution_provenance = serializers.CharField(allow_null=True)

    def get_reasons(self, solution: Solution) -> list[str]:
        return item_reasons(solution)

    def get_reason(self, solution: Solution) -> str:
        reasons = item_reasons(solution)
        return reasons[0] if reasons else "rest"


class QueueCountsOutput(serializers.Serializer):
    total = serializers.IntegerField()
    disagreement = serializers.IntegerField()
    unsure = serializers.IntegerField()
    gold_failure = serializers.IntegerField()
    auto_conflict = serializers.IntegerField()
    rest = serializers.IntegerField()


class ReviewQueueApi(APIView):
    """Solutions with submitted labels, most in need of review first, with the reasons."""

    class FilterInput(serializers.Serializer):
        annotator = serializers.IntegerField(required=False, help_text="User id of a submitter.")
        source = serializers.CharField(required=False, help_text="The problem's source.")
        submitted_from = serializers.DateTimeField(required=False)
        submitted_to = serializers.DateTimeField(required=False)
        state = serializers.ChoiceField(choices=QUEUE_STATES, default="unresolved")
        reason = serializers.ChoiceField(choices=[*REASONS, "rest"], required=False)

    @extend_schema(
        parameters=[FilterInput],
        responses=inline_serializer(
            "ReviewQueuePage",
            {
                "count": serializers.IntegerField(),
                "next": serializers.URLField(allow_null=True),
                "previous": serializers.URLField(allow_null=True),
                "results": QueueItemOutput(many=True),
                "counts": QueueCountsOutput(),
                "annotators": inline_serializer(
                    "QueueAnnotator",
                    {"id": serializers.IntegerField(), "username": serializers.CharField()},
                    many=True,
                    help_text="Everyone the `annotator` filter can name (submitters).",
                ),
            },
        ),
    )
    def get(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.REVIEWER)
        filters = self.FilterInput(data=request.query_params)
        filters.is_valid(raise_exception=True)
        f = filters.validated_data
        qs = review_queue(
            project=project,
            annotator_id=f.get("annotator"),
            source=f.get("source"),
            submitted_from=f.get("submitted_from"),
            submitted_to=f.get("submitted_to"),
            state=f["state"],
            reason=f.get("reason"),
        )
        paginator = LimitOffsetPagination()
        page = paginator.paginate_queryset(qs, request)
        response = paginator.get_paginated_response(QueueItemOutput(page, many=True).data)
        response.data["counts"] = review_queue_counts(project=project, state=f["state"])
        response.data["annotators"] = review_annotator_list(project=project)
        return response


class ReviewAnnotationOutput(serializers.Serializer):
    id = serializers.IntegerField()
    annotator = serializers.CharField()
    annotator_id = serializers.IntegerField(allow_null=True)
    imported = serializers.BooleanField()
    status = serializers.CharField()
    revises_id = serializers.IntegerField(allow_null=True)
    finish_reason = serializers.CharField()
    finish_reason_text = serializers.CharField()
    time_spent_ms = serializers.IntegerField()
    submitted_at = serializers.DateTimeField(allow_null=True)
    first_error_index = serializers.IntegerField(allow_null=True)


class StepLabelCell(serializers.Serializer):
    annotation_id = serializers.IntegerField()
    rating = serializers.IntegerField(allow_null=True)
    unsure = serializers.BooleanField()
    comment = serializers.CharField()
    alternative_text = serializers.CharField()


class ReviewSuggestionOutput(serializers.Serializer):
    source = serializers.CharField()
    agent = serializers.CharField()
    value = serializers.IntegerField(allow_null=True)
    score = serializers.FloatField(allow_null=True)
    evidence = serializers.JSONField()


class ReviewStepOutput(serializers.Serializer):
    id = serializers.IntegerField()
    index = serializers.IntegerField()
    text = serializers.CharField()
    meta = serializers.JSONField()  # agent steps: kind, name, arguments, tool_call_id
    images = serializers.ListField(child=serializers.CharField())
    alternatives_count = serializers.IntegerField()
    gold_rating = serializers.IntegerField(allow_null=True)
    resolved_rating = serializers.IntegerField(allow_null=True)
    labels = StepLabelCell(many=True)
    suggestions = ReviewSuggestionOutput(many=True)


class CommentOutput(serializers.Serializer):
    id = serializers.IntegerField()
    step_id = serializers.IntegerField(allow_null=True)
    author = serializers.CharField()
    body = serializers.CharField()
    review_id = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()


class ReviewActionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    action = serializers.CharField()
    annotation_id = serializers.IntegerField(allow_null=True)
    reviewer = serializers.CharField()
    comment = serializers.CharField()
    created_at = serializers.DateTimeField()


class HistoryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    annotation_id = serializers.IntegerField(allow_null=True)
    resolution_id = serializers.IntegerField(allow_null=True)
    step_id = serializers.IntegerField()
    step_index = serializers.IntegerField()
    user = serializers.CharField(allow_null=True)
    action = serializers.CharField()
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)
    at = serializers.DateTimeField()


class ReviewDetailOutput(serializers.Serializer):
    solution = inline_serializer(
        "ReviewSolution",
        {
            "id": serializers.IntegerField(),
            "generator": serializers.CharField(),
            "final_answer": serializers.CharField(),
            "answer_correct": serializers.BooleanField(allow_null=True),
            "is_gold": serializers.BooleanField(),
            "source": serializers.CharField(),
        },
    )
    problem = inline_serializer(
        "ReviewProblem",
        {
            "id": serializers.IntegerField(),
            "text": serializers.CharField(),
            "answer": serializers.CharField(),
            "source": serializers.CharField(),
            "images": serializers.ListField(child=serializers.CharField()),
            "tools": serializers.ListField(child=serializers.CharField()),
        },
    )
    project = inline_serializer(
        "ReviewProject",
        {
            "id": serializers.IntegerField(),
            "name": serializers.CharField(),
            "rating_values": serializers.ListField(child=serializers.IntegerField()),
            "first_error_mode": serializers.BooleanField(),
        },
    )
    reasons = serializers.ListField(child=serializers.CharField())
    annotations = ReviewAnnotationOutput(many=True)
    steps = ReviewStepOutput(many=True)
    resolution = ResolutionOutput(allow_null=True)
    resolutions = ResolutionOutput(many=True)
    comments = CommentOutput(many=True)
    reviews = ReviewActionOutput(many=True)
    history = HistoryOutput(many=True)


class ReviewDetailApi(APIView):
    """All annotations of a solution side by side per step, with suggestions and evidence,
    gold, comments, reviews, label history and resolutions."""

    @extend_schema(responses=ReviewDetailOutput)
    def get(self, request, solution_id: int):
        solution = _solution_for(request, solution_id)
        return Response(review_detail(solution=solution))


def _resolution_body(resolution) -> dict:
    return {
        "id": resolution.id,
        "provenance": resolution.provenance,
        "first_error_index": resolution.first_error_index,
        "resolved_by": resolution.resolved_by.username if resolution.resolved_by else None,
        "annotation_ids": sorted(resolution.annotations.values_list("pk", flat=True)),
        "is_current": resolution.is_current,
        "created_at": resolution.created_at,
        "labels": list(resolution.labels.order_by("step__index").values("step_id", "rating")),
    }


class AcceptApi(APIView):
    """Accept a submitted annotation: its labels become the solution's resolved label."""

    class Input(serializers.Serializer):
        class Meta:
            ref_name = "AcceptInput"

        comment = serializers.CharField(allow_blank=True, default="", max_length=10000)
        expected_resolution_id = serializers.IntegerField(
            allow_null=True,
            required=False,
            help_text="The current resolution you saw (null: none). 409 if it changed.",
        )

    @extend_schema(request=Input, responses=ResolutionOutput)
    def post(self, request, annotation_id: int):
        annotation = _annotation_for_review(request, annotation_id)
        data = _valid(self.Input, request)
        resolution = review_accept(annotation=annotation, reviewer=request.user, **data)
        return Response(_resolution_body(resolution))


class RejectApi(APIView):
    """Reject a submitted annotation with a comment; it returns to its annotator's queue."""

    class Input(serializers.Serializer):
        class Meta:
            ref_name = "RejectInput"

        comment = serializers.CharField(max_length=10000)

    class Output(serializers.Serializer):
        class Meta:
            ref_name = "RejectOutput"

        rejected_id = serializers.IntegerField()
        rework_id = serializers.IntegerField()
        annotator_id = serializers.IntegerField()

    @extend_schema(request=Input, responses=Output)
    def post(self, request, annotation_id: int):
        annotation = _annotation_for_review(request, annotation_id)
        data = _valid(self.Input, request)
        rework = review_reject(annotation=annotation, reviewer=request.user, **data)
        return Response(
            {
                "rejected_id": annotation.pk,
                "rework_id": rework.pk,
                "annotator_id": rework.annotator_id,
            }
        )


class AdjudicateApi(APIView):
    """Set the resolved rating of every step yourself."""

    class Input(serializers.Serializer):
        class Meta:
            ref_name = "AdjudicateInput"

        labels = RatingLabel(many=True, max_length=2000)
        comment = serializers.CharField(allow_blank=True, default="", max_length=10000)
        expected_resolution_id = serializers.IntegerField(allow_null=True, required=False)

    @extend_schema(request=Input, responses=ResolutionOutput)
    def post(self, request, solution_id: int):
        solution = _solution_for(request, solution_id)
        data = _valid(self.Input, request)
        resolution = review_adjudicate(solution=solution, reviewer=request.user, **data)
        return Response(_resolution_body(resolution))


class CommentListApi(APIView):
    """A solution's comment thread (and its steps'); `?step=<id>` for one step's thread.

    Reviewers and admins of the project; annotators on solutions they have labeled.
    """

    class Input(serializers.Serializer):
        class Meta:
            ref_name = "CommentCreateInput"

        body = serializers.CharField(max_length=10000)
        step_id = serializers.IntegerField(required=False, allow_null=True)

    def _solution(self, request, solution_id: int) -> Solution:
        solution = _solution_for(request, solution_id, at_least=Role.ANNOTATOR)
        if ROLE_RANK[solution.project.my_role] >= ROLE_RANK[Role.REVIEWER]:
            return solution
        labeled = (
            Annotation.objects.filter(solution=solution, annotator=request.user)
            .exclude(status=AnnotationStatus.DISCARDED)
            .exists()
        )
        if not labeled:
            raise PermissionDenied("Annotators can comment only on solutions they labeled.")
        return solution

    @extend_schema(
        parameters=[OpenApiParameter("step", int, required=False)],
        responses=CommentOutput(many=True),
    )
    def get(self, request, solution_id: int):
        solution = self._solution(request, solution_id)
        step = request.query_params.get("step")
        step_id = int(step) if step and step.isdigit() else None
        reviewing = ROLE_RANK[solution.project.my_role] >= ROLE_RANK[Role.REVIEWER]
        annotator = None if reviewing else request.user
        return Response(comment_list(solution=solution, step_id=step_id, annotator=annotator))

    @extend_schema(request=Input, responses={201: CommentOutput})
    def post(self, request, solution_id: int):
        solution = self._solution(request, solution_id)
        data = _valid(self.Input, request)
        comment = comment_create(solution=solution, author=request.user, **data)
        body = {
            "id": comment.id,
            "step_id": comment.step_id,
            "author": request.user.username,
            "body": comment.body,
            "review_id": None,
            "created_at": comment.created_at,
        }
        return Response(body, status=status.HTTP_201_CREATED)


def _gold_body(solution: Solution) -> dict:
    return {"solution_id": solution.pk, "is_gold": solution.is_gold}


class GoldApi(APIView):
    """Admins mark a solution as gold with its known labels, or unmark it."""

    class Input(serializers.Serializer):
        class Meta:
            ref_name = "GoldInput"

        labels = RatingLabel(many=True, max_length=2000)

    class Output(serializers.Serializer):
        class Meta:
            ref_name = "GoldOutput"

        solution_id = serializers.IntegerField()
        is_gold = serializers.BooleanField()

    @extend_schema(request=Input, responses=Output)
    def put(self, request, solution_id: int):
        solution = _solution_for(request, solution_id, at_least=Role.ADMIN)
        data = _valid(self.Input, request)
        return Response(_gold_body(gold_set(solution=solution, user=request.user, **data)))

    @extend_schema(responses=Output)
    def delete(self, request, solution_id: int):
        solution = _solution_for(request, solution_id, at_least=Role.ADMIN)
        return Response(_gold_body(gold_unset(solution=solution)))


class MetricsApi(APIView):
    """Agreement, gold accuracy, agreement with machine sources and throughput.

    Small projects are computed on request; large ones come from the last snapshot
    (`cached: true`), refreshed by a Celery task when stale or when `?refresh=1`. 202 while
    the first snapshot of a large project is being computed.
    """

    @extend_schema(
        parameters=[OpenApiParameter("refresh", bool, required=False)],
        responses={
            200: inline_serializer(
                "ProjectMetrics",
                {
                    "step_ratings": serializers.JSONField(),
                    "pairs": serializers.JSONField(),
                    "first_error": serializers.JSONField(),
                    "gold": serializers.JSONField(),
                    "auto_sources": serializers.JSONField(),
                    "throughput": serializers.JSONField(),
                    "label_distribution": serializers.JSONField(),
                    "computed_at": serializers.DateTimeField(),
                    "cached": serializers.BooleanField(),
                    "refreshing": serializers.BooleanField(),
                },
            ),
            202: inline_serializer("MetricsComputing", {"status": serializers.CharField()}),
        },
    )
    def get(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.REVIEWER)
        refresh = request.query_params.get("refresh") in ("1", "true")
        answer = metrics_get(project=project, refresh=refresh)
        if answer.data is None:
            return Response({"status": "computing"}, status=status.HTTP_202_ACCEPTED)
        meta = {
            "computed_at": answer.computed_at,
            "cached": answer.cached,
            "refreshing": answer.refreshing,
        }
        return Response({**answer.data, **meta})


class FeedbackOutput(serializers.Serializer):
    annotation_id = serializers.IntegerField()
    status = serializers.CharField()
    revises_id = serializers.IntegerField(allow_null=True)
    rework_id = serializers.IntegerField(allow_null=True)
    rework_status = serializers.CharField(allow_null=True)
    reviews = ReviewActionOutput(many=True)
    comments = CommentOutput(many=True)


class AnnotationFeedbackApi(APIView):
    """The annotator's own annotation: reviews of it (rejections with the reviewer's
    comment), reviews of the one it reworks, and the solution's comments."""

    @extend_schema(responses=FeedbackOutput)
    def get(self, request, annotation_id: int):
        annotation = annotation_get_for_user(annotation_id=annotation_id, user=request.user)
        if annotation is None:
            raise NotFound("No such annotation.")
        project_for(request, annotation.solution.project_id)
        return Response(annotation_feedback(annotation=annotation))


class RejectionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    solution_id = serializers.IntegerField()
    comment = serializers.CharField(allow_null=True)
    reviewer = serializers.CharField(allow_null=True)
    rejected_at = serializers.DateTimeField(allow_null=True)
    rework_id = serializers.IntegerField(allow_null=True)
    rework_status = serializers.CharField(allow_null=True)


class MyRejectionsApi(APIView):
    """The requesting user's rejected annotations in the project, with the comments."""

    @extend_schema(responses=RejectionOutput(many=True))
    def get(self, request, project_id: int):
        project = project_for(request, project_id)
        return Response(rejection_list_for_user(project=project, user=request.user))
