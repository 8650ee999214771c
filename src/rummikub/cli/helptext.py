"""What every ``--help`` of the ``rummikub`` command shows besides its options: examples (at
least one per command, as ``git`` and ``ffmpeg`` users expect) and, in the list of commands,
one complete sentence per command (its first sentence on one line, never a docstring's line
break in the middle)."""

from __future__ import annotations

import inspect
import re

import typer

__all__ = ["EXAMPLES", "finish_help", "short_help"]

#: Examples per command path (``"replay"``, ``"xpress play"``), shown under its options.
EXAMPLES: dict[str, tuple[str, ...]] = {
    "replay": (
        "rummikub replay game.json                      # the viewer on a terminal",
        "rummikub replay --text --lang sv game.json     # the game as text, in Swedish",
        "rummikub replay --verify games.jsonl           # re-check every turn",
    ),
    "analyse": (
        "rummikub analyse game.json                     # the mistakes and each accuracy",
        "rummikub analyse --json game.json              # the analysis as JSON",
        "rummikub analyse results.records.jsonl --jobs 2   # many games: per bot",
    ),
    "assist": (
        "rummikub assist                                # the assistant's screen",
        'rummikub assist -t "R1 R2 R3 | K5 B5 O5" -r "R4 J K9" --text',
    ),
    "tournament": (
        "rummikub tournament --bots expert,greedy --players 2 --games 200",
        "rummikub tournament --bots greedy,random --games 1000 --jobs 4 --out r.jsonl",
    ),
    "engine": (
        "rummikub engine expert --limit 0.1             # speaks rummikub-bot/1 on stdin/stdout",
        'rummikub tournament --bots "greedy,cmd:rummikub engine greedy" --games 20',
    ),
    "bot": ('rummikub bot --cmd "python examples/bots/simple_bot.py" --against greedy --games 10',),
    "play": (
        "rummikub play                                  # the new-game form",
        "rummikub play --bots greedy,greedy             # straight into a game",
        "rummikub play --bots expert --rules tournament --seed 7",
        "rummikub play --resume ~/.local/share/rummikub/autosave.json",
    ),
    "simulate": (
        "rummikub simulate --players 4 --games 100 --seed 1 --out games.jsonl",
        "rummikub simulate --game xpress --bots greedy,expert --games 10 --jobs 2",
    ),
    "serve": (
        "rummikub serve                                 # http://127.0.0.1:8000",
        "rummikub serve --host 0.0.0.0 --port 8000 --db postgresql://ann@db.lan/games",
    ),
    "solve": (
        'rummikub solve --table "R1 R2 R3 | K5 B5 O5" --rack "R4 J K1"',
        "rummikub solve --json < position.json",
        "rummikub solve --jsonl < positions.jsonl > results.jsonl",
    ),
    "accounts": (
        "rummikub accounts reset-password ann",
        "rummikub accounts reports --all",
    ),
    "accounts reset-password": ("rummikub accounts reset-password ann",),
    "accounts reports": (
        "rummikub accounts reports                      # the reports not handled yet",
        "rummikub accounts reports --done 12            # mark report 12 handled",
    ),
    "ratings": ("rummikub ratings bots", "rummikub ratings calibrate results.jsonl"),
    "ratings bots": ("rummikub ratings bots",),
    "ratings calibrate": ("rummikub ratings calibrate results.jsonl --out calibration.json",),
    "xpress": ("rummikub xpress play --bot expert", "rummikub xpress replay game.json"),
    "xpress play": (
        "rummikub xpress play                           # against the expert bot",
        "rummikub xpress play --bot greedy --seed 7 --save game.json",
        "rummikub xpress play --resume game.json",
    ),
    "xpress replay": (
        "rummikub xpress replay game.json",
        "rummikub xpress replay --text games.jsonl --game 2",
    ),
}


def short_help(text: str) -> str:
    """The first sentence of a command's help, on one line: what the list of commands shows."""
    first = inspect.cleandoc(text).partition("\n\n")[0]
    first = " ".join(first.split())
    found = re.search(r"^.+?[.!?](?=\s|$)", first)
    return found.group(0) if found else first


def _epilog(lines: tuple[str, ...]) -> str:
    # Typer's help keeps the line breaks of an epilog: one example a line
    return "Examples:\n" + "\n".join(f"  {line}" for line in lines)


def finish_help(app: typer.Typer, path: str = "") -> None:
    """Give every command of ``app`` (and of its groups) its examples and its one-sentence
    entry in the list of commands."""
    for info in app.registered_commands:
        name = info.name or (info.callback.__name__ if info.callback else "")
        key = f"{path} {name}".strip()
        text = info.help or inspect.getdoc(info.callback) or ""
        if info.short_help is None and text:
            info.short_help = short_help(text)
        if key in EXAMPLES and info.epilog is None:
            info.epilog = _epilog(EXAMPLES[key])
    for group in app.registered_groups:
        sub = group.typer_instance
        if sub is None:
            continue
        key = f"{path} {group.name or sub.info.name}".strip()
        # a group's settings are Typer's placeholders until given (not None)
        about = group.help if isinstance(group.help, str) else sub.info.help
        if isinstance(about, str) and not isinstance(group.short_help, str):
            group.short_help = short_help(about)
        if key in EXAMPLES and not isinstance(group.epilog, str):
            group.epilog = _epilog(EXAMPLES[key])
        finish_help(sub, key)
