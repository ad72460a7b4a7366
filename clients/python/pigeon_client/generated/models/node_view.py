from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="NodeView")


@_attrs_define
class NodeView:
    """A live node of the fleet.

    Attributes:
        advertise_url (str): Where the other nodes forward its tenants' requests.
        id (str): The node's id (new each time it starts).
        last_renewal (datetime.datetime): When it last renewed its leases (the database's clock).
        started_at (datetime.datetime): When it started.
        tenants_owned (int): Tenants whose live lease it holds.
        this_node (bool): Whether this is the node that answered.
        version (str): Its version.
    """

    advertise_url: str
    id: str
    last_renewal: datetime.datetime
    started_at: datetime.datetime
    tenants_owned: int
    this_node: bool
    version: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        advertise_url = self.advertise_url

        id = self.id

        last_renewal = self.last_renewal.isoformat()

        started_at = self.started_at.isoformat()

        tenants_owned = self.tenants_owned

        this_node = self.this_node

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "advertise_url": advertise_url,
                "id": id,
                "last_renewal": last_renewal,
                "started_at": started_at,
                "tenants_owned": tenants_owned,
                "this_node": this_node,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        advertise_url = d.pop("advertise_url")

        id = d.pop("id")

        last_renewal = datetime.datetime.fromisoformat(d.pop("last_renewal"))

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        tenants_owned = d.pop("tenants_owned")

        this_node = d.pop("this_node")

        version = d.pop("version")

        node_view = cls(
            advertise_url=advertise_url,
            id=id,
            last_renewal=last_renewal,
            started_at=started_at,
            tenants_owned=tenants_owned,
            this_node=this_node,
            version=version,
        )

        node_view.additional_properties = d
        return node_view

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
