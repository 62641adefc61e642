"""The annotator's loop: next solution, autosave, submit, skip."""

import uuid

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import Throttled
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api import bounds
from labeling.api.access import (
    not_found_unless_purging,
    project_for,
    writes_of_a_live_project,
)
from labeling.api.idempotency import IDEMPOTENCY_HEADER, write_request_id
from labeling.api.throttles import DraftThrottle
from labeling.models import FinishReason
from labeling.selectors.labeling_page import (
    annotation_get_for_user,
    annotation_payload,
    project_progress_for_user,
    task_payload,
)
from labeling.services.labeling.annotations import (
    annotation_save_draft,
    annotation_skip,
    annotation_submit,
)
from labeling.services.labeling.next_task import annotation_submit_then_next, next_task_claim

_FINISH_REASONS = frozenset(FinishReason.values)
_LABEL_KEYS = frozenset({"step_id", "rating", "unsure", "comment", "alternative_text", "uses"})
_MAX_USES = 200  # LabelInputSerializer.uses's max_length


def _plain_label(item: object) -> dict | None:
    """A label already in the form validation would give (ints, a bool, no text), else None.

    The loop's labels are nearly all this shape; DRF's per-field validation of each (a deep
    copy of five fields a label) cost more CPU than writing them."""
    if type(item) is not dict or not item.keys() <= _LABEL_KEYS or "rating" not in item:
        return None
    step_id, rating, unsure = item.get("step_id"), item["rating"], item.get("unsure", False)
    if type(step_id) is not int or type(unsure) is not bool:
        return None
    if rating is not None and (type(rating) is not int or not -1 <= rating <= 1):
        return None
    if item.get("comment", "") != "" or item.get("alternative_text", "") != "":
        return None  # text is trimmed and checked by the fields
    uses = item.get("uses")
    if uses is not None and (
        type(uses) is not list
        or len(uses) > _MAX_USES
        or not all(type(k) is int and k >= 0 for k in uses)
    ):
        return None
    return {
        "step_id": step_id,
        "rating": rating,
        "unsure": unsure,
        "comment": "",
        "alternative_text": "",
        "uses": uses,
    }


_DRAFT_KEYS = frozenset({"version", "labels", "time_spent_ms", "request_id"})
_SUBMIT_KEYS = _DRAFT_KEYS | {"finish_reason", "finish_reason_text", "next"}
_MAX_LABELS = bounds.MAX_LABELS  # a draft's or submit's labels at most


def _plain_write(data: object, *, submit: bool) -> dict | None:
    """A draft or submit body already in the form DraftInput / SubmitInput would give it, else
    None (then the serializer validates it, with its errors). What the labeling page and
    scripts send: ints, plain labels, a UUID string, no finish text. DRF builds and deep-copies
    the fields of every serializer instance, about 5% of a submit's CPU."""
    if type(data) is not dict or not data.keys() <= (_SUBMIT_KEYS if submit else _DRAFT_KEYS):
        return None
    version, labels = data.get("version"), data.get("labels")
    if type(version) is not int or not 1 <= version <= bounds.MAX_VERSION:
        return None
    if type(labels) is not list or len(labels) > _MAX_LABELS:
        return None
    plain = [_plain_label(item) for item in labels]
    if any(label is None for label in plain):
        return None
    out: dict = {"version": version, "labels": plain}
    if "time_spent_ms" in data:
        spent = data["time_spent_ms"]
        if type(spent) is not int or not 0 <= spent <= bounds.MAX_TIME_SPENT_MS:
            return None
        out["time_spent_ms"] = spent
    if "request_id" in data:
        if type(data["request_id"]) is not str:
            return None
        try:
            out["request_id"] = uuid.UUID(hex=data["request_id"])
        except ValueError:
            return None
    if not submit:
        return out
    reason = data.get("finish_reason", FinishReason.SOLUTION)  # the field's default as it is
    claim_next = data.get("next", False)
    if not isinstance(reason, str) or reason not in _FINISH_REASONS:
        return None
    if type(claim_next) is not bool:
        return None
    if data.get("finish_reason_text", "") != "":
        return None  # text is trimmed and checked by the field
    out.update(finish_reason=reason, finish_reason_text="", next=claim_next)
    return out


def _validated_write(serializer_class, data: object, *, submit: bool) -> dict:
    plain = _plain_write(data, submit=submit)
    if plain is not None:
        return plain
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class LabelListSerializer(serializers.ListSerializer):
    def to_internal_value(self, data):
        """Plain labels (`_plain_label`) skip the fields; anything else (a string for a
        number, text, a bad value) goes through them, with their errors."""
        if type(data) is list and (self.max_length is None or len(data) <= self.max_length):
            plain = [_plain_label(item) for item in data]
            if all(label is not None for label in plain):
                return plain
        return super().to_internal_value(data)


class LabelInputSerializer(serializers.Serializer):
    step_id = bounds.id_field()
    rating = serializers.IntegerField(allow_null=True, min_value=-1, max_value=1)
    unsure = serializers.BooleanField(default=False)
    comment = serializers.CharField(allow_blank=True, default="", max_length=10000)
    alternative_text = serializers.CharField(allow_blank=True, default="", max_length=20000)
    uses = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=bounds.MAX_STEP_INDEX),
        allow_null=True,
        default=None,
        max_length=200,
        help_text="The earlier steps (0-based indices) this step uses, as the annotator marked "
        "them; null: not marked (the step's own `uses` stand).",
    )

    class Meta:
        list_serializer_class = LabelListSerializer


class AnnotationOutput(serializers.Serializer):
    id = serializers.IntegerField()
    solution_id = serializers.IntegerField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    finish_reason = serializers.CharField()
    finish_reason_text = serializers.CharField()
    time_spent_ms = serializers.IntegerField()
    labels = LabelInputSerializer(many=True)
    updated_at = serializers.DateTimeField()


class SuggestionOutput(serializers.Serializer):
    source = serializers.CharField()
    agent = serializers.CharField()
    value = serializers.IntegerField(allow_null=True)
    score = serializers.FloatField(allow_null=True)
    evidence = serializers.JSONField()


class StepOutput(serializers.Serializer):
    id = serializers.IntegerField()
    index = serializers.IntegerField()
    text = serializers.CharField()
    alternatives_count = serializers.IntegerField()
    suggestions = SuggestionOutput(many=True)
    # Agent steps: {kind: tool_call | observation | message, role, name, arguments,
    # tool_call_id}; evidence-cited steps: {citations: [...]}; {} for plain steps.
    meta = serializers.JSONField()
    images = serializers.ListField(child=serializers.CharField())  # authenticated URLs
    uses = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The earlier steps (0-based) it uses, as imported or detected.",
    )
    uses_source = serializers.CharField(help_text='"import", "detected" or "" (none).')
    thinking = serializers.BooleanField(
        help_text="A step of the model's reasoning trace (`<think>` block), shown folded."
    )


class SolutionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    generator = serializers.CharField()
    final_answer = serializers.CharField()
    answer_correct = serializers.BooleanField(allow_null=True)
    steps = StepOutput(many=True)


class ProblemOutput(serializers.Serializer):
    id = serializers.IntegerField()
    text = serializers.CharField()
    answer = serializers.CharField()
    source = serializers.CharField()
    images = serializers.ListField(child=serializers.CharField())
    tools = serializers.ListField(child=serializers.CharField())  # an agent problem's tool names
    # A graph problem's {directed, weighted, nodes, edges: [[u, v, w?]], task}; null otherwise.
    graph = serializers.JSONField(allow_null=True)
    # An evidence-cited problem's sources: [{id, title, text}] and [{id, title, columns, rows}].
    documents = serializers.ListField(child=serializers.DictField())
    tables = serializers.ListField(child=serializers.DictField())


class TaskProjectOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    guidelines = serializers.CharField()
    domain = serializers.CharField()
    first_error_mode = serializers.BooleanField()
    rating_values = serializers.ListField(child=serializers.IntegerField())
    show_suggestions = serializers.BooleanField()
    allow_resegment = serializers.BooleanField()


class ReworkOutput(serializers.Serializer):
    rejected_annotation_id = serializers.IntegerField()
    comment = serializers.CharField()
    reviewer = serializers.CharField(allow_null=True)
    rejected_at = serializers.DateTimeField(allow_null=True)


class TaskOutput(serializers.Serializer):
    annotation = AnnotationOutput()
    solution = SolutionOutput()
    problem = ProblemOutput()
    lock_expires_at = serializers.DateTimeField(allow_null=True)
    rework = ReworkOutput(allow_null=True, help_text="Set when a reviewer sent this back.")
    project = TaskProjectOutput()


class QueueNextApi(APIView):
    """Serve the annotator's next solution: their own draft first, else a fresh claim."""

    @extend_schema(
        request=None,
        responses={200: TaskOutput, 204: OpenApiResponse(description="Nothing left to label.")},
    )
    def post(self, request, project_id: int):
        task = next_task_claim(project=project_for(request, project_id), user=request.user)
        if task is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(task)


class ProgressOutput(serializers.Serializer):
    done_today = serializers.IntegerField()
    submitted_total = serializers.IntegerField()
    remaining = serializers.IntegerField(
        help_text="Solutions left for the user, counted up to 1,000 (see remaining_capped)."
    )
    remaining_capped = serializers.BooleanField(
        help_text="More than `remaining` are left: the count stopped at its cap."
    )
    project_total = serializers.IntegerField(help_text="Solutions in the project (cached 60 s).")
    screening = serializers.ChoiceField(choices=["not_required", "pending", "passed", "failed"])


class ProgressApi(APIView):
    @extend_schema(responses=ProgressOutput)
    def get(self, request, project_id: int):
        project = project_for(request, project_id)
        return Response(project_progress_for_user(project=project, user=request.user))


def _own_annotation(request, annotation_id: int):
    annotation = annotation_get_for_user(annotation_id=annotation_id, user=request.user)
    if annotation is None:
        not_found_unless_purging(request, "annotation")
    # Still a member? (the role came with the annotation)
    project_for(request, annotation.solution.project, member_role=annotation.member_role)
    return annotation


class AnnotationDetailApi(APIView):
    @extend_schema(responses=TaskOutput)
    def get(self, request, annotation_id: int):
        annotation = _own_annotation(request, annotation_id)
        return Response(task_payload(annotation=annotation, lock_expires_at=None))


REQUEST_ID_HELP = (
    "A UUID the client makes once per write and sends again on every retry of it (or the "
    "Idempotency-Key header). A retry of the write last applied to this annotation applies "
    "nothing and gets the success answer (the annotation as it is), not a 409."
)


class DraftInput(serializers.Serializer):
    version = serializers.IntegerField(min_value=1, max_value=bounds.MAX_VERSION)
    labels = LabelInputSerializer(many=True, max_length=_MAX_LABELS)
    time_spent_ms = bounds.time_spent_field(required=False)
    request_id = serializers.UUIDField(required=False, help_text=REQUEST_ID_HELP)


class AnnotationDraftApi(APIView):
    throttle_classes = [DraftThrottle]  # a client saving in a loop (issue 24)

    def throttled(self, request, wait):
        seconds = max(1, round(wait or 1))
        raise Throttled(
            wait=seconds,
            detail=f"Saving too often. Your draft is kept; it is saved again in {seconds} s.",
        )

    @extend_schema(request=DraftInput, responses=AnnotationOutput, parameters=[IDEMPOTENCY_HEADER])
    def put(self, request, annotation_id: int):
        annotation = _own_annotation(request, annotation_id)
        fields = _validated_write(DraftInput, request.data, submit=False)
        fields["request_id"] = write_request_id(request, fields.get("request_id"))
        with writes_of_a_live_project(annotation.solution.project_id):
            annotation = annotation_save_draft(annotation=annotation, user=request.user, **fields)
        return Response(annotation_payload(annotation=annotation))


class SubmitInput(DraftInput):
    finish_reason = serializers.ChoiceField(
        choices=FinishReason.choices, default=FinishReason.SOLUTION
    )
    finish_reason_text = serializers.CharField(allow_blank=True, default="", max_length=5000)
    next = serializers.BooleanField(
        default=False,
        help_text="Also claim the annotator's next task in the project and answer it as "
        "`next_task` (null: nothing left), so the labeling loop is one request per task. A "
        "retry with the same request_id answers the task claimed the first time (the user's "
        "own draft is served first).",
    )


class SubmitOutput(AnnotationOutput):
    next_task = TaskOutput(
        allow_null=True, required=False, help_text="Present when the submit asked for `next`."
    )


class AnnotationSubmitApi(APIView):
    @extend_schema(request=SubmitInput, responses=SubmitOutput, parameters=[IDEMPOTENCY_HEADER])
    def post(self, request, annotation_id: int):
        annotation = _own_annotation(request, annotation_id)
        fields = _validated_write(SubmitInput, request.data, submit=True)
        fields["request_id"] = write_request_id(request, fields.get("request_id"))
        claim_next = fields.pop("next")
        project = annotation.solution.project  # with the role _own_annotation checked
        if not claim_next:
            with writes_of_a_live_project(project.pk):
                annotation = annotation_submit(annotation=annotation, user=request.user, **fields)
            return Response(annotation_payload(annotation=annotation))
        with writes_of_a_live_project(project.pk):
            annotation, task = annotation_submit_then_next(
                annotation=annotation, user=request.user, project=project, **fields
            )
        return Response({**annotation_payload(annotation=annotation), "next_task": task})


class SkipInput(serializers.Serializer):
    request_id = serializers.UUIDField(required=False, help_text=REQUEST_ID_HELP)


class AnnotationSkipApi(APIView):
    @extend_schema(request=SkipInput, responses={204: None}, parameters=[IDEMPOTENCY_HEADER])
    def post(self, request, annotation_id: int):
        annotation = _own_annotation(request, annotation_id)
        data = SkipInput(data=request.data)
        data.is_valid(raise_exception=True)
        request_id = write_request_id(request, data.validated_data.get("request_id"))
        with writes_of_a_live_project(annotation.solution.project_id):
            annotation_skip(annotation=annotation, user=request.user, request_id=request_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
