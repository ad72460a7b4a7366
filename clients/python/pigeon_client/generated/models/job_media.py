from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="JobMedia")


@_attrs_define
class JobMedia:
    """An attachment of a send job.

    Attributes:
        content_type (str): Its type.
        media_id (str): Media id.
        sha256 (str): SHA-256 of the bytes, lowercase hex.
        size (int): Bytes.
        filename (None | str | Unset): The name given at upload.
    """

    content_type: str
    media_id: str
    sha256: str
    size: int
    filename: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        content_type = self.content_type

        media_id = self.media_id

        sha256 = self.sha256

        size = self.size

        filename: None | str | Unset
        if isinstance(self.filename, Unset):
            filename = UNSET
        else:
            filename = self.filename

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "content_type": content_type,
                "media_id": media_id,
                "sha256": sha256,
                "size": size,
            }
        )
        if filename is not UNSET:
            field_dict["filename"] = filename

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        content_type = d.pop("content_type")

        media_id = d.pop("media_id")

        sha256 = d.pop("sha256")

        size = d.pop("size")

        def _parse_filename(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        filename = _parse_filename(d.pop("filename", UNSET))

        job_media = cls(
            content_type=content_type,
            media_id=media_id,
            sha256=sha256,
            size=size,
            filename=filename,
        )

        job_media.additional_properties = d
        return job_media

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
