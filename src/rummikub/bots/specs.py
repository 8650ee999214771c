"""Bot specifications as users write them: a built-in level (``greedy``) or an outside
program (``cmd:python mybot.py``) of a game that has an ``outside`` part (the tile game, whose
programs speak ``rummikub-bot/1``)."""

from __future__ import annotations

from typing import Any

from rummikub.core import RulesError
from rummikub.games import game_names, game_part, get_game, parts_of

from .registry import bot_levels, get_bot

__all__ = ["CMD_PREFIX", "check_spec", "make_bot", "parse_specs"]

CMD_PREFIX = "cmd:"


def check_spec(spec: str, game: str = "tiles") -> str:
    """``spec`` stripped, or :class:`RulesError` naming what is wrong with it (a level of
    ``game``, or an outside program: ``cmd:`` plays only a game with an ``outside`` part)."""
    text = spec.strip()
    outside_ok = parts_of(game).outside is not None
    if text.startswith(CMD_PREFIX):
        if not text[len(CMD_PREFIX) :].strip():
            raise RulesError(f"bot {spec!r}: 'cmd:' needs a command line", field="bot")
        if not outside_ok:
            played = ", ".join(game_names("outside")) or "no game"
            raise RulesError(
                f"bot {spec!r}: outside programs play {played} only, not {get_game(game).name}",
                field="bot",
            )
        return text
    levels = bot_levels(game)
    if text not in levels:
        outside = ", or cmd:COMMAND" if outside_ok else ""
        raise RulesError(
            f"unknown bot {text!r} (bots: {', '.join(sorted(levels))}{outside})",
            field="bot",
        )
    return text


def parse_specs(text: str, game: str = "tiles") -> list[str]:
    """Comma-separated specs. A ``cmd:`` spec runs to the end of the text (it may contain
    commas), so put it last."""
    out: list[str] = []
    rest = text.strip()
    while rest:
        if rest.startswith(CMD_PREFIX):
            out.append(check_spec(rest, game))
            break
        head, _, rest = rest.partition(",")
        rest = rest.strip()
        if head.strip():
            out.append(check_spec(head, game))
    if not out:
        raise RulesError("no bots given", field="bot")
    return out


def make_bot(
    spec: str, seed: int | None = None, *, time_limit: float | None = None, game: str = "tiles"
) -> Any:
    """A new bot of ``game`` for ``spec``. ``time_limit`` is the outside program's default
    time per decision (when the rules set none)."""
    text = check_spec(spec, game)
    if text.startswith(CMD_PREFIX):
        command = text[len(CMD_PREFIX) :].strip()
        factory = game_part(game, "outside")
        if not callable(factory):
            raise TypeError(f"the outside part of {game} is not callable: {factory!r}")
        if time_limit is not None:
            return factory(command, name=text, default_limit=time_limit)
        return factory(command, name=text)
    return get_bot(text, seed, game=game)
