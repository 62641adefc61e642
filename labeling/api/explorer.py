"""The solutions explorer (project admins): search, filter, sort and page a project's
solutions, and act on a selection or on everything a filter matches. The read-only view of
one solution is the review detail (`GET /api/solutions/<id>/review/`)."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api.access import project_for
from labeling.models import Role
from labeling.rules.machine_sources import SOURCE_MAX_LENGTH, machine_sources
from labeling.selectors.explorer import (
    ANSWERS,
    LABEL_STATES,
    QUEUE_STATUSES,
    SORTS,
    VERDICTS,
    ExplorerFilter,
    explorer_page,
)
from labeling.services.projects.explorer import BULK_ACTIONS, BULK_MAX, explorer_bulk

MAX_PAGE = 200
MAX_OFFSET = 1_000_000


def _blank(choices) -> list[str]:
    return ["", *choices]


class ExplorerFilterInput(serializers.Serializer):
    """What selects and orders the explorer's solutions (the query string, or a bulk body's
    `filter`); every field is optional."""

    class Meta:
        ref_name = "ExplorerFilterInput"

    q = serializers.CharField(
        required=False, allow_blank=True, max_length=200, help_text="Problem text contains."
    )
    state = serializers.ChoiceField(
        choices=_blank(LABEL_STATES), required=False, help_text="Label state."
    )
    status = serializers.ChoiceField(
        choices=_blank(QUEUE_STATUSES), required=False, help_text="In the open labeling pool."
    )
    disagreement = serializers.BooleanField(required=False, allow_null=True, default=None)
    verdict = serializers.ChoiceField(
        choices=_blank(VERDICTS),
        required=False,
        help_text="error: a machine source marks a step wrong (−1); no_error: machine "
        "suggestions without a −1; none: no machine suggestion.",
    )
    verdict_source = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=SOURCE_MAX_LENGTH,
        help_text="Restrict `verdict` to one machine source: a built-in one or an installed "
        "engine plug-in's name.",
    )
    answer = serializers.ChoiceField(
        choices=_blank(ANSWERS), required=False, help_text="The final answer's check."
    )
    gold = serializers.BooleanField(required=False, allow_null=True, default=None)
    import_job = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=2**31 - 1
    )
    sort = serializers.ChoiceField(choices=list(SORTS), required=False, default="created")

    def validate_verdict_source(self, value: str) -> str:
        known = machine_sources()
        if value and value not in known:
            raise serializers.ValidationError(
                f"Unknown source {value!r}; known: {', '.join(known)}."
            )
        return value

    def to_filter(self) -> ExplorerFilter:
        data = {k: v for k, v in self.validated_data.items() if v is not None}
        return ExplorerFilter(**data)


class ExplorerListInput(ExplorerFilterInput):
    class Meta:
        ref_name = "ExplorerListInput"

    limit = serializers.IntegerField(required=False, default=50, min_value=1, max_value=MAX_PAGE)
    offset = serializers.IntegerField(required=False, default=0, min_value=0, max_value=MAX_OFFSET)

    def to_filter(self) -> ExplorerFilter:
        data = {
            k: v
            for k, v in self.validated_data.items()
            if v is not None and k not in ("limit", "offset")
        }
        return ExplorerFilter(**data)


class ExplorerRowOutput(serializers.Serializer):
    class Meta:
        ref_name = "ExplorerRow"

    id = serializers.IntegerField()
    problem_id = serializers.IntegerField()
    problem_text = serializers.CharField(help_text="The problem's first 300 characters.")
    problem_source = serializers.CharField(allow_blank=True)
    generator = serializers.CharField(allow_blank=True)
    final_answer = serializers.CharField(allow_blank=True)
    answer_correct = serializers.BooleanField(allow_null=True)
    steps_count = serializers.IntegerField()
    submitted_count = serializers.IntegerField()
    extra_overlap = serializers.IntegerField(
        help_text="Labels wanted beyond the project's overlap for this solution (each requeue "
        "of it when complete adds one)."
    )
    is_gold = serializers.BooleanField()
    queue_open = serializers.BooleanField()
    label_state = serializers.CharField(help_text="unlabeled, in_progress, labeled or reviewed.")
    reasons = serializers.ListField(child=serializers.CharField())
    verdict = serializers.CharField(
        allow_blank=True, help_text="error, no_error, or blank: no machine suggestion."
    )
    import_job_id = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()


class ExplorerPageOutput(serializers.Serializer):
    class Meta:
        ref_name = "ExplorerPage"

    count = serializers.IntegerField(
        help_text="Matching solutions, counted up to 1,000 or to the end of the page asked "
        "for (see count_capped)."
    )
    count_capped = serializers.BooleanField(help_text="More than `count` match.")
    limit = serializers.IntegerField()
    offset = serializers.IntegerField()
    results = ExplorerRowOutput(many=True)


class ExplorerListApi(APIView):
    """A project's solutions, searched, filtered, sorted and paged (project admins)."""

    @extend_schema(
        operation_id="explorer_list", parameters=[ExplorerListInput], responses=ExplorerPageOutput
    )
    def get(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        params = ExplorerListInput(data=request.query_params)
        params.is_valid(raise_exception=True)
        page = explorer_page(
            project=project,
            filters=params.to_filter(),
            limit=params.validated_data["limit"],
            offset=params.validated_data["offset"],
        )
        return Response(ExplorerPageOutput(page).data)


class ExplorerBulkApi(APIView):
    """Send to review, requeue, mark or unmark gold: the given solutions, or all that match a
    filter (at most 5,000)."""

    class Input(serializers.Serializer):
        class Meta:
            ref_name = "ExplorerBulkInput"

        action = serializers.ChoiceField(choices=list(BULK_ACTIONS))
        ids = serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
            required=False,
            allow_null=True,
            max_length=BULK_MAX,
            help_text="The solutions to act on; leave out to act on all matching `filter`.",
        )
        filter = ExplorerFilterInput(required=False, allow_null=True)

        def validate(self, attrs: dict) -> dict:
            if attrs.get("ids") is None and attrs.get("filter") is None:
                raise serializers.ValidationError({"ids": "Give the solution ids or a filter."})
            return attrs

    class Output(serializers.Serializer):
        class Meta:
            ref_name = "ExplorerBulkResult"

        action = serializers.CharField()
        matched = serializers.IntegerField()
        changed = serializers.IntegerField()
        reopened = serializers.IntegerField(
            help_text="Of `changed`, complete solutions a requeue reopened for one more label "
            "(their own overlap raised by one); 0 for the other actions."
        )
        skipped = serializers.DictField(
            child=serializers.IntegerField(), help_text="Solutions left as they were, per reason."
        )

    @extend_schema(operation_id="explorer_bulk", request=Input, responses=Output)
    def post(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        body = self.Input(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        filters = None
        if data.get("ids") is None:
            filters = ExplorerFilter(**{k: v for k, v in data["filter"].items() if v is not None})
        result = explorer_bulk(
            project=project,
            action=data["action"],
            user=request.user,
            ids=data.get("ids"),
            filters=filters,
        )
        return Response(self.Output(result).data)
