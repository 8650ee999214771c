"""``rummikub serve``: start the game server and print the address to open."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import fail, merge_jobs, needs_extra, require_solver

__all__ = ["register"]


def serve(
    host: str = typer.Option(
        "127.0.0.1", "--host", help="Address to listen on (0.0.0.0 to let other machines connect)."
    ),
    port: int = typer.Option(8000, "--port", "-p", help="TCP port."),
    db: str | None = typer.Option(
        None,
        "--db",
        help="Database URL (default: a SQLite file "
        "in your data directory; e.g. postgresql://user@host/db).",
        envvar="RUMMIKUB_DB",
    ),
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-origin",
            help="A web origin (https://game.example.org) whose pages may connect besides the "
            "server's own, e.g. a reverse proxy's public address; repeat for more. "
            "RUMMIKUB_ALLOWED_ORIGINS adds a comma-separated list.",
        ),
    ] = None,
    api_rate: float = typer.Option(
        10.0,
        "--api-rate",
        help="Requests per second (on average) each client address may make to /api/ (0: no "
        "limit).",
        envvar="RUMMIKUB_API_RATE",
    ),
    api_burst: float = typer.Option(
        200.0,
        "--api-burst",
        help="Requests to /api/ a client address may make at once.",
        envvar="RUMMIKUB_API_BURST",
    ),
    broker: str | None = typer.Option(
        None,
        "--broker",
        help="Run as a node of a cluster: the Redis URL every node shares (redis://host:6379/0); "
        "needs --db postgresql://... (docs/cluster.md).",
        envvar="RUMMIKUB_BROKER",
    ),
    node: str | None = typer.Option(
        None,
        "--node",
        help="This node's name in the cluster (default: host name and process id).",
        envvar="RUMMIKUB_NODE",
    ),
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            help="A name this server answers to (the Host of a request), besides localhost, its "
            "IP addresses, the name it listens on (and the machine's names with --host 0.0.0.0) "
            "and the hosts of --allow-origin: the public name behind a reverse proxy "
            "(game.example.org; *.example.org for a domain; * for any); repeat for more. "
            "RUMMIKUB_ALLOWED_HOSTS adds a comma-separated list.",
        ),
    ] = None,
    forwarded_allow_ips: str = typer.Option(
        "",
        "--forwarded-allow-ips",
        help="Reverse proxies (comma-separated addresses or networks, * for any) whose "
        "X-Forwarded-For/-Proto headers name the client; from anyone else they are ignored "
        "(default: nobody).",
        envvar="RUMMIKUB_FORWARDED_ALLOW_IPS",
    ),
    max_websockets: int = typer.Option(
        64,
        "--max-websockets",
        min=0,
        help="WebSocket connections one client address may hold open (0: no limit).",
        envvar="RUMMIKUB_MAX_WEBSOCKETS",
    ),
    max_connections: int = typer.Option(
        128,
        "--max-connections",
        min=0,
        help="TCP connections (HTTP and WebSocket) one client address may hold open; a trusted "
        "proxy is not counted (0: no limit).",
        envvar="RUMMIKUB_MAX_CONNECTIONS",
    ),
    max_body: int = typer.Option(
        65536,
        "--max-body",
        min=1,
        help="The largest HTTP request body, in bytes (larger: 413).",
        envvar="RUMMIKUB_MAX_BODY",
    ),
    request_timeout: float = typer.Option(
        10.0,
        "--request-timeout",
        min=0.1,
        help="Seconds a request's headers and body may take to arrive before its connection is "
        "closed (slow clients, slowloris).",
        envvar="RUMMIKUB_REQUEST_TIMEOUT",
    ),
    keep_alive: float = typer.Option(
        5.0,
        "--keep-alive",
        min=0.1,
        help="Seconds an idle HTTP connection stays open between requests.",
        envvar="RUMMIKUB_KEEP_ALIVE",
    ),
    jobs: int | None = typer.Option(
        None,
        "--jobs",
        "-j",
        min=1,
        max=64,
        help="Worker processes for the bots' moves and the hints, shared fairly between the "
        "rooms (about one per core; default 2).",
        envvar=["RUMMIKUB_JOBS", "RUMMIKUB_BOT_WORKERS"],
    ),
    bot_workers: int | None = typer.Option(
        None,
        "--bot-workers",
        min=1,
        max=64,
        hidden=True,
        help="Deprecated: use --jobs.",
    ),
    quick_bots_after: float = typer.Option(
        30.0,
        "--quick-bots-after",
        min=0,
        max=3600,
        help="Seconds a quick-match player waits before bots of his level may fill his table "
        "(when he allows them).",
        envvar="RUMMIKUB_QUICK_BOTS_AFTER",
    ),
    quick_bot_delay: float = typer.Option(
        1.0,
        "--quick-bot-delay",
        min=0,
        max=10,
        help="Seconds a bot pauses before each move in a quick match's room (so that people "
        "see its moves).",
        envvar="RUMMIKUB_QUICK_BOT_DELAY",
    ),
    analysis_samples: int | None = typer.Option(
        None,
        "--analysis-samples",
        min=1,
        max=1000,
        help="Sampled deals a position in the game reviews (default: the analysis's default "
        "depth, 32); fewer make a faster, rougher review.",
        envvar="RUMMIKUB_ANALYSIS_SAMPLES",
    ),
) -> None:
    """Start the game server; open the printed address in a browser to play."""
    from rummikub.core import RummikubError

    try:
        from rummikub.server import ServerConfig
        from rummikub.server import serve as run
        from rummikub.server.storage.startup import default_url, shown_url
        from rummikub.server.web.origins import hosts_from_env, normalise_origin, origins_from_env
    except ImportError:  # the extra is not installed (tests/test_install.py)
        raise needs_extra("server") from None
    require_solver()  # the rooms seat solver bots
    try:
        origins = tuple(normalise_origin(o) for o in [*(allow_origin or []), *origins_from_env()])
        url = db or default_url()
        config = ServerConfig(
            db_url=url,
            allowed_origins=origins,
            api_rate=api_rate,
            api_burst=api_burst,
            broker_url=broker,
            node=node,
            quick_bots_after=quick_bots_after,
            quick_bot_delay=quick_bot_delay,
            analysis_samples=analysis_samples,
            allowed_hosts=tuple([*(allow_host or []), *hosts_from_env()]),
            forwarded_allow_ips=tuple(p for p in forwarded_allow_ips.split(",") if p.strip()),
            max_websockets=max_websockets,
            max_connections=max_connections,
            max_body=max_body,
            request_timeout=request_timeout,
            keep_alive=keep_alive,
            bot_threads=merge_jobs(jobs, bot_workers, "--bot-workers", 2),
        )

        from rummikub.i18n import translator

        t = translator()

        def ready(address: str) -> None:
            typer.echo(t("cli.serve.running", address=address))
            typer.echo(t("cli.serve.stored", url=shown_url(url)))
            if origins:
                typer.echo(t("cli.serve.origins", origins=", ".join(origins)))
            if broker:
                typer.echo(t("cli.serve.node", broker=shown_url(broker)))

        run(host, port, config=config, on_ready=ready)
    except RummikubError as exc:
        raise fail(f"rummikub serve: {exc}") from None


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
