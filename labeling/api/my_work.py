"""An annotator's own work: the My work list, Back, reopen and resubmit
(labeling.services.labeling.my_work; reads in labeling.selectors.my_work)."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from labeling.api.access import project_for
from labeling.api.idempotency import IDEMPOTENCY_HEADER, write_request_id
from labeling.api.labeling import (
    AnnotationOutput,
    DraftInput,
    TaskOutput,
    _own_annotation,
    _validated_write,
)
from labeling.api.schema import paginated
from labeling.models import AnnotationStatus, FinishReason
from labeling.selectors.labeling_page import annotation_payload, task_payload
from labeling.selectors.my_work import QUERY_MAX_LENGTH, my_work_list
from labeling.services.labeling.annotations import annotation_record_shown
from labeling.services.labeling.my_work import (
    Reopened,
    annotation_reopen,
    annotation_resubmit,
    my_work_back,
)

MAX_LIMIT = 100
MAX_OFFSET = 1_000_000
PREVIEW_CHARS = 600  # of the problem's text in a row: the page shows a few lines


class MyWorkRowOutput(serializers.Serializer):
    annotation_id = serializers.IntegerField()
    solution_id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["submitted", "skipped"])
    finish_reason = serializers.CharField()
    reviewed = serializers.BooleanField(
        help_text="A current resolution rests on it: resubmitting sends it back to review."
    )
    at = serializers.DateTimeField(help_text="When it was last submitted or skipped.")
    problem_text = serializers.CharField(help_text=f"The first {PREVIEW_CHARS} characters.")
    problem_source = serializers.CharField()


def _row(annotation) -> dict:
    text = annotation.solution.problem.text
    return {
        "annotation_id": annotation.pk,
        "solution_id": annotation.solution_id,
        "status": "submitted" if annotation.status == AnnotationStatus.SUBMITTED else "skipped",
        "finish_reason": annotation.finish_reason,
        "reviewed": annotation.reviewed,
        "at": annotation.updated_at,
        "problem_text": text if len(text) <= PREVIEW_CHARS else text[:PREVIEW_CHARS] + "…",
        "problem_source": annotation.solution.problem.source,
    }


class MyWorkListApi(APIView):
    """What the requesting user submitted or skipped in the project, newest first."""

    class FilterInput(serializers.Serializer):
        q = serializers.CharField(
            required=False,
            allow_blank=True,
            max_length=QUERY_MAX_LENGTH,
            help_text="Words the problem's text contains (all of them, any case).",
        )
        status = serializers.ChoiceField(choices=["submitted", "skipped"], required=False)
        limit = serializers.IntegerField(min_value=1, max_value=MAX_LIMIT, default=20)
        offset = serializers.IntegerField(min_value=0, max_value=MAX_OFFSET, default=0)

    @extend_schema(
        operation_id="my_work_list",
        parameters=[FilterInput],
        responses=paginated(MyWorkRowOutput, "MyWorkPage"),
    )
    def get(self, request, project_id: int):
        project = project_for(request, project_id)
        filters = self.FilterInput(data=request.query_params)
        filters.is_valid(raise_exception=True)
        f = filters.validated_data
        qs = my_work_list(
            project=project, user=request.user, query=f.get("q", ""), status=f.get("status")
        )
        limit, offset = f["limit"], f["offset"]
        rows = list(qs[offset : offset + limit])
        count = qs.count()
        url = replace_query_param(request.build_absolute_uri(), "limit", limit)
        following = offset + limit
        return Response(
            {
                "count": count,
                "next": replace_query_param(url, "offset", following)
                if following < count
                else None,
                "previous": replace_query_param(url, "offset", max(0, offset - limit))
                if offset > 0
                else None,
                "results": [_row(annotation) for annotation in rows],
            }
        )


def _reopened_payload(reopened: Reopened) -> dict:
    task = task_payload(
        annotation=reopened.annotation,
        lock_expires_at=reopened.lock_expires_at,
        created=False,
    )
    if reopened.lock_expires_at is not None:
        annotation_record_shown(annotation=reopened.annotation, task=task)
    return task


class MyWorkBackApi(APIView):
    """Back: reopen what the user submitted or skipped last in the project."""

    @extend_schema(
        operation_id="my_work_back",
        request=None,
        responses={
            200: TaskOutput,
            204: OpenApiResponse(description="Nothing submitted or skipped yet."),
        },
    )
    def post(self, request, project_id: int):
        project = project_for(request, project_id)
        reopened = my_work_back(project=project, user=request.user)
        if reopened is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(_reopened_payload(reopened))


class AnnotationReopenApi(APIView):
    """Open one of the user's submitted or skipped annotations again. A submission: the same
    annotation (its status stays submitted; change it and send it to `resubmit`). A skip: the
    solution is claimed again if still available (a new draft, `annotation.id` differs; 409
    when others filled it)."""

    @extend_schema(operation_id="annotation_reopen", request=None, responses=TaskOutput)
    def post(self, request, annotation_id: int):
        annotation = _own_annotation(request, annotation_id)
        reopened = annotation_reopen(annotation=annotation, user=request.user)
        return Response(_reopened_payload(reopened))


class ResubmitInput(DraftInput):
    finish_reason = serializers.ChoiceField(
        choices=FinishReason.choices, default=FinishReason.SOLUTION
    )
    finish_reason_text = serializers.CharField(allow_blank=True, default="", max_length=5000)


class AnnotationResubmitApi(APIView):
    """Replace a submitted annotation's labels (a new version in the label history), with the
    submit's version and request-id checks. A reviewed one goes back to review."""

    @extend_schema(
        operation_id="annotation_resubmit",
        request=ResubmitInput,
        responses=AnnotationOutput,
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request, annotation_id: int):
        annotation = _own_annotation(request, annotation_id)
        fields = _validated_write(ResubmitInput, request.data, submit=True)
        fields.pop("next", None)
        fields["request_id"] = write_request_id(request, fields.get("request_id"))
        annotation = annotation_resubmit(annotation=annotation, user=request.user, **fields)
        return Response(annotation_payload(annotation=annotation))
