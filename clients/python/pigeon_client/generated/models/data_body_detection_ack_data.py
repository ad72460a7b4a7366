from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DataBodyDetectionAckData")


@_attrs_define
class DataBodyDetectionAckData:
    """Answer of a detection report.

    Attributes:
        imessage (bool): The answer recorded.
        job_id (str): The job.
        phone (str): The number it was about.
    """

    imessage: bool
    job_id: str
    phone: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        imessage = self.imessage

        job_id = self.job_id

        phone = self.phone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "imessage": imessage,
                "job_id": job_id,
                "phone": phone,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        imessage = d.pop("imessage")

        job_id = d.pop("job_id")

        phone = d.pop("phone")

        data_body_detection_ack_data = cls(
            imessage=imessage,
            job_id=job_id,
            phone=phone,
        )

        data_body_detection_ack_data.additional_properties = d
        return data_body_detection_ack_data

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
