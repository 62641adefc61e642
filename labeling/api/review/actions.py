"""The reviewer's writes: accept or reject an annotation, adjudicate a solution's labels, and
(admins) mark a solution as gold."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api import bounds
from labeling.models import Role, Solution
from labeling.selectors.review import resolution_payload
from labeling.services.gold.questions import gold_set, gold_unset
from labeling.services.review.actions import review_accept, review_adjudicate, review_reject

from .common import (
    AdjudicatedLabel,
    RatingLabel,
    ResolutionOutput,
    annotation_for_review,
    solution_for,
    validated_input,
)


class AcceptApi(APIView):
    """Accept a submitted annotation: its labels become the solution's resolved label."""

    class Input(serializers.Serializer):
        class Meta:
            ref_name = "AcceptInput"

        comment = serializers.CharField(allow_blank=True, default="", max_length=10000)
        expected_resolution_id = bounds.id_field(
            allow_null=True,
            required=False,
            help_text="The current resolution you saw (null: none). 409 if it changed.",
        )

    @extend_schema(request=Input, responses=ResolutionOutput)
    def post(self, request, annotation_id: int):
        annotation = annotation_for_review(request, annotation_id)
        data = validated_input(self.Input, request)
        resolution = review_accept(annotation=annotation, reviewer=request.user, **data)
        return Response(resolution_payload(resolution))


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
        annotation = annotation_for_review(request, annotation_id)
        data = validated_input(self.Input, request)
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

        labels = AdjudicatedLabel(many=True, max_length=bounds.MAX_LABELS)
        comment = serializers.CharField(allow_blank=True, default="", max_length=10000)
        expected_resolution_id = bounds.id_field(allow_null=True, required=False)

    @extend_schema(request=Input, responses=ResolutionOutput)
    def post(self, request, solution_id: int):
        solution = solution_for(request, solution_id)
        data = validated_input(self.Input, request)
        resolution = review_adjudicate(solution=solution, reviewer=request.user, **data)
        return Response(resolution_payload(resolution))


def _gold_body(solution: Solution) -> dict:
    return {"solution_id": solution.pk, "is_gold": solution.is_gold}


class GoldApi(APIView):
    """Admins mark a solution as gold with its known labels, or unmark it."""

    class Input(serializers.Serializer):
        class Meta:
            ref_name = "GoldInput"

        labels = RatingLabel(many=True, max_length=bounds.MAX_LABELS)

    class Output(serializers.Serializer):
        class Meta:
            ref_name = "GoldOutput"

        solution_id = serializers.IntegerField()
        is_gold = serializers.BooleanField()

    @extend_schema(request=Input, responses=Output)
    def put(self, request, solution_id: int):
        solution = solution_for(request, solution_id, at_least=Role.ADMIN)
        data = validated_input(self.Input, request)
        return Response(_gold_body(gold_set(solution=solution, user=request.user, **data)))

    @extend_schema(responses=Output)
    def delete(self, request, solution_id: int):
        solution = solution_for(request, solution_id, at_least=Role.ADMIN)
        return Response(_gold_body(gold_unset(solution=solution)))
