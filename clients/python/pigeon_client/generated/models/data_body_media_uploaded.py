from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.data_body_media_uploaded_data import DataBodyMediaUploadedData


T = TypeVar("T", bound="DataBodyMediaUploaded")


@_attrs_define
class DataBodyMediaUploaded:
    """The success envelope.

    Attributes:
        data (DataBodyMediaUploadedData): The answer to a phone's upload (`POST /phone/v1/media`): the id to name in its
            inbound text.
    """

    data: DataBodyMediaUploadedData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.data_body_media_uploaded_data import DataBodyMediaUploadedData  # noqa: PLC0415

        d = dict(src_dict)
        data = DataBodyMediaUploadedData.from_dict(d.pop("data"))

        data_body_media_uploaded = cls(
            data=data,
        )

        data_body_media_uploaded.additional_properties = d
        return data_body_media_uploaded

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
