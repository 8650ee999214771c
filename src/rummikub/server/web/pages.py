"""The pages of the web client: every address a person opens is the one page of the client
(``static/index.html``), which shows what the address names; and the message catalogues the
page words itself with. The page is served in the language of ``?lang=`` or of the browser's
``Accept-Language`` (``<html lang dir>``), and carries the list of languages
(:data:`rummikub.i18n.SHIPPED`) for the client's language menu. The client's files are served
under ``/static`` (:func:`.app.create_app` mounts :data:`STATIC`)."""

from __future__ import annotations

import functools
import html
import json
from importlib import resources
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from rummikub.i18n import LANGUAGES, SHIPPED, catalogue_bytes, direction, negotiate

from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError

__all__ = ["INDEX", "PAGES", "STATIC", "VARY", "not_found_page", "page_language", "router"]

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
    "/puzzles",
    "/puzzles/{ident}",
)


def page_language(request: Request) -> str:
    """The language of a page: ``?lang=xx`` when it names a shipped one, else the browser's
    ``Accept-Language``."""
    asked = request.query_params.get("lang", "")
    return asked if asked in LANGUAGES else negotiate(request.headers.get("accept-language"))


#: the list of languages as the client reads it (``<html data-languages>``)
_LANGUAGE_LIST = json.dumps(
    [{"code": x.code, "name": x.name, "dir": direction(x.code)} for x in SHIPPED],
    ensure_ascii=False,
    separators=(",", ":"),
)


@functools.cache
def _index(lang: str, missing: bool) -> bytes:
    index = INDEX.read_bytes()
    assert index.count(b'<html lang="en">') == 1, "index.html has one plain <html lang>"
    assert index.count(b"<body>") == 1, "index.html has one plain <body>"
    listed = html.escape(_LANGUAGE_LIST, quote=True)
    head = f'<html lang="{lang}" dir="{direction(lang)}" data-languages="{listed}">'
    index = index.replace(b'<html lang="en">', head.encode())
    if missing:
        index = index.replace(b"<body>", b'<body data-missing="1">')
    return index


async def page(request: Request) -> HTMLResponse:
    return HTMLResponse(_index(page_language(request), False), headers=VARY)


#: a page differs by the browser's languages
VARY = {"Vary": "Accept-Language"}


for _path in PAGES:
    router.add_api_route(_path, page, methods=["GET"])


def not_found_page(lang: str = "en") -> bytes:
    """The page of an address that has none (a person's browser asked for it): the client's
    page in ``lang``, marked (``<body data-missing="1">``) to say in the visitor's language
    that there is no page here, with the site's top bar and a way back to the lobby."""
    return _index(lang if lang in LANGUAGES else "en", True)
