"""Reads of uploaded predictions: the prediction sources of a project and what they cover."""

from django.db.models import Count, Max, QuerySet

from labeling.models import Project, Suggestion, SuggestionSource


def prediction_source_list(*, project: Project) -> QuerySet:
    """Per source (agent "name@version"): its labeled steps and solutions, and when it was
    last uploaded (its newest label's update time). One query, by name and version."""
    return (
        Suggestion.objects.filter(
            source=SuggestionSource.PREDICTION, step__solution__project=project
        )
        .values("agent")
        .annotate(
            steps=Count("id"),
            solutions=Count("step__solution_id", distinct=True),
            last_upload=Max("updated_at"),
        )
        .order_by("agent")
    )
