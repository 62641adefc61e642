from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.review_suggestion_output import ReviewSuggestionOutput
    from ..models.step_label_cell import StepLabelCell


T = TypeVar("T", bound="ReviewStepOutput")


@_attrs_define
class ReviewStepOutput:
    """
    Attributes:
        id (int):
        index (int):
        text (str):
        meta (Any):
        images (list[str]):
        alternatives_count (int):
        uses (list[int]): Earlier steps (0-based) it uses.
        uses_source (str): "import", "detected" or "".
        thinking (bool): A step of the model's reasoning trace.
        gold_rating (int | None):
        resolved_rating (int | None):
        labels (list[StepLabelCell]):
        suggestions (list[ReviewSuggestionOutput]):
        humans_differ (bool): Two submitted ratings of it differ.
        machine_differs (list[str]): Machine sources whose value differs from a submitted human rating.
    """

    id: int
    index: int
    text: str
    meta: Any
    images: list[str]
    alternatives_count: int
    uses: list[int]
    uses_source: str
    thinking: bool
    gold_rating: int | None
    resolved_rating: int | None
    labels: list[StepLabelCell]
    suggestions: list[ReviewSuggestionOutput]
    humans_differ: bool
    machine_differs: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        index = self.index

        text = self.text

        meta = self.meta

        images = self.images

        alternatives_count = self.alternatives_count

        uses = self.uses

        uses_source = self.uses_source

        thinking = self.thinking

        gold_rating: int | None
        gold_rating = self.gold_rating

        resolved_rating: int | None
        resolved_rating = self.resolved_rating

        labels = []
        for labels_item_data in self.labels:
            labels_item = labels_item_data.to_dict()
            labels.append(labels_item)

        suggestions = []
        for suggestions_item_data in self.suggestions:
            suggestions_item = suggestions_item_data.to_dict()
            suggestions.append(suggestions_item)

        humans_differ = self.humans_differ

        machine_differs = self.machine_differs

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "index": index,
                "text": text,
                "meta": meta,
                "images": images,
                "alternatives_count": alternatives_count,
                "uses": uses,
                "uses_source": uses_source,
                "thinking": thinking,
                "gold_rating": gold_rating,
                "resolved_rating": resolved_rating,
                "labels": labels,
                "suggestions": suggestions,
                "humans_differ": humans_differ,
                "machine_differs": machine_differs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.review_suggestion_output import ReviewSuggestionOutput
        from ..models.step_label_cell import StepLabelCell

        d = dict(src_dict)
        id = d.pop("id")

        index = d.pop("index")

        text = d.pop("text")

        meta = d.pop("meta")

        images = cast(list[str], d.pop("images"))

        alternatives_count = d.pop("alternatives_count")

        uses = cast(list[int], d.pop("uses"))

        uses_source = d.pop("uses_source")

        thinking = d.pop("thinking")

        def _parse_gold_rating(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        gold_rating = _parse_gold_rating(d.pop("gold_rating"))

        def _parse_resolved_rating(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        resolved_rating = _parse_resolved_rating(d.pop("resolved_rating"))

        labels = []
        _labels = d.pop("labels")
        for labels_item_data in _labels:
            labels_item = StepLabelCell.from_dict(labels_item_data)

            labels.append(labels_item)

        suggestions = []
        _suggestions = d.pop("suggestions")
        for suggestions_item_data in _suggestions:
            suggestions_item = ReviewSuggestionOutput.from_dict(suggestions_item_data)

            suggestions.append(suggestions_item)

        humans_differ = d.pop("humans_differ")

        machine_differs = cast(list[str], d.pop("machine_differs"))

        review_step_output = cls(
            id=id,
            index=index,
            text=text,
            meta=meta,
            images=images,
            alternatives_count=alternatives_count,
            uses=uses,
            uses_source=uses_source,
            thinking=thinking,
            gold_rating=gold_rating,
            resolved_rating=resolved_rating,
            labels=labels,
            suggestions=suggestions,
            humans_differ=humans_differ,
            machine_differs=machine_differs,
        )

        review_step_output.additional_properties = d
        return review_step_output

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
