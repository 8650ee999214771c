"""The Xpress interface text in English and Swedish: a small message catalogue.

``text(lang, key, **values)`` formats one message; every key exists in every language (a test
checks it), and an unknown language falls back to English. As in :mod:`rummikub.i18n`, a
``count`` value picks the plural form ``key#one`` when there is one (CLDR's rule for the
language), and ``you=True`` picks ``key@you`` (the player at the keyboard: "You win", not
"You wins").
"""

from __future__ import annotations

from rummikub.i18n import plural_category

__all__ = ["LANGUAGES", "MESSAGES", "text"]

LANGUAGES = ("en", "sv")

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "title": "Rummikub Xpress",
        "round": "Round {round}/{rounds}",
        "scores": "Scores: {scores}",
        "your_turn_throw": ("Your turn: select dice to throw again (none selected = all), press t"),
        "your_turn_place": (
            "Your turn: select dice and press p to place them, or e to end the turn"
        ),
        "must_place": "You can place dice: you must place at least one",
        "nothing": "Nothing can be placed: press e to end the turn",
        "placed_end": "Placed {count} dice. Place more or press e to end the turn",
        "placed_end#one": "Placed 1 die. Place more or press e to end the turn",
        "bot_turn": "{name} is playing...",
        "threw": "{name} threw {faces}",
        "placed": "{name} placed {faces}",
        "ends_turn": "{name} ended the turn",
        "passes": "{name} can place nothing",
        "cannot_place": "These dice cannot be placed: {faces}",
        "select_first": "Select dice first (click them or press 1-9)",
        "hint": "Hint: {faces}",
        "no_hint": "No placement possible",
        "round_won": "Round {round}: {name} wins {count} points ({reason})",
        "round_won#one": "Round {round}: {name} wins 1 point ({reason})",
        "round_won@you": "Round {round}: you win {count} points ({reason})",
        "round_won@you#one": "Round {round}: you win 1 point ({reason})",
        "round_draw": "Round {round}: blocked with equal totals, nobody scores",
        "reason_out": "all dice placed",
        "reason_blocked": "blocked",
        "reason_abandoned": "abandoned",
        "next_round": "Press n for the next round",
        "match_over": "Match over: {result}. Press q to quit",
        "winner": "{name} wins",
        "winner@you": "you win",
        "draw": "a draw",
        "idle": (
            "Throws in a row without placing: {idle} (the round is blocked when both reach {limit})"
        ),
        "your_dice": "Your dice",
        "their_dice": "{name}'s dice",
        "table": "Table",
        "empty_table": "(no sets yet)",
        "replay_step": "Step {step}/{steps}: {what}",
        "replay_start": "Start of round {round}",
        "replay_keys": "right/space: next, left: back, q: quit",
        "log": "Log",
        "illegal": "Not allowed: {reason}",
        "saved": "Record saved to {path}",
        "keys": (
            "t throw  p place  h hint  e end turn  1-9 select  a all  c clear  n next round  q quit"
        ),
    },
    "sv": {
        "title": "Rummikub Xpress",
        "round": "Omgång {round}/{rounds}",
        "scores": "Poäng: {scores}",
        "your_turn_throw": "Din tur: välj tärningar att slå om (inga valda = alla), tryck t",
        "your_turn_place": (
            "Din tur: välj tärningar och tryck p för att lägga ut, eller e för att avsluta"
        ),
        "must_place": "Du kan lägga ut tärningar: du måste lägga ut minst en",
        "nothing": "Inget kan läggas ut: tryck e för att avsluta turen",
        "placed_end": "{count} tärningar utlagda. Lägg fler eller tryck e för att avsluta",
        "placed_end#one": "1 tärning utlagd. Lägg fler eller tryck e för att avsluta",
        "bot_turn": "{name} spelar...",
        "threw": "{name} slog {faces}",
        "placed": "{name} lade ut {faces}",
        "ends_turn": "{name} avslutade turen",
        "passes": "{name} kan inte lägga ut något",
        "cannot_place": "De här tärningarna kan inte läggas ut: {faces}",
        "select_first": "Välj tärningar först (klicka på dem eller tryck 1-9)",
        "hint": "Tips: {faces}",
        "no_hint": "Inget kan läggas ut",
        "round_won": "Omgång {round}: {name} vinner {count} poäng ({reason})",
        "round_won#one": "Omgång {round}: {name} vinner 1 poäng ({reason})",
        "round_won@you": "Omgång {round}: du vinner {count} poäng ({reason})",
        "round_won@you#one": "Omgång {round}: du vinner 1 poäng ({reason})",
        "round_draw": "Omgång {round}: låst med lika summor, ingen får poäng",
        "reason_out": "alla tärningar utlagda",
        "reason_blocked": "låst",
        "reason_abandoned": "avbruten",
        "next_round": "Tryck n för nästa omgång",
        "match_over": "Matchen är slut: {result}. Tryck q för att avsluta",
        "winner": "{name} vinner",
        "winner@you": "du vinner",
        "draw": "oavgjort",
        "idle": "Slag i rad utan utläggning: {idle} (omgången låses när båda når {limit})",
        "your_dice": "Dina tärningar",
        "their_dice": "{name}s tärningar",
        "table": "Bordet",
        "empty_table": "(inga serier än)",
        "replay_step": "Steg {step}/{steps}: {what}",
        "replay_start": "Början av omgång {round}",
        "replay_keys": "höger/mellanslag: nästa, vänster: tillbaka, q: avsluta",
        "log": "Logg",
        "illegal": "Inte tillåtet: {reason}",
        "saved": "Protokollet sparat i {path}",
        "keys": (
            "t slå  p lägg ut  h tips  e avsluta tur  1-9 välj  a alla  c rensa  "
            "n nästa omgång  q avsluta"
        ),
    },
}


def text(lang: str, key: str, *, you: bool = False, **values: object) -> str:
    """The message ``key`` in ``lang`` (English if the language is unknown), formatted."""
    if lang not in MESSAGES:
        lang = "en"
    table = MESSAGES[lang]
    if you and f"{key}@you" in table:
        key = f"{key}@you"
    count = values.get("count")
    if isinstance(count, int) and not isinstance(count, bool):
        form = f"{key}#{plural_category(lang, count)}"
        if form in table:
            key = form
    return table[key].format(**values)
