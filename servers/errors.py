"""The errors of the `servers` package.

    ServersError
    ├── InputError          the caller's bad input outside a tool call: a CSV row, a CLI
    │   │                   argument, a setting, an unknown server group
    │   └── CsvRowError         one CSV row that cannot be imported; names its line
    └── Refused             a tool call the rules refuse; the server turns it into an
        │                   `is_error` result (text plus structured details) and audits writes
        ├── InvalidArgument     an id that does not exist or is of the wrong kind, a quantity
        │                       out of range, a reused idempotency key
        ├── NotLow              live stock is not below its reorder point
        ├── UnknownProposal     an approval id that does not exist
        ├── NotPending          a proposal already decided, or expired, that cannot be
        │                       approved or denied now
        ├── NotApproved         a write carrying a proposal that is not being executed now,
        │                       or whose arguments are not the reviewed ones
        └── SameRequester       an approval by whoever started the run that proposed it,
                                under separation of duties

The store's own errors (`store.errors.StoreError`: it cannot be opened, migrated or written)
are the store's; an entry point catches them beside these.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = [
    "CsvRowError",
    "InputError",
    "InvalidArgument",
    "NotApproved",
    "NotLow",
    "NotPending",
    "Refused",
    "ServersError",
    "UnknownProposal",
]


class ServersError(Exception):
    """Base of every error the servers package raises on purpose."""


class InputError(ServersError):
    """Input that cannot be used; the message says what to change."""


class CsvRowError(InputError):
    def __init__(self, line: int, message: str) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}")


class Refused(ServersError):
    """A tool call refused by a rule.

    `code` is a stable machine-readable reason, `field` the argument to change (when one
    is to blame) and `details` whatever a caller needs to fix the call (valid values,
    live numbers).
    """

    def __init__(
        self,
        message: str,
        *,
        code: str,
        field: str | None = None,
        details: Mapping[str, object] | None = None,
    ) -> None:
        self.message = message
        self.code = code
        self.field = field
        self.details: dict[str, object] = dict(details or {})
        super().__init__(message)

    def as_dict(self) -> dict[str, object]:
        return {"error": self.code, "field": self.field, "message": self.message, **self.details}


class InvalidArgument(Refused):
    pass


class NotLow(Refused):
    pass


class UnknownProposal(Refused):
    pass


class NotPending(Refused):
    pass


class NotApproved(Refused):
    pass


class SameRequester(Refused):
    pass
