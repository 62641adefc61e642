"""One solution's review page: every annotation side by side per step, with suggestions and
evidence, gold, comments, reviews, label history and resolutions."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.selectors.review import review_detail

from .common import CommentOutput, ResolutionOutput, ReviewActionOutput, solution_for


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
    uses = serializers.ListField(child=serializers.IntegerField(), allow_null=True)


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
    uses = serializers.ListField(
        child=serializers.IntegerField(), help_text="Earlier steps (0-based) it uses."
    )
    uses_source = serializers.CharField(help_text='"import", "detected" or "".')
    thinking = serializers.BooleanField(help_text="A step of the model's reasoning trace.")
    gold_rating = serializers.IntegerField(allow_null=True)
    resolved_rating = serializers.IntegerField(allow_null=True)
    labels = StepLabelCell(many=True)
    suggestions = ReviewSuggestionOutput(many=True)
    humans_differ = serializers.BooleanField(help_text="Two submitted ratings of it differ.")
    machine_differs = serializers.ListField(
        child=serializers.CharField(),
        help_text="Machine sources whose value differs from a submitted human rating.",
    )


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
            "graph": serializers.JSONField(allow_null=True),
            "documents": serializers.ListField(child=serializers.DictField()),
            "tables": serializers.ListField(child=serializers.DictField()),
        },
    )
    project = inline_serializer(
        "ReviewProject",
        {
            "id": serializers.IntegerField(),
            "name": serializers.CharField(),
            "domain": serializers.CharField(),
            "rating_values": serializers.ListField(child=serializers.IntegerField()),
            "first_error_mode": serializers.BooleanField(),
        },
    )
    reasons = serializers.ListField(child=serializers.CharField())
    annotators_submitted = serializers.IntegerField(
        help_text="Submitted annotations: 1 is its own state (nothing to agree with)."
    )
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
        solution = solution_for(request, solution_id)
        return Response(review_detail(solution=solution))
