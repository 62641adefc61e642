"""`POST /api/projects/<id>/step-preview/`: one solution text cut into steps by a step rule,
as an import would cut it (the Import tab previews the file's first solution with it)."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api import bounds
from labeling.api.access import project_for
from labeling.models import STEP_TAG_MAX, Role, StepSplit
from labeling.services.imports import step_rule_resolve
from labeling.steps.patterns import MAX_PATTERN
from labeling.steps.splitting import split_solution

PREVIEW_STEPS = 200  # steps the answer lists; `count` says how many there are


class StepPreviewInput(serializers.Serializer):
    text = serializers.CharField(
        max_length=bounds.MAX_TEXT, allow_blank=True, trim_whitespace=False
    )
    step_split = serializers.ChoiceField(choices=StepSplit.choices, default="", allow_blank=True)
    step_split_regex = serializers.CharField(default="", allow_blank=True, max_length=MAX_PATTERN)
    step_split_tag = serializers.CharField(
        default="", allow_blank=True, max_length=STEP_TAG_MAX, trim_whitespace=False
    )


class PreviewStepOutput(serializers.Serializer):
    text = serializers.CharField()
    thinking = serializers.BooleanField(help_text="A step of the `<think>` reasoning trace.")


class StepPreviewOutput(serializers.Serializer):
    step_split = serializers.CharField(help_text="The rule used (the project's when not given).")
    step_split_regex = serializers.CharField()
    step_split_tag = serializers.CharField()
    count = serializers.IntegerField(help_text="How many steps the text makes.")
    thinking = serializers.IntegerField(help_text="How many of them are reasoning steps.")
    steps = PreviewStepOutput(many=True, help_text=f"The first {PREVIEW_STEPS} steps.")


class StepPreviewApi(APIView):
    @extend_schema(request=StepPreviewInput, responses=StepPreviewOutput)
    def post(self, request, project_id: int):
        """Cut `text` (a solution written as one string) into steps by a step rule, as an
        import with that rule would; writes nothing."""
        project = project_for(request, project_id, at_least=Role.ADMIN)
        data = StepPreviewInput(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        rule = step_rule_resolve(
            project=project,
            split=given["step_split"],
            regex=given["step_split_regex"],
            tag=given["step_split_tag"],
        )
        steps = split_solution(given["text"], rule)
        return Response(
            StepPreviewOutput(
                {
                    "step_split": rule.split,
                    "step_split_regex": rule.regex,
                    "step_split_tag": rule.tag,
                    "count": len(steps),
                    "thinking": sum(thinking for _, thinking in steps),
                    "steps": [
                        {"text": text, "thinking": thinking}
                        for text, thinking in steps[:PREVIEW_STEPS]
                    ],
                }
            ).data
        )
