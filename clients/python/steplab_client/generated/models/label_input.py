from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="LabelInput")


@_attrs_define
class LabelInput:
    """
    Attributes:
        step_id (int):
        rating (int | None):
        unsure (bool | Unset):  Default: False.
        comment (str | Unset):  Default: ''.
        alternative_text (str | Unset):  Default: ''.
        uses (list[int] | None | Unset): The earlier steps (0-based indices) this step uses, as the annotator marked
            them; null: not marked (the step's own `uses` stand).
    """

    step_id: int
    rating: int | None
    unsure: bool | Unset = False
    comment: str | Unset = ""
    alternative_text: str | Unset = ""
    uses: list[int] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        step_id = self.step_id

        rating: int | None
        rating = self.rating

        unsure = self.unsure

        comment = self.comment

        alternative_text = self.alternative_text

        uses: list[int] | None | Unset
        if isinstance(self.uses, Unset):
            uses = UNSET
        elif isinstance(self.uses, list):
            uses = self.uses

        else:
            uses = self.uses

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "step_id": step_id,
                "rating": rating,
            }
        )
        if unsure is not UNSET:
            field_dict["unsure"] = unsure
        if comment is not UNSET:
            field_dict["comment"] = comment
        if alternative_text is not UNSET:
            field_dict["alternative_text"] = alternative_text
        if uses is not UNSET:
            field_dict["uses"] = uses

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        step_id = d.pop("step_id")

        def _parse_rating(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rating = _parse_rating(d.pop("rating"))

        unsure = d.pop("unsure", UNSET)

        comment = d.pop("comment", UNSET)

        alternative_text = d.pop("alternative_text", UNSET)

        def _parse_uses(data: object) -> list[int] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                uses_type_0 = cast(list[int], data)

                return uses_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None | Unset, data)

        uses = _parse_uses(d.pop("uses", UNSET))

        label_input = cls(
            step_id=step_id,
            rating=rating,
            unsure=unsure,
            comment=comment,
            alternative_text=alternative_text,
            uses=uses,
        )

        label_input.additional_properties = d
        return label_input

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
