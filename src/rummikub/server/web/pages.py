"""The pages of the web client: every address a person opens is the one page of the client
(``static/index.html``), which shows what the address names; and the message catalogues the
page words itself with. The client's files are served under ``/static`` (:func:`.app.create_app`
mounts :data:`STATIC`)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, JSONResponse, Response

from rummikub.i18n import LANGUAGES, catalogue_bytes

from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError

__all__ = ["INDEX", "STATIC", "router"]

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


@router.get("/")
async def home() -> FileResponse:
    return FileResponse(INDEX)


@router.get("/r/{code}")
async def invite(code: str) -> FileResponse:
    return FileResponse(INDEX)


@router.get("/account")
@router.get("/leaderboard")
async def account_pages() -> FileResponse:
    return FileResponse(INDEX)


@router.get("/players/{name}")
async def profile_page(name: str) -> FileResponse:
    return FileResponse(INDEX)


@router.get("/replay/{code}")
async def replay_page(code: str) -> FileResponse:
    return FileResponse(INDEX)


@router.get("/assistant")
async def assistant_page() -> FileResponse:
    return FileResponse(INDEX)
