from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="InboundBody")


@_attrs_define
class InboundBody:
    """Body of an inbound text.

    Attributes:
        body (str): Text (STOP, START and their synonyms change the sender's opt-out).
        from_ (str): Sender, E.164.
    """

    body: str
    from_: str

    def to_dict(self) -> dict[str, Any]:
        body = self.body

        from_ = self.from_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "body": body,
                "from": from_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        body = d.pop("body")

        from_ = d.pop("from")

        inbound_body = cls(
            body=body,
            from_=from_,
        )

        return inbound_body
