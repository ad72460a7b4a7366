from enum import StrEnum


class ReportedStatus(StrEnum):
    DELIVERED = "delivered"
    FAILED = "failed"
    READ = "read"
    SENT = "sent"

    def __str__(self) -> str:
        return str(self.value)
