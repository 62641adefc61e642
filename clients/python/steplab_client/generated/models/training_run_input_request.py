from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.training_run_input_request_config import TrainingRunInputRequestConfig


T = TypeVar("T", bound="TrainingRunInputRequest")


@_attrs_define
class TrainingRunInputRequest:
    """
    Attributes:
        export (int): A done TRL-format export of this project.
        base_model (str): Absolute path of a causal LM checkpoint directory, under one of the server's MODEL_DIRS or
            this project's own training runs (staff users: any).
        config (TrainingRunInputRequestConfig | Unset): training.config.TrainConfig settings, e.g. lr, epochs,
            max_steps, batch_size, max_length, head, lora, bf16. data, eval_data, model, out, resume_from and progress are
            set by the run (it evaluates on its export's own split).
        request_id (UUID | Unset): A key the client makes once per job it creates and sends again on every retry (a UUID
            is a good one); a retry with it answers the job made the first time instead of another. Same as Idempotency-Key.
    """

    export: int
    base_model: str
    config: TrainingRunInputRequestConfig | Unset = UNSET
    request_id: UUID | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        export = self.export

        base_model = self.base_model

        config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.config, Unset):
            config = self.config.to_dict()

        request_id: str | Unset = UNSET
        if not isinstance(self.request_id, Unset):
            request_id = str(self.request_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "export": export,
                "base_model": base_model,
            }
        )
        if config is not UNSET:
            field_dict["config"] = config
        if request_id is not UNSET:
            field_dict["request_id"] = request_id

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("export", (None, str(self.export).encode(), "text/plain")))

        files.append(("base_model", (None, str(self.base_model).encode(), "text/plain")))

        if not isinstance(self.config, Unset):
            files.append(
                ("config", (None, json.dumps(self.config.to_dict()).encode(), "application/json"))
            )

        if not isinstance(self.request_id, Unset):
            files.append(("request_id", (None, str(self.request_id), "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.training_run_input_request_config import TrainingRunInputRequestConfig

        d = dict(src_dict)
        export = d.pop("export")

        base_model = d.pop("base_model")

        _config = d.pop("config", UNSET)
        config: TrainingRunInputRequestConfig | Unset
        if isinstance(_config, Unset):
            config = UNSET
        else:
            config = TrainingRunInputRequestConfig.from_dict(_config)

        _request_id = d.pop("request_id", UNSET)
        request_id: UUID | Unset
        if isinstance(_request_id, Unset):
            request_id = UNSET
        else:
            request_id = UUID(_request_id)

        training_run_input_request = cls(
            export=export,
            base_model=base_model,
            config=config,
            request_id=request_id,
        )

        training_run_input_request.additional_properties = d
        return training_run_input_request

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
