"""Splitting and merging steps in the label page (labeling.services.labeling.resegment)."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api import bounds
from labeling.api.access import writes_of_a_live_project
from labeling.api.labeling import TaskOutput, _own_annotation
from labeling.selectors.labeling_page import task_payload
from labeling.services.labeling.resegment import step_merge, step_split


class StepSplitInput(serializers.Serializer):
    version = serializers.IntegerField(min_value=1, max_value=bounds.MAX_VERSION)
    step_id = serializers.IntegerField(min_value=1, max_value=bounds.MAX_ID)
    offset = serializers.IntegerField(
        min_value=1,
        max_value=bounds.MAX_TEXT,
        help_text="Character offset in the step's text: the first half ends there.",
    )


class StepMergeInput(serializers.Serializer):
    version = serializers.IntegerField(min_value=1, max_value=bounds.MAX_VERSION)
    step_id = serializers.IntegerField(
        min_value=1, max_value=bounds.MAX_ID, help_text="The step merged with the one after it."
    )


class StepSplitApi(APIView):
    @extend_schema(request=StepSplitInput, responses=TaskOutput)
    def post(self, request, annotation_id: int):
        """Split a step of the draft's solution in two; answers the task with its new steps."""
        annotation = _own_annotation(request, annotation_id)
        data = StepSplitInput(data=request.data)
        data.is_valid(raise_exception=True)
        with writes_of_a_live_project(annotation.solution.project_id):
            annotation = step_split(annotation=annotation, user=request.user, **data.validated_data)
        return Response(task_payload(annotation=annotation, lock_expires_at=None))


class StepMergeApi(APIView):
    @extend_schema(request=StepMergeInput, responses=TaskOutput)
    def post(self, request, annotation_id: int):
        """Merge a step of the draft's solution with the next; answers the task."""
        annotation = _own_annotation(request, annotation_id)
        data = StepMergeInput(data=request.data)
        data.is_valid(raise_exception=True)
        with writes_of_a_live_project(annotation.solution.project_id):
            annotation = step_merge(annotation=annotation, user=request.user, **data.validated_data)
        return Response(task_payload(annotation=annotation, lock_expires_at=None))
