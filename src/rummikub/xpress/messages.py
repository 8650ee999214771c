"""The Xpress interface text in English and Swedish: a small message catalogue.

``text(lang, key, **values)`` formats one message; every key exists in every language (a test
checks it), and an unknown language falls back to English.
"""

from __future__ import annotations

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
        "bot_turn": "{name} is playing...",
        "threw": "{name} threw {faces}",
        "placed": "{name} placed {faces}",
        "passes": "{name} can place nothing",
        "cannot_place": "These dice cannot be placed: {faces}",
        "select_first": "Select dice first (click them or press 1-9)",
        "hint": "Hint: {faces}",
        "no_hint": "No placement possible",
        "round_won": "Round {round}: {name} wins {points} points ({reason})",
        "round_draw": "Round {round}: blocked with equal totals, nobody scores",
        "reason_out": "all dice placed",
        "reason_blocked": "blocked",
        "reason_abandoned": "abandoned",
        "next_round": "Press n for the next round",
        "match_over": "Match over: {result}. Press q to quit",
        "winner": "{name} wins",
        "draw": "a draw",
        "idle": "Throws without placing: {idle} (blocked at {limit} each)",
        "your_dice": "Your dice",
        "their_dice": "{name}'s dice",
        "table": "Table",
        "empty_table": "(no sets yet)",
        "replay_step": "Step {step}/{steps}: {what}",
        "replay_start": "Start of round {round}",
        "replay_keys": "right/space: next, left: back, q: quit",
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
        "bot_turn": "{name} spelar...",
        "threw": "{name} slog {faces}",
        "placed": "{name} lade ut {faces}",
        "passes": "{name} kan inte lägga ut något",
        "cannot_place": "De här tärningarna kan inte läggas ut: {faces}",
        "select_first": "Välj tärningar först (klicka på dem eller tryck 1-9)",
        "hint": "Tips: {faces}",
        "no_hint": "Inget kan läggas ut",
        "round_won": "Omgång {round}: {name} vinner {points} poäng ({reason})",
        "round_draw": "Omgång {round}: låst med lika summor, ingen får poäng",
        "reason_out": "alla tärningar utlagda",
        "reason_blocked": "låst",
        "reason_abandoned": "avbruten",
        "next_round": "Tryck n för nästa omgång",
        "match_over": "Matchen är slut: {result}. Tryck q för att avsluta",
        "winner": "{name} vinner",
        "draw": "oavgjort",
        "idle": "Slag utan utläggning: {idle} (låst vid {limit} var)",
        "your_dice": "Dina tärningar",
        "their_dice": "{name}s tärningar",
        "table": "Bordet",
        "empty_table": "(inga serier än)",
        "replay_step": "Steg {step}/{steps}: {what}",
        "replay_start": "Början av omgång {round}",
        "replay_keys": "höger/mellanslag: nästa, vänster: tillbaka, q: avsluta",
        "illegal": "Inte tillåtet: {reason}",
        "saved": "Protokollet sparat i {path}",
        "keys": (
            "t slå  p lägg ut  h tips  e avsluta tur  1-9 välj  a alla  c rensa  "
            "n nästa omgång  q avsluta"
        ),
    },
}


def text(lang: str, key: str, **values: object) -> str:
    """The message ``key`` in ``lang`` (English if the language is unknown), formatted."""
    table = MESSAGES.get(lang, MESSAGES["en"])
    return table[key].format(**values)
