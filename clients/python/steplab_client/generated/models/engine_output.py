from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.engine_param_output import EngineParamOutput


T = TypeVar("T", bound="EngineOutput")


@_attrs_define
class EngineOutput:
    """
    Attributes:
        name (str): The source name a run names and suggestions carry.
        label (str):
        description (str):
        queue (str): The Celery queue its chunks run on.
        builtin (bool):
        plugin (None | str): A plug-in's distribution and version; null for a built-in.
        domains (list[str]): The project domains a plug-in applies to (empty: every domain). Built-ins follow the
            project's domain_sources.
        params (list[EngineParamOutput] | None): A plug-in's parameter form; null for a built-in (which has its own
            form).
    """

    name: str
    label: str
    description: str
    queue: str
    builtin: bool
    plugin: None | str
    domains: list[str]
    params: list[EngineParamOutput] | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        label = self.label

        description = self.description

        queue = self.queue

        builtin = self.builtin

        plugin: None | str
        plugin = self.plugin

        domains = self.domains

        params: list[dict[str, Any]] | None
        if isinstance(self.params, list):
            params = []
            for params_type_0_item_data in self.params:
                params_type_0_item = params_type_0_item_data.to_dict()
                params.append(params_type_0_item)

        else:
            params = self.params

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "label": label,
                "description": description,
                "queue": queue,
                "builtin": builtin,
                "plugin": plugin,
                "domains": domains,
                "params": params,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.engine_param_output import EngineParamOutput

        d = dict(src_dict)
        name = d.pop("name")

        label = d.pop("label")

        description = d.pop("description")

        queue = d.pop("queue")

        builtin = d.pop("builtin")

        def _parse_plugin(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        plugin = _parse_plugin(d.pop("plugin"))

        domains = cast(list[str], d.pop("domains"))

        def _parse_params(data: object) -> list[EngineParamOutput] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                params_type_0 = []
                _params_type_0 = data
                for params_type_0_item_data in _params_type_0:
                    params_type_0_item = EngineParamOutput.from_dict(params_type_0_item_data)

                    params_type_0.append(params_type_0_item)

                return params_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[EngineParamOutput] | None, data)

        params = _parse_params(d.pop("params"))

        engine_output = cls(
            name=name,
            label=label,
            description=description,
            queue=queue,
            builtin=builtin,
            plugin=plugin,
            domains=domains,
            params=params,
        )

        engine_output.additional_properties = d
        return engine_output

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
