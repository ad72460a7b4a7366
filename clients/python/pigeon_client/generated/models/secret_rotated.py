from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SecretRotated")


@_attrs_define
class SecretRotated:
    """A webhook's new secret, shown once: the answer of a rotation.

    Attributes:
        id (str): Webhook id.
        previous_secret_expires_at (datetime.datetime): Until when attempts are signed with the previous secret too (in
            `webhook-signature`).
        secret (str): The new signing secret (`whsec_…`): `x-service-signature` uses it from now on.
    """

    id: str
    previous_secret_expires_at: datetime.datetime
    secret: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        previous_secret_expires_at = self.previous_secret_expires_at.isoformat()

        secret = self.secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "previous_secret_expires_at": previous_secret_expires_at,
                "secret": secret,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        previous_secret_expires_at = datetime.datetime.fromisoformat(d.pop("previous_secret_expires_at"))

        secret = d.pop("secret")

        secret_rotated = cls(
            id=id,
            previous_secret_expires_at=previous_secret_expires_at,
            secret=secret,
        )

        secret_rotated.additional_properties = d
        return secret_rotated

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
