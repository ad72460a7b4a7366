from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateTenant")


@_attrs_define
class CreateTenant:
    """Body of `POST /admin/v1/tenants`.

    Attributes:
        name (str): Label, 1–200 characters.
        plan (None | str | Unset): `trial` (default), `starter`, `growth` or `scale`. Example: trial.
    """

    name: str
    plan: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        plan: None | str | Unset
        if isinstance(self.plan, Unset):
            plan = UNSET
        else:
            plan = self.plan

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if plan is not UNSET:
            field_dict["plan"] = plan

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        def _parse_plan(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        plan = _parse_plan(d.pop("plan", UNSET))

        create_tenant = cls(
            name=name,
            plan=plan,
        )

        return create_tenant
