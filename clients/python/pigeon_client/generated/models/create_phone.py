from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.sim_body import SimBody


T = TypeVar("T", bound="CreatePhone")


@_attrs_define
class CreatePhone:
    """Body of `POST /admin/v1/phones`.

    Attributes:
        driver (str): `agent` or `sim`. Example: sim.
        number (str): E.164 number.
        tenant_id (str): Owner.
        daily_limit (int | Unset): Messages per UTC day (default 300).
        sim (None | SimBody | Unset):
    """

    driver: str
    number: str
    tenant_id: str
    daily_limit: int | Unset = UNSET
    sim: None | SimBody | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.sim_body import SimBody  # noqa: PLC0415

        driver = self.driver

        number = self.number

        tenant_id = self.tenant_id

        daily_limit = self.daily_limit

        sim: dict[str, Any] | None | Unset
        if isinstance(self.sim, Unset):
            sim = UNSET
        elif isinstance(self.sim, SimBody):
            sim = self.sim.to_dict()
        else:
            sim = self.sim

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "driver": driver,
                "number": number,
                "tenant_id": tenant_id,
            }
        )
        if daily_limit is not UNSET:
            field_dict["daily_limit"] = daily_limit
        if sim is not UNSET:
            field_dict["sim"] = sim

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sim_body import SimBody  # noqa: PLC0415

        d = dict(src_dict)
        driver = d.pop("driver")

        number = d.pop("number")

        tenant_id = d.pop("tenant_id")

        daily_limit = d.pop("daily_limit", UNSET)

        def _parse_sim(data: object) -> None | SimBody | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                sim_type_0 = SimBody.from_dict(data)

                return sim_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SimBody | Unset, data)

        sim = _parse_sim(d.pop("sim", UNSET))

        create_phone = cls(
            driver=driver,
            number=number,
            tenant_id=tenant_id,
            daily_limit=daily_limit,
            sim=sim,
        )

        return create_phone
