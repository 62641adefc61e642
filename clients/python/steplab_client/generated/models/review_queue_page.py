from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.queue_annotator import QueueAnnotator
    from ..models.queue_counts_output import QueueCountsOutput
    from ..models.queue_item_output import QueueItemOutput


T = TypeVar("T", bound="ReviewQueuePage")


@_attrs_define
class ReviewQueuePage:
    """
    Attributes:
        count (int): Matching solutions, counted up to 1,000 or to the end of the page asked for (see count_capped).
        count_capped (bool): More than `count` match.
        next_ (None | str):
        previous (None | str):
        results (list[QueueItemOutput]):
        counts (QueueCountsOutput): Queued solutions per reason, each counted up to 1,000 (`counts_capped` names those).
        counts_capped (list[str]): The names in `counts` that were counted to the cap (1,000): that many or more.
        annotators (list[QueueAnnotator]): Everyone the `annotator` filter can name (submitters).
    """

    count: int
    count_capped: bool
    next_: None | str
    previous: None | str
    results: list[QueueItemOutput]
    counts: QueueCountsOutput
    counts_capped: list[str]
    annotators: list[QueueAnnotator]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        count_capped = self.count_capped

        next_: None | str
        next_ = self.next_

        previous: None | str
        previous = self.previous

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        counts = self.counts.to_dict()

        counts_capped = self.counts_capped

        annotators = []
        for annotators_item_data in self.annotators:
            annotators_item = annotators_item_data.to_dict()
            annotators.append(annotators_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "count": count,
                "count_capped": count_capped,
                "next": next_,
                "previous": previous,
                "results": results,
                "counts": counts,
                "counts_capped": counts_capped,
                "annotators": annotators,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.queue_annotator import QueueAnnotator
        from ..models.queue_counts_output import QueueCountsOutput
        from ..models.queue_item_output import QueueItemOutput

        d = dict(src_dict)
        count = d.pop("count")

        count_capped = d.pop("count_capped")

        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))

        def _parse_previous(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        previous = _parse_previous(d.pop("previous"))

        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = QueueItemOutput.from_dict(results_item_data)

            results.append(results_item)

        counts = QueueCountsOutput.from_dict(d.pop("counts"))

        counts_capped = cast(list[str], d.pop("counts_capped"))

        annotators = []
        _annotators = d.pop("annotators")
        for annotators_item_data in _annotators:
            annotators_item = QueueAnnotator.from_dict(annotators_item_data)

            annotators.append(annotators_item)

        review_queue_page = cls(
            count=count,
            count_capped=count_capped,
            next_=next_,
            previous=previous,
            results=results,
            counts=counts,
            counts_capped=counts_capped,
            annotators=annotators,
        )

        review_queue_page.additional_properties = d
        return review_queue_page

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
