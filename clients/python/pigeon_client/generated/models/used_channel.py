from enum import StrEnum


class UsedChannel(StrEnum):
    IMESSAGE = "imessage"
    SMS = "sms"

    def __str__(self) -> str:
        return str(self.value)
