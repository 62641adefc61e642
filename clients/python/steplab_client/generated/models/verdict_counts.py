from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="VerdictCounts")


@_attrs_define
class VerdictCounts:
    """
    Attributes:
        plus (int): +1 suggestions.
        zero (int): 0 suggestions.
        minus (int): −1 suggestions.
        doubtful (int): Evidence "looks wrong, not refuted".
        evidence (int): Other evidence without a rating ("checks out").
    """

    plus: int
    zero: int
    minus: int
    doubtful: int
    evidence: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        plus = self.plus

        zero = self.zero

        minus = self.minus

        doubtful = self.doubtful

        evidence = self.evidence

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "plus": plus,
                "zero": zero,
                "minus": minus,
                "doubtful": doubtful,
                "evidence": evidence,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        plus = d.pop("plus")

        zero = d.pop("zero")

        minus = d.pop("minus")

        doubtful = d.pop("doubtful")

        evidence = d.pop("evidence")

        verdict_counts = cls(
            plus=plus,
            zero=zero,
            minus=minus,
            doubtful=doubtful,
            evidence=evidence,
        )

        verdict_counts.additional_properties = d
        return verdict_counts

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
