from enum import StrEnum


class JobKind(StrEnum):
    DETECT = "detect"
    SEND = "send"

    def __str__(self) -> str:
        return str(self.value)
