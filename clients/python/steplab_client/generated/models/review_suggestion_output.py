from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReviewSuggestionOutput")


@_attrs_define
class ReviewSuggestionOutput:
    """
    Attributes:
        source (str):
        agent (str):
        value (int | None):
        score (float | None):
        evidence (Any):
    """

    source: str
    agent: str
    value: int | None
    score: float | None
    evidence: Any
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        source = self.source

        agent = self.agent

        value: int | None
        value = self.value

        score: float | None
        score = self.score

        evidence = self.evidence

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "source": source,
                "agent": agent,
                "value": value,
                "score": score,
                "evidence": evidence,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        source = d.pop("source")

        agent = d.pop("agent")

        def _parse_value(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        value = _parse_value(d.pop("value"))

        def _parse_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        score = _parse_score(d.pop("score"))

        evidence = d.pop("evidence")

        review_suggestion_output = cls(
            source=source,
            agent=agent,
            value=value,
            score=score,
            evidence=evidence,
        )

        review_suggestion_output.additional_properties = d
        return review_suggestion_output

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
