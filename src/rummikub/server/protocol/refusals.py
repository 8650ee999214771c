"""A request the server refuses: :class:`ClientError`, and :func:`refused` for a refusal of
the engine's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummikub.core import Code, RummikubError
from rummikub.core.errors import Param

from .codes import ServerCode

__all__ = ["ClientError", "refused"]


class ClientError(Exception):
    """A request refused: ``code`` and ``params`` for programs (clients show the catalogue's
    message ``error.<code>``), ``message`` in English for logs and old clients, ``extra``
    fields of the reply (``reason``, ``retry_after``...)."""

    def __init__(
        self,
        code: Code | ServerCode,
        message: str,
        *,
        params: Mapping[str, Param] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, Param] = dict(params or {})
        self.extra = extra

    def http_body(self) -> dict[str, Any]:
        """The body of an HTTP error response that says so."""
        return {"error": self.message, "code": self.code, "params": self.params}

    def reply(self, msg_id: str | int | None) -> dict[str, Any]:
        """The ``error`` message of the protocol that says so."""
        return {
            "type": "error",
            "id": msg_id,
            "code": self.code,
            "params": self.params,
            "message": self.message,
            **self.extra,
        }


def refused(code: Code | ServerCode, err: RummikubError, **extra: Any) -> ClientError:
    """The refusal of a request the engine refused with ``err``: its params, and its own code
    as ``reason`` (``illegal`` + ``invalid-meld``, ``bad-play`` + ``bad-notation``...)."""
    return ClientError(code, str(err), params=err.params, reason=err.code, **extra)
