"""``rummikub tournament`` (bot arena) and ``rummikub bot`` (try an outside bot)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .common import (
    WorkersOption,
    error_words,
    fail,
    game_option,
    load_game_rules,
    load_rules,
    merge_jobs,
    progress_bar,
    require_solver,
)

if TYPE_CHECKING:
    from rummikub.bots.conformance import ConformanceReport
    from rummikub.bots.protocol import OutsideBot
    from rummikub.bots.tournament import Standings
    from rummikub.core import Rules
    from rummikub.i18n import Translator

__all__ = ["format_standings", "register"]


#: fewer games than this and the intervals are too wide to rank the bots by
FEW_GAMES = 30


def format_standings(st: Standings, t: Translator | None = None) -> str:
    """The results table as plain text in the language of ``t`` (default: the system's):
    every interval a 95% one printed the same way (from … to), the head-to-head table with a
    header row, and a warning under 30 games."""
    from rummikub.i18n import translator

    t = t or translator()
    head = [t("standings.bot"), t("standings.games"), t("standings.wins")]
    head += [t("standings.win_rate"), t("standings.score"), t("standings.elo")]
    rows = []
    for b in sorted(st.bots, key=lambda b: -b.win_rate):
        lo, hi = b.interval
        name = b.bot if len(b.bot) <= 24 else b.bot[:21] + "..."
        win = t(
            "standings.interval",
            value=t.decimal(100 * b.win_rate),
            low=t.decimal(100 * lo),
            high=t.decimal(100 * hi),
        )
        elo = t(
            "standings.interval",
            value=f"{b.elo:+.0f}",
            low=f"{b.elo - b.elo_error:+.0f}",
            high=f"{b.elo + b.elo_error:+.0f}",
        )
        rows.append([name, str(b.games), f"{b.wins:g}", win, f"{b.mean_score:+.1f}", elo])
    least = (24, 6, 8, 22, 9, 22)
    widths = [max(w, *(len(r[i]) for r in [head, *rows])) for i, w in enumerate(least)]

    def line(cells: list[str]) -> str:
        first = cells[0].ljust(widths[0])
        return " ".join([first, *(c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True))])

    top = line(head)
    lines = [top, "-" * len(top), *(line(r) for r in rows)]
    names = [b.bot for b in st.bots]
    if len(names) > 2:
        never = t("standings.never")
        width = max(10, len(never), *(min(len(n), 12) for n in names))
        lines.append("")
        lines.append(t("standings.head_to_head"))
        lines.append(t("standings.head_to_head_key", never=never))
        lines.append(f"  {'':<20} " + "  ".join(f"{n[:width]:>{width}}" for n in names))
        for row in names:
            cells = []
            for col in names:
                met = st.meetings.get((row, col), 0)
                if row == col:
                    cells.append("·")
                elif not met:
                    cells.append(never)
                else:
                    cells.append(f"{st.head_to_head[row, col]:g}/{met}")
            lines.append(f"  {row[:20]:<20} " + "  ".join(f"{c:>{width}}" for c in cells))
    if st.games < FEW_GAMES:
        lines.append("")
        lines.append(
            t("standings.few_games", games=t("count.games", count=st.games), least=FEW_GAMES)
        )
    return "\n".join(lines)


def conformance_summary(report: ConformanceReport, t: Translator) -> str:
    """What ``rummikub bot`` saw, in the words of the catalogue: the games, rounds, decisions
    and plays counted properly, the time a decision took and the violations."""
    mean = report.seconds / report.decisions if report.decisions else 0.0
    many = len(report.violations)
    head = t(
        "cli.bot_summary",
        games=t("count.games", count=report.games),
        wins=f"{report.wins:g}",
        rounds=t("count.rounds", count=report.rounds),
        decisions=t("count.decisions", count=report.decisions),
        plays=t("count.plays", count=report.plays),
        mean=t.decimal(mean * 1000),
        max=f"{report.max_seconds * 1000:.0f}",
        result=t("count.violations", count=many) if many else t("cli.no_violations"),
    )
    lines = [head, *(f"  {v}" for v in report.violations[:20])]
    if many > 20:
        lines.append("  " + t("cli.more_violations", count=many - 20))
    return "\n".join(lines)


def could_not_start(
    cmd: str,
    why: str,
    stderr: list[str] | None,
    *,
    again: bool = False,
    t: Translator | None = None,
) -> str:
    """The one report of an outside bot that does not start: why, and the last lines of its
    standard error (where a program says what went wrong; None: no process ran)."""
    from rummikub.i18n import translator

    t = t or translator()
    head = t(
        "cli.could_not_start_again" if again else "cli.could_not_start", cmd=repr(cmd), why=why
    )
    if stderr is None:
        return head
    if not stderr:
        return head + " " + t("cli.stderr_empty")
    tail = stderr[-5:]
    return "\n".join([head + t("cli.stderr_tail")] + [f"  {x}" for x in tail])


def tournament(
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="Comma-separated bots: built-in levels (random, beginner, greedy, strategic, "
            "expert) or one outside program as cmd:COMMAND (put it last).",
        ),
    ] = "expert,greedy",
    players: Annotated[int, typer.Option("--players", "-p", help="Players per game.")] = 2,
    games: Annotated[int, typer.Option("--games", "-n", help="Total number of games.")] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Deal d uses seed+d.")] = 1,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs", "-j", help="Games played at once in local processes (0: one per core)."
        ),
    ] = None,
    workers: WorkersOption = None,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Results file (JSON lines); resumed if it exists.")
    ] = Path("results.jsonl"),
    records: Annotated[
        Path | None,
        typer.Option("--records", help="Game records file (default: OUT.records.jsonl)."),
    ] = None,
    rules: Annotated[
        str, typer.Option("--rules", help="Preset name, rules JSON file, or inline JSON.")
    ] = "standard",
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit",
            help="Seconds per decision given to every bot (default: the rules' turn time; "
            "built-in bots also keep their own, smaller budgets).",
        ),
    ] = None,
    fresh: Annotated[
        bool, typer.Option("--fresh", help="Overwrite OUT instead of resuming it.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the standings as JSON.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    game: Annotated[str, typer.Option("--game", help="Which game: tiles or xpress.")] = "tiles",
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="Play the games on a Ray cluster: its address, 'auto' (the cluster of this "
            "machine) or 'local' (start one here). Needs the ray extra.",
        ),
    ] = None,
) -> None:
    """Play paired deals between bots (each deal again with the seats rotated) and rank them.

    Every game's result goes to OUT as it finishes and its record to the records file; run the
    same command again after an interruption to finish the remaining games."""
    from rummikub.bots.specs import make_bot, parse_specs
    from rummikub.bots.tournament import Interrupted, TournamentConfig, run_tournament
    from rummikub.core import RummikubError, player_count_error
    from rummikub.i18n import translator

    the_game = game_option(game)
    jobs = merge_jobs(jobs, workers, "--workers", 0)
    if jobs < 0:
        raise fail(translator()("cli.jobs_or_zero"))
    try:
        specs = parse_specs(bots, the_game.name)
        require_solver(specs, the_game)
        rule_obj = load_game_rules(the_game, rules)
        counts = the_game.player_counts(rule_obj)
        if players not in counts:
            raise player_count_error(players, counts)
        if len(set(specs)) != len(specs):
            raise fail(translator()("cli.bot_twice"))
        if games < 1:
            raise fail(translator()("cli.at_least", option="--games", count=1))
        if time_limit is not None and time_limit <= 0:
            raise fail(translator()("cli.positive", option="--time-limit"))
        for spec in specs:
            if not spec.startswith("cmd:"):
                make_bot(spec, 0, game=the_game.name)
    except RummikubError as exc:
        raise fail(error_words(exc, translator())) from None
    config = TournamentConfig(
        tuple(specs), players, seed, the_game.rules_to_json(rule_obj), time_limit, the_game.name
    )
    started = time.perf_counter()
    progress, close = progress_bar(quiet, "games")
    try:
        st = run_tournament(
            config, games, out, workers=jobs or None, records=records, fresh=fresh,
            progress=progress, ray=ray,
        )  # fmt: skip
    except RummikubError as exc:
        raise fail(str(exc)) from None
    except Interrupted as stop:
        close()
        t = translator()
        said = t(
            "cli.tournament_interrupted",
            games=t("count.finished_games", count=stop.finished),
            out=out,
            left=stop.total - stop.finished,
        )
        typer.echo("\n" + said, err=True)
        raise typer.Exit(130) from None
    close()
    elapsed = time.perf_counter() - started
    if as_json:
        typer.echo(json.dumps({"games": st.games, "bots": [b.to_dict() for b in st.bots]}))
    else:
        t = translator()
        typer.echo(format_standings(st, t))
        games_done = t("count.games", count=st.games)
        typer.echo(
            "\n" + t("cli.tournament_done", games=games_done, out=out, seconds=f"{elapsed:.0f}")
        )


def bot(
    cmd: Annotated[str, typer.Option("--cmd", help="The outside bot's command line.")],
    against: Annotated[str, typer.Option("--against", help="Built-in opponent level.")] = "greedy",
    games: Annotated[int, typer.Option("--games", "-n", help="Games per rules preset.")] = 10,
    players: Annotated[int, typer.Option("--players", "-p", help="Players per game.")] = 2,
    rules: Annotated[
        str,
        typer.Option(
            "--rules",
            help="Comma-separated presets (or one rules JSON), or 'all' for every preset.",
        ),
    ] = "standard",
    seed: Annotated[int, typer.Option("--seed", help="Game g uses seed+g.")] = 1,
    time_limit: Annotated[
        float | None,
        typer.Option("--time-limit", help="Seconds per decision (default: the rules' turn time)."),
    ] = None,
    stderr_file: Annotated[
        Path | None, typer.Option("--stderr", help="Write the bot's standard error here.")
    ] = None,
) -> None:
    """Play an outside bot (rummikub-bot/1 protocol, see docs/bots.md) against a built-in bot,
    checking every answer with the engine. Exits 1 if the bot broke a rule."""
    from rummikub.bots.conformance import run_conformance
    from rummikub.bots.protocol import OutsideBot
    from rummikub.bots.specs import make_bot
    from rummikub.core import PRESETS, RummikubError
    from rummikub.i18n import translator

    try:
        if rules.strip() == "all":
            presets: list[Rules] = list(PRESETS.values())
        elif rules.strip().startswith("{") or rules.strip().endswith(".json"):
            presets = [load_rules(rules)]
        else:
            presets = [load_rules(r) for r in rules.split(",") if r.strip()]
        for r in presets:
            r.check_players(players)
        require_solver([against])
        make_bot(against, 0)
        if games < 1:
            raise fail(translator()("cli.at_least", option="--games", count=1))
    except RummikubError as exc:
        raise fail(error_words(exc, translator())) from None
    err_fh = stderr_file.open("a", encoding="utf-8") if stderr_file else None
    # one start before the games: a program that cannot start is said once, with its last
    # words, not as a timeout on every one of its turns
    probe = OutsideBot(cmd, stderr=err_fh, default_limit=time_limit or 30.0)
    problem = probe.check_start()
    if problem is not None:
        if err_fh is not None:
            err_fh.close()
        tail = probe.stderr_tail if probe.ran else None
        raise fail(could_not_start(cmd, problem, tail, t=translator()))
    made: list[OutsideBot] = []

    def outside(_: int) -> OutsideBot:
        b = OutsideBot(cmd, stderr=err_fh, default_limit=time_limit or 30.0)
        made.append(b)
        return b

    try:
        report = run_conformance(
            outside, games=games, presets=presets, players=players, seed=seed,
            opponents=[lambda s: make_bot(against, s)], time_limit=time_limit,
        )  # fmt: skip
    finally:
        for b in made:
            b.close()
        if err_fh is not None:
            err_fh.close()
    t = translator()
    name = next((b.program_name for b in made if b.program_name), cmd)
    stopped = next((b for b in made if b.dead and b.start_error), None)
    if stopped is not None and stopped.start_error is not None:
        # it ran, then stopped for good: say so once, before the turns it then missed
        said = could_not_start(cmd, stopped.start_error, stopped.stderr_tail, again=True, t=t)
        typer.echo(said)
    summary = conformance_summary(report, t)
    typer.echo(t("cli.bot_result", name=name, against=against, summary=summary))
    typer.echo(
        t(
            "cli.bot_problems",
            timeouts=t("count.timeouts", count=sum(b.timeouts for b in made)),
            crashes=t("count.crashes", count=sum(b.crashes for b in made)),
            rejected=t("count.rejected", count=sum(b.rejected for b in made)),
        )
    )
    if not report.ok:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament)
    app.command("bot")(bot)
