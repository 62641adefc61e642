from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.metrics_review_unresolved import MetricsReviewUnresolved


T = TypeVar("T", bound="MetricsReview")


@_attrs_define
class MetricsReview:
    """
    Attributes:
        unresolved (MetricsReviewUnresolved): The review queue's exact counts per reason (as the queue's `counts`).
        resolved (int):
    """

    unresolved: MetricsReviewUnresolved
    resolved: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        unresolved = self.unresolved.to_dict()

        resolved = self.resolved

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "unresolved": unresolved,
                "resolved": resolved,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.metrics_review_unresolved import MetricsReviewUnresolved

        d = dict(src_dict)
        unresolved = MetricsReviewUnresolved.from_dict(d.pop("unresolved"))

        resolved = d.pop("resolved")

        metrics_review = cls(
            unresolved=unresolved,
            resolved=resolved,
        )

        metrics_review.additional_properties = d
        return metrics_review

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
