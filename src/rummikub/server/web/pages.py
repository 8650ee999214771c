"""The pages of the web client: every address a person opens is the one page of the client
(``static/index.html``), which shows what the address names; and the message catalogues the
page words itself with. The client's files are served under ``/static`` (:func:`.app.create_app`
mounts :data:`STATIC`)."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, JSONResponse, Response

from rummikub.i18n import LANGUAGES, catalogue_bytes

from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError

__all__ = ["INDEX", "PAGES", "STATIC", "not_found_page", "router"]

#: the web client's files
STATIC = Path(str(resources.files("rummikub.server.web") / "static"))
#: the web client's one page
INDEX = STATIC / "index.html"

router = APIRouter(include_in_schema=False)


@router.get("/i18n/{lang}.json")
async def messages(lang: str) -> Response:
    """The message catalogue of a language: the one the terminal games use too."""
    if lang not in LANGUAGES:
        missing = ClientError(
            ServerCode.NOT_FOUND, f"no catalogue for {lang[:20]!r}", params={"path": lang[:20]}
        )
        return JSONResponse(missing.http_body(), 404)
    return Response(catalogue_bytes(lang), media_type="application/json")


#: every address a person opens: the client's one page, which shows what the address names
PAGES = (
    "/",
    "/r/{code}",
    "/account",
    "/leaderboard",
    "/players/{name}",
    "/replay/{code}",
    "/assistant",
)


async def page() -> FileResponse:
    return FileResponse(INDEX)


for _path in PAGES:
    router.add_api_route(_path, page, methods=["GET"])


@functools.cache
def not_found_page() -> bytes:
    """The page of an address that has none (a person's browser asked for it): the client's
    page, marked (``<body data-missing="1">``) to say in the visitor's language that there is
    no page here, with the site's top bar and a way back to the lobby."""
    index = INDEX.read_bytes()
    assert index.count(b"<body>") == 1, "index.html has one plain <body>"
    return index.replace(b"<body>", b'<body data-missing="1">')
