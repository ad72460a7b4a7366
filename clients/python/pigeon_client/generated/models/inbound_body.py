from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="InboundBody")


@_attrs_define
class InboundBody:
    """Body of an inbound text.

    Attributes:
        from_ (str): Sender, E.164.
        body (None | str | Unset): Text (STOP, START and their synonyms change the sender's opt-out); required unless
            `media` is given.
        media (list[str] | None | Unset): 1–10 files this phone uploaded with `POST /phone/v1/media`, in the order
            received.
    """

    from_: str
    body: None | str | Unset = UNSET
    media: list[str] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_

        body: None | str | Unset
        if isinstance(self.body, Unset):
            body = UNSET
        else:
            body = self.body

        media: list[str] | None | Unset
        if isinstance(self.media, Unset):
            media = UNSET
        elif isinstance(self.media, list):
            media = self.media

        else:
            media = self.media

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "from": from_,
            }
        )
        if body is not UNSET:
            field_dict["body"] = body
        if media is not UNSET:
            field_dict["media"] = media

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        from_ = d.pop("from")

        def _parse_body(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        body = _parse_body(d.pop("body", UNSET))

        def _parse_media(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                media_type_0 = cast(list[str], data)

                return media_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        media = _parse_media(d.pop("media", UNSET))

        inbound_body = cls(
            from_=from_,
            body=body,
            media=media,
        )

        return inbound_body
