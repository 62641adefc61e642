from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.uses_enum import UsesEnum

T = TypeVar("T", bound="HubTokenOutput")


@_attrs_define
class HubTokenOutput:
    """
    Attributes:
        set_ (bool): Whether you saved a token.
        last4 (str): Its last four characters; empty when none is set.
        hub_user (str): The Hub account the token belongs to, when it was checked (whoami).
        checked_at (datetime.datetime | None):
        updated_at (datetime.datetime | None):
        server_token (bool): Whether the server has a token of its own (HF_TOKEN).
        uses (UsesEnum): * `user` - user
            * `server` - server
            * `server_listed` - server_listed
            * `none` - none
        server_repos (list[str]): The repo prefixes (owner/ or owner/name-prefix, lower case) the server's token covers
            for users who saved no token (HUB_SERVER_TOKEN_REPOS); staff: any repo.
    """

    set_: bool
    last4: str
    hub_user: str
    checked_at: datetime.datetime | None
    updated_at: datetime.datetime | None
    server_token: bool
    uses: UsesEnum
    server_repos: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        set_ = self.set_

        last4 = self.last4

        hub_user = self.hub_user

        checked_at: None | str
        if isinstance(self.checked_at, datetime.datetime):
            checked_at = self.checked_at.isoformat()
        else:
            checked_at = self.checked_at

        updated_at: None | str
        if isinstance(self.updated_at, datetime.datetime):
            updated_at = self.updated_at.isoformat()
        else:
            updated_at = self.updated_at

        server_token = self.server_token

        uses = self.uses.value

        server_repos = self.server_repos

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "set": set_,
                "last4": last4,
                "hub_user": hub_user,
                "checked_at": checked_at,
                "updated_at": updated_at,
                "server_token": server_token,
                "uses": uses,
                "server_repos": server_repos,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        set_ = d.pop("set")

        last4 = d.pop("last4")

        hub_user = d.pop("hub_user")

        def _parse_checked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                checked_at_type_0 = datetime.datetime.fromisoformat(data)

                return checked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        checked_at = _parse_checked_at(d.pop("checked_at"))

        def _parse_updated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_at_type_0 = datetime.datetime.fromisoformat(data)

                return updated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        updated_at = _parse_updated_at(d.pop("updated_at"))

        server_token = d.pop("server_token")

        uses = UsesEnum(d.pop("uses"))

        server_repos = cast(list[str], d.pop("server_repos"))

        hub_token_output = cls(
            set_=set_,
            last4=last4,
            hub_user=hub_user,
            checked_at=checked_at,
            updated_at=updated_at,
            server_token=server_token,
            uses=uses,
            server_repos=server_repos,
        )

        hub_token_output.additional_properties = d
        return hub_token_output

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
