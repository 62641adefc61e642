from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.metrics_annotator import MetricsAnnotator
    from ..models.metrics_coverage import MetricsCoverage
    from ..models.metrics_review import MetricsReview


T = TypeVar("T", bound="ProjectMetrics")


@_attrs_define
class ProjectMetrics:
    """
    Attributes:
        step_ratings (Any):
        pairs (Any):
        first_error (Any):
        gold (Any):
        auto_sources (Any):
        throughput (Any):
        label_distribution (Any):
        domains (Any): Per problem domain of a many-domains project: progress and agreement (empty otherwise).
        coverage (MetricsCoverage):
        review (MetricsReview):
        annotators (list[MetricsAnnotator]): Each annotator's own totals; agreement with the others on the steps they
            both rated.
        computed_at (datetime.datetime):
        cached (bool):
        refreshing (bool): A refresh is queued: ask again in a few seconds.
        changes_since (int | None): Writes that change these numbers committed since `computed_at` (0: exact now; null:
            unknown, an older snapshot).
    """

    step_ratings: Any
    pairs: Any
    first_error: Any
    gold: Any
    auto_sources: Any
    throughput: Any
    label_distribution: Any
    domains: Any
    coverage: MetricsCoverage
    review: MetricsReview
    annotators: list[MetricsAnnotator]
    computed_at: datetime.datetime
    cached: bool
    refreshing: bool
    changes_since: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        step_ratings = self.step_ratings

        pairs = self.pairs

        first_error = self.first_error

        gold = self.gold

        auto_sources = self.auto_sources

        throughput = self.throughput

        label_distribution = self.label_distribution

        domains = self.domains

        coverage = self.coverage.to_dict()

        review = self.review.to_dict()

        annotators = []
        for annotators_item_data in self.annotators:
            annotators_item = annotators_item_data.to_dict()
            annotators.append(annotators_item)

        computed_at = self.computed_at.isoformat()

        cached = self.cached

        refreshing = self.refreshing

        changes_since: int | None
        changes_since = self.changes_since

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "step_ratings": step_ratings,
                "pairs": pairs,
                "first_error": first_error,
                "gold": gold,
                "auto_sources": auto_sources,
                "throughput": throughput,
                "label_distribution": label_distribution,
                "domains": domains,
                "coverage": coverage,
                "review": review,
                "annotators": annotators,
                "computed_at": computed_at,
                "cached": cached,
                "refreshing": refreshing,
                "changes_since": changes_since,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.metrics_annotator import MetricsAnnotator
        from ..models.metrics_coverage import MetricsCoverage
        from ..models.metrics_review import MetricsReview

        d = dict(src_dict)
        step_ratings = d.pop("step_ratings")

        pairs = d.pop("pairs")

        first_error = d.pop("first_error")

        gold = d.pop("gold")

        auto_sources = d.pop("auto_sources")

        throughput = d.pop("throughput")

        label_distribution = d.pop("label_distribution")

        domains = d.pop("domains")

        coverage = MetricsCoverage.from_dict(d.pop("coverage"))

        review = MetricsReview.from_dict(d.pop("review"))

        annotators = []
        _annotators = d.pop("annotators")
        for annotators_item_data in _annotators:
            annotators_item = MetricsAnnotator.from_dict(annotators_item_data)

            annotators.append(annotators_item)

        computed_at = datetime.datetime.fromisoformat(d.pop("computed_at"))

        cached = d.pop("cached")

        refreshing = d.pop("refreshing")

        def _parse_changes_since(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        changes_since = _parse_changes_since(d.pop("changes_since"))

        project_metrics = cls(
            step_ratings=step_ratings,
            pairs=pairs,
            first_error=first_error,
            gold=gold,
            auto_sources=auto_sources,
            throughput=throughput,
            label_distribution=label_distribution,
            domains=domains,
            coverage=coverage,
            review=review,
            annotators=annotators,
            computed_at=computed_at,
            cached=cached,
            refreshing=refreshing,
            changes_since=changes_since,
        )

        project_metrics.additional_properties = d
        return project_metrics

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
