from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.key_created import KeyCreated


T = TypeVar("T", bound="NewTenantKeys")


@_attrs_define
class NewTenantKeys:
    """The two keys every new tenant gets.

    Attributes:
        live (KeyCreated): A key as created: the only answer that holds the full key.
        test (KeyCreated): A key as created: the only answer that holds the full key.
    """

    live: KeyCreated
    test: KeyCreated
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        live = self.live.to_dict()

        test = self.test.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "live": live,
                "test": test,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.key_created import KeyCreated  # noqa: PLC0415

        d = dict(src_dict)
        live = KeyCreated.from_dict(d.pop("live"))

        test = KeyCreated.from_dict(d.pop("test"))

        new_tenant_keys = cls(
            live=live,
            test=test,
        )

        new_tenant_keys.additional_properties = d
        return new_tenant_keys

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
