"""Bot specifications as users write them: a built-in level (``greedy``) or an outside
program (``cmd:python mybot.py``)."""

from __future__ import annotations

from rummikub.core import RulesError

from .base import Bot
from .protocol import OutsideBot
from .registry import BOTS, get_bot

__all__ = ["CMD_PREFIX", "check_spec", "make_bot", "parse_specs"]

CMD_PREFIX = "cmd:"


def check_spec(spec: str) -> str:
    """``spec`` stripped, or :class:`RulesError` naming what is wrong with it."""
    text = spec.strip()
    if text.startswith(CMD_PREFIX):
        if not text[len(CMD_PREFIX) :].strip():
            raise RulesError(f"bot {spec!r}: 'cmd:' needs a command line", field="bot")
        return text
    if text not in BOTS:
        raise RulesError(
            f"unknown bot {text!r} (bots: {', '.join(sorted(BOTS))}, or cmd:COMMAND)",
            field="bot",
        )
    return text


def parse_specs(text: str) -> list[str]:
    """Comma-separated specs. A ``cmd:`` spec runs to the end of the text (it may contain
    commas), so put it last."""
    out: list[str] = []
    rest = text.strip()
    while rest:
        if rest.startswith(CMD_PREFIX):
            out.append(check_spec(rest))
            break
        head, _, rest = rest.partition(",")
        rest = rest.strip()
        if head.strip():
            out.append(check_spec(head))
    if not out:
        raise RulesError("no bots given", field="bot")
    return out


def make_bot(spec: str, seed: int | None = None, *, time_limit: float | None = None) -> Bot:
    """A new bot for ``spec``. ``time_limit`` is the outside program's default time per
    decision (when the rules set none)."""
    text = check_spec(spec)
    if text.startswith(CMD_PREFIX):
        command = text[len(CMD_PREFIX) :].strip()
        if time_limit is not None:
            return OutsideBot(command, name=text, default_limit=time_limit)
        return OutsideBot(command, name=text)
    return get_bot(text, seed)
