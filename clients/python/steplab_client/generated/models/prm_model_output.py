from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.kind_enum import KindEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PrmModelOutput")


@_attrs_define
class PrmModelOutput:
    """
    Attributes:
        id (int):
        project (int):
        name (str):
        path (str): Directory with the saved PRM.
        created_at (datetime.datetime):
        training_run (int | None | Unset):
        base_model (str | Unset):
        kind (KindEnum | Unset): * `pointwise` - Pointwise: step labels, cross-entropy
            * `pairwise` - Pairwise: step preferences, Bradley-Terry
            * `implicit` - Implicit: outcome labels, log-likelihood ratio
        metrics (Any | Unset): Evaluation metrics.
        created_by (str | Unset):
    """

    id: int
    project: int
    name: str
    path: str
    created_at: datetime.datetime
    training_run: int | None | Unset = UNSET
    base_model: str | Unset = UNSET
    kind: KindEnum | Unset = UNSET
    metrics: Any | Unset = UNSET
    created_by: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        project = self.project

        name = self.name

        path = self.path

        created_at = self.created_at.isoformat()

        training_run: int | None | Unset
        if isinstance(self.training_run, Unset):
            training_run = UNSET
        else:
            training_run = self.training_run

        base_model = self.base_model

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind.value

        metrics = self.metrics

        created_by = self.created_by

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "project": project,
                "name": name,
                "path": path,
                "created_at": created_at,
            }
        )
        if training_run is not UNSET:
            field_dict["training_run"] = training_run
        if base_model is not UNSET:
            field_dict["base_model"] = base_model
        if kind is not UNSET:
            field_dict["kind"] = kind
        if metrics is not UNSET:
            field_dict["metrics"] = metrics
        if created_by is not UNSET:
            field_dict["created_by"] = created_by

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        project = d.pop("project")

        name = d.pop("name")

        path = d.pop("path")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_training_run(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        training_run = _parse_training_run(d.pop("training_run", UNSET))

        base_model = d.pop("base_model", UNSET)

        _kind = d.pop("kind", UNSET)
        kind: KindEnum | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = KindEnum(_kind)

        metrics = d.pop("metrics", UNSET)

        created_by = d.pop("created_by", UNSET)

        prm_model_output = cls(
            id=id,
            project=project,
            name=name,
            path=path,
            created_at=created_at,
            training_run=training_run,
            base_model=base_model,
            kind=kind,
            metrics=metrics,
            created_by=created_by,
        )

        prm_model_output.additional_properties = d
        return prm_model_output

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
