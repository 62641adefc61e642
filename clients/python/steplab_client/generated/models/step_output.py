from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.suggestion_output import SuggestionOutput


T = TypeVar("T", bound="StepOutput")


@_attrs_define
class StepOutput:
    """
    Attributes:
        id (int):
        index (int):
        text (str):
        alternatives_count (int):
        suggestions (list[SuggestionOutput]):
        meta (Any):
        images (list[str]):
        uses (list[int]): The earlier steps (0-based) it uses, as imported or detected.
        uses_source (str): "import", "detected" or "" (none).
        thinking (bool): A step of the model's reasoning trace (`<think>` block), shown folded.
    """

    id: int
    index: int
    text: str
    alternatives_count: int
    suggestions: list[SuggestionOutput]
    meta: Any
    images: list[str]
    uses: list[int]
    uses_source: str
    thinking: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        index = self.index

        text = self.text

        alternatives_count = self.alternatives_count

        suggestions = []
        for suggestions_item_data in self.suggestions:
            suggestions_item = suggestions_item_data.to_dict()
            suggestions.append(suggestions_item)

        meta = self.meta

        images = self.images

        uses = self.uses

        uses_source = self.uses_source

        thinking = self.thinking

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "index": index,
                "text": text,
                "alternatives_count": alternatives_count,
                "suggestions": suggestions,
                "meta": meta,
                "images": images,
                "uses": uses,
                "uses_source": uses_source,
                "thinking": thinking,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.suggestion_output import SuggestionOutput

        d = dict(src_dict)
        id = d.pop("id")

        index = d.pop("index")

        text = d.pop("text")

        alternatives_count = d.pop("alternatives_count")

        suggestions = []
        _suggestions = d.pop("suggestions")
        for suggestions_item_data in _suggestions:
            suggestions_item = SuggestionOutput.from_dict(suggestions_item_data)

            suggestions.append(suggestions_item)

        meta = d.pop("meta")

        images = cast(list[str], d.pop("images"))

        uses = cast(list[int], d.pop("uses"))

        uses_source = d.pop("uses_source")

        thinking = d.pop("thinking")

        step_output = cls(
            id=id,
            index=index,
            text=text,
            alternatives_count=alternatives_count,
            suggestions=suggestions,
            meta=meta,
            images=images,
            uses=uses,
            uses_source=uses_source,
            thinking=thinking,
        )

        step_output.additional_properties = d
        return step_output

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
