from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PredictionSourceOutput")


@_attrs_define
class PredictionSourceOutput:
    """
    Attributes:
        name (str):
        version (str):
        agent (str): name@version, as the label page shows it.
        steps (int):
        solutions (int):
        last_upload (datetime.datetime):
    """

    name: str
    version: str
    agent: str
    steps: int
    solutions: int
    last_upload: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        version = self.version

        agent = self.agent

        steps = self.steps

        solutions = self.solutions

        last_upload = self.last_upload.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "version": version,
                "agent": agent,
                "steps": steps,
                "solutions": solutions,
                "last_upload": last_upload,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        version = d.pop("version")

        agent = d.pop("agent")

        steps = d.pop("steps")

        solutions = d.pop("solutions")

        last_upload = datetime.datetime.fromisoformat(d.pop("last_upload"))

        prediction_source_output = cls(
            name=name,
            version=version,
            agent=agent,
            steps=steps,
            solutions=solutions,
            last_upload=last_upload,
        )

        prediction_source_output.additional_properties = d
        return prediction_source_output

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
