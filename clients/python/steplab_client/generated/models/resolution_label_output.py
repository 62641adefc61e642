from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ResolutionLabelOutput")


@_attrs_define
class ResolutionLabelOutput:
    """
    Attributes:
        step_id (int):
        rating (int | None):
        uses (list[int] | None): The earlier steps (0-based) the step uses, as decided with the resolution; null: not
            decided, the step's own `uses` stand.
    """

    step_id: int
    rating: int | None
    uses: list[int] | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        step_id = self.step_id

        rating: int | None
        rating = self.rating

        uses: list[int] | None
        if isinstance(self.uses, list):
            uses = self.uses

        else:
            uses = self.uses

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "step_id": step_id,
                "rating": rating,
                "uses": uses,
            }
        )

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

        def _parse_uses(data: object) -> list[int] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                uses_type_0 = cast(list[int], data)

                return uses_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None, data)

        uses = _parse_uses(d.pop("uses"))

        resolution_label_output = cls(
            step_id=step_id,
            rating=rating,
            uses=uses,
        )

        resolution_label_output.additional_properties = d
        return resolution_label_output

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
