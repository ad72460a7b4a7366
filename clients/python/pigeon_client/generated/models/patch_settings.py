from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.quiet_hours_patch_body import QuietHoursPatchBody


T = TypeVar("T", bound="PatchSettings")


@_attrs_define
class PatchSettings:
    """Body of `PATCH /v1/settings`: a field left out keeps its value; null turns a reply off.

    Attributes:
        help_reply (None | str | Unset): 1–10,000 characters, or null.
        opt_in_reply (None | str | Unset): 1–10,000 characters, or null.
        opt_out_reply (None | str | Unset): 1–10,000 characters, or null.
        quiet_hours (None | QuietHoursPatchBody | Unset):
    """

    help_reply: None | str | Unset = UNSET
    opt_in_reply: None | str | Unset = UNSET
    opt_out_reply: None | str | Unset = UNSET
    quiet_hours: None | QuietHoursPatchBody | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.quiet_hours_patch_body import QuietHoursPatchBody  # noqa: PLC0415

        help_reply: None | str | Unset
        if isinstance(self.help_reply, Unset):
            help_reply = UNSET
        else:
            help_reply = self.help_reply

        opt_in_reply: None | str | Unset
        if isinstance(self.opt_in_reply, Unset):
            opt_in_reply = UNSET
        else:
            opt_in_reply = self.opt_in_reply

        opt_out_reply: None | str | Unset
        if isinstance(self.opt_out_reply, Unset):
            opt_out_reply = UNSET
        else:
            opt_out_reply = self.opt_out_reply

        quiet_hours: dict[str, Any] | None | Unset
        if isinstance(self.quiet_hours, Unset):
            quiet_hours = UNSET
        elif isinstance(self.quiet_hours, QuietHoursPatchBody):
            quiet_hours = self.quiet_hours.to_dict()
        else:
            quiet_hours = self.quiet_hours

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if help_reply is not UNSET:
            field_dict["help_reply"] = help_reply
        if opt_in_reply is not UNSET:
            field_dict["opt_in_reply"] = opt_in_reply
        if opt_out_reply is not UNSET:
            field_dict["opt_out_reply"] = opt_out_reply
        if quiet_hours is not UNSET:
            field_dict["quiet_hours"] = quiet_hours

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.quiet_hours_patch_body import QuietHoursPatchBody  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_help_reply(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        help_reply = _parse_help_reply(d.pop("help_reply", UNSET))

        def _parse_opt_in_reply(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        opt_in_reply = _parse_opt_in_reply(d.pop("opt_in_reply", UNSET))

        def _parse_opt_out_reply(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        opt_out_reply = _parse_opt_out_reply(d.pop("opt_out_reply", UNSET))

        def _parse_quiet_hours(data: object) -> None | QuietHoursPatchBody | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                quiet_hours_type_0 = QuietHoursPatchBody.from_dict(data)

                return quiet_hours_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QuietHoursPatchBody | Unset, data)

        quiet_hours = _parse_quiet_hours(d.pop("quiet_hours", UNSET))

        patch_settings = cls(
            help_reply=help_reply,
            opt_in_reply=opt_in_reply,
            opt_out_reply=opt_out_reply,
            quiet_hours=quiet_hours,
        )

        return patch_settings
