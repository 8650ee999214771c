"""The web side, the top layer: the FastAPI application (:mod:`.app`) and its routes
(:mod:`.account_api`, :mod:`.assistant`), its guards (headers, HTTP limits, origins, the
transport), the server's entry point (:mod:`.run`) and the browser client (``static/``)."""
