from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="DetectionAnswer")


@_attrs_define
class DetectionAnswer:
    """Body of a detection answer.

    Attributes:
        imessage (bool): Whether the number has iMessage.
    """

    imessage: bool

    def to_dict(self) -> dict[str, Any]:
        imessage = self.imessage

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "imessage": imessage,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        imessage = d.pop("imessage")

        detection_answer = cls(
            imessage=imessage,
        )

        return detection_answer
