"""Game records as text, one line per step (``rummikub replay`` when the output is not a
terminal, ``rummikub xpress replay --text``): one describer per game (its ``describe`` part in
the table of game parts, :mod:`rummikub.games.parts`; a game without one is described step by
step), every sentence from the message catalogue (``--lang``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

from rummikub.core import GameRecord, PlayerInfo, replay
from rummikub.games import AnyRecord, game_part, parts_of
from rummikub.i18n import LANGUAGES, Translator, catalogue, translator
from rummikub.xpress import EndTurn, Place, Throw, XpressRecord, replay_xpress
from rummikub.xpress.dice import DieFace

__all__ = ["Describer", "describe", "describe_tiles", "describe_xpress"]

STEP = "  {number:>3}. "  # a step's line starts with its number in the round
MORE = "       "  # and what follows it is indented under its text


def you_seat(players: Sequence[PlayerInfo]) -> int | None:
    """The seat the text speaks to ("You are dealt", not "You is dealt"): the only person of
    the game (the others bots) when his name is the word for "you" in a language of the
    catalogue (the terminal game's name for the player at the keyboard), else ``None``."""
    humans = [i for i, p in enumerate(players) if p.kind == "human"]
    words = {catalogue(lang)["setup.you"].casefold() for lang in LANGUAGES}
    if len(humans) == 1 and players[humans[0]].name.casefold() in words:
        return humans[0]
    return None


def _names(players: Sequence[PlayerInfo], t: Translator) -> tuple[list[str], int | None]:
    """The players' names as the text shows them (the player spoken to is "You" in the
    language of the text) and his seat."""
    you = you_seat(players)
    names = [p.name for p in players]
    if you is not None:
        names[you] = t("setup.you")
    return names, you


def _pieces(items: Sequence[object], t: Translator) -> str:
    return " ".join(str(x) for x in items) or t("text.nothing")


def _scores(names: Sequence[str], scores: Sequence[int], signed: bool) -> str:
    return ", ".join(
        f"{n} {s:+d}" if signed else f"{n} {s}" for n, s in zip(names, scores, strict=True)
    )


def _round_over(
    t: Translator, names: Sequence[str], how: str, winner: int | None, you: int | None
) -> str:
    who = names[winner] if winner is not None else t("text.nobody")
    label = t(f"text.how.{how}") if t.has(f"text.how.{how}") else how
    return "  " + t(
        "text.round_over", how=label, name=who, you=winner is not None and winner == you
    )


def _round_start(
    t: Translator,
    names: Sequence[str],
    you: int | None,
    index: int,
    first: int,
    key: str,
    dealt: Sequence[str],
) -> Iterator[str]:
    """A round's first lines: who starts, and what each player was dealt (``key``)."""
    yield t("text.round_start", round=index + 1, name=names[first], you=first == you)
    for seat, (name, pieces) in enumerate(zip(names, dealt, strict=True)):
        yield "  " + t(key, name=name, pieces=pieces, you=seat == you)


def describe_tiles(rec: GameRecord, t: Translator) -> Iterator[str]:
    """Every turn of a tile-game record with the table after it, and every round's end."""
    names, you = _names(rec.players, t)
    current_round = -1
    for step in replay(rec):
        if step.round != current_round:
            current_round = step.round
            rd = rec.rounds[step.round]
            racks = [str(rack) for rack in rd.racks]
            yield from _round_start(t, names, you, step.round, rd.first, "text.dealt", racks)
        log = step.log
        head = STEP.format(number=step.turn + 1)
        name = names[log.player]
        me = log.player == you
        if log.action == "play":
            key = "text.play_hinted" if log.hint else "text.play"
            yield head + t(key, name=name, tiles=_pieces(log.play, t), you=me)
            yield MORE + t("text.table", table=str(step.after.table))
        elif log.action == "draw":
            yield head + t("text.draw", name=name, tile=str(log.tile), you=me)
        elif log.action == "pass":
            yield head + t("text.pass", name=name, you=me)
        else:  # timeout, invalid
            tiles = _pieces(log.penalty, t)
            yield head + t(f"text.{log.action}", name=name, tiles=tiles, you=me)
        end = step.after.end
        if end is not None:
            yield _round_over(t, names, end.reason, end.winner, you)
            yield "  " + t("text.scores", scores=_scores(names, end.scores, signed=True))
    for ri, rd in enumerate(rec.rounds):
        if rd.end is not None and rd.end.reason == "abandoned":
            yield t("text.round_abandoned", round=ri + 1)
    if rec.totals is not None:
        yield t("text.totals", totals=_scores(names, rec.totals, signed=True))


def _dice(dice: Sequence[DieFace]) -> str:
    return " ".join(str(d.face) for d in dice) or "-"


def describe_xpress(rec: XpressRecord, t: Translator) -> Iterator[str]:
    """Every throw and placement of an Xpress record, and every round's end."""
    names, you = _names(rec.players, t)
    current = -1
    for step in replay_xpress(rec):
        if step.round != current:
            current = step.round
            rd = rec.rounds[current]
            rolled = [_dice(hand) for hand in rd.hands]
            yield from _round_start(t, names, you, current, rd.first, "text.rolls", rolled)
        head = STEP.format(number=step.turn + 1)
        name = names[step.before.current]
        me = step.before.current == you
        action = step.action
        if isinstance(action, Throw):
            faces = " ".join(str(f) for f in action.faces or ())
            count = len(action.dice)
            yield head + t("text.throws", name=name, count=count, faces=faces, you=me)
        elif isinstance(action, Place):
            placed = [d for d in step.before.hand if d.die in set(action.dice)]
            yield head + t("text.places", name=name, dice=_dice(placed), you=me)
            yield MORE + t("text.table", table=str(step.after.table))
        elif isinstance(action, EndTurn) and step.before.placed == 0:
            yield head + t("text.places_nothing", name=name, you=me)
        end = step.after.end
        if end is not None:
            yield _round_over(t, names, end.reason, end.winner, you)
            hands = "; ".join(
                f"{n} {_dice(h)} = {v}"
                for n, h, v in zip(names, end.hands, end.totals, strict=True)
            )
            yield "  " + t("text.dice_left", hands=hands)
            yield "  " + t("text.scores", scores=_scores(names, end.scores, signed=False))
    if rec.totals is not None:
        yield t("text.totals", totals=_scores(names, rec.totals, signed=False))


def _describe_steps(rec: AnyRecord, t: Translator) -> Iterator[str]:
    """A game without a describer of its own: step by step, with what the mover then sees."""
    game = rec.game
    names, you = _names(rec.record.players, t)
    current = -1
    for step in game.replay(rec.record):
        seat = game.current(step.before)
        if step.round != current:
            current = step.round
            yield t("text.round_start", round=current + 1, name=names[seat], you=seat == you)
        seen = json.dumps(game.observation_to_json(game.observe(step.after, seat)))
        line = t("text.moves", name=names[seat], seen=seen, you=seat == you)
        yield STEP.format(number=step.turn + 1) + line
        result = game.result(step.after)
        if result is not None:
            yield _round_over(t, names, result.reason, result.winner, you)
            yield "  " + t("text.scores", scores=_scores(names, result.scores, signed=True))


#: a game's own describer of its records (its ``describe`` part): (record, translator) -> lines
Describer = Callable[[Any, Translator], Iterator[str]]


def describe(rec: AnyRecord, lang: str | None = None) -> Iterator[str]:
    """The lines of a record of any game in ``lang`` (default: the system's language),
    re-checked against the rules as they are made."""
    t = translator(lang)
    if parts_of(rec.game).describe is None:
        return _describe_steps(rec, t)
    own = game_part(rec.game, "describe")
    if not callable(own):
        raise TypeError(f"the describe part of {rec.game.name} is not callable: {own!r}")
    return cast(Describer, own)(rec.record, t)
