"""What the review endpoints share: the solution or annotation a request may review, the
body validated by a view's Input, and the outputs several endpoints return."""

from django.http import Http404
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request

from labeling.api import bounds
from labeling.api.access import not_found_unless_purging, project_for
from labeling.models import Annotation, Project, Role, Solution


def solution_for(request, solution_id: int, *, at_least: str = Role.REVIEWER) -> Solution:
    solution = Solution.objects.select_related("project").filter(pk=solution_id).first()
    solution.project = _project_or_not_found(request, solution, "solution", at_least=at_least)
    return solution


def annotation_for_review(request, annotation_id: int) -> Annotation:
    annotation = Annotation.objects.select_related("solution").filter(pk=annotation_id).first()
    _project_or_not_found(request, annotation and annotation.solution, "annotation")
    return annotation


def _project_or_not_found(
    request, solution: Solution | None, kind: str, *, at_least: str = Role.REVIEWER
) -> Project:
    """The solution's project if the user may act on it. A missing row and one in a project
    the user is not in answer alike (not_found_unless_purging), so neither answer tells
    whether the id exists."""
    if solution is not None:
        try:
            return project_for(request, solution.project_id, at_least=at_least)
        except (Http404, NotFound):
            pass
    not_found_unless_purging(request, kind)


def validated_input(input_class: type[serializers.Serializer], request: Request) -> dict:
    """The request body validated by the view's `Input` (400 naming the field otherwise).

    The review writes pass it on as the service's keyword arguments: each Input's fields are
    named after them, and a field left out keeps the service's default (an omitted
    `expected_resolution_id` means "do not check").
    """
    data = input_class(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


class RatingLabel(serializers.Serializer):
    step_id = bounds.id_field()
    rating = serializers.IntegerField(allow_null=True, min_value=-1, max_value=1)


_USES_HELP = (
    "The earlier steps (0-based) the step uses, as decided with the resolution; null: not "
    "decided, the step's own `uses` stand."
)


class AdjudicatedLabel(RatingLabel):
    uses = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=bounds.MAX_STEP_INDEX),
        allow_null=True,
        required=False,
        max_length=200,
        help_text=_USES_HELP,
    )


class ResolutionLabelOutput(RatingLabel):
    uses = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text=_USES_HELP
    )


class ResolutionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    provenance = serializers.CharField()
    first_error_index = serializers.IntegerField(allow_null=True)
    resolved_by = serializers.CharField(allow_null=True)
    annotation_ids = serializers.ListField(child=serializers.IntegerField())
    is_current = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    labels = ResolutionLabelOutput(many=True)


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
