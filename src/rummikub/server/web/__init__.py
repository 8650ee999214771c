"""The web side, the top layer: the FastAPI application (:mod:`.app`), its routers (:mod:`.rooms`,
:mod:`.records`, :mod:`.status`, :mod:`.pages`, :mod:`.account_api`, :mod:`.assistant`) and
what they depend on (:mod:`.deps`), its guards (headers, HTTP limits, origins, the transport),
the server's entry point (:mod:`.run`) and the browser client (``static/``)."""
