"""What a guest's name and a chat message may hold: something a person can see, and nothing
that reorders or hides the text around it.

The protocol's schema (``protocol.py``) already refuses control characters and text of only
ASCII spaces. This adds what Unicode makes possible besides:

- **Bidirectional controls** (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C): a name
  holding U+202E (right-to-left override) shows every chat line it appears in backwards, and
  the others can make a name look like another. Refused: ``bad-character`` with the ``char``.
- **Lone surrogates** (``"\\ud800"`` in the JSON): no real text, and they cannot be stored
  (PostgreSQL refuses them). Refused the same way.
- **Nothing visible**: only spaces of any kind (NBSP, U+3000...), zero-width and other
  format characters (U+200B, U+FEFF, U+2060, tags...), combining marks on nothing, and the
  letters and symbols that draw nothing (the Braille blank U+2800, the Hangul fillers).
  Refused: ``invisible-text``.
"""

from __future__ import annotations

import unicodedata

from .codes import ServerCode
from .refusals import ClientError

__all__ = ["BIDI_CONTROLS", "check_text", "visible"]

#: characters that change the direction of the text around them
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)

#: letters and symbols to Unicode that draw nothing in the usual fonts
_BLANK = frozenset(
    "\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0\U0001d159\U0001d173\U0001d174\U0001d175"
    "\U0001d176\U0001d177\U0001d178\U0001d179\U0001d17a"
)

#: general categories that show nothing on their own: separators (spaces of every kind),
#: controls, format characters (zero-width, tags, bidi), surrogates, combining marks
_UNSEEN = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Mn", "Me"})


def visible(char: str) -> bool:
    """Whether ``char`` draws something by itself."""
    return char not in _BLANK and unicodedata.category(char) not in _UNSEEN


def check_text(text: str, field: str) -> str:
    """``text`` if a name or chat message may be it, else :class:`ClientError`:
    ``bad-character`` (``field``, ``char``) for a bidirectional control or a lone surrogate,
    ``invisible-text`` (``field``) for text with nothing visible in it."""
    for char in text:
        if char in BIDI_CONTROLS or unicodedata.category(char) == "Cs":
            code = f"U+{ord(char):04X}"
            raise ClientError(
                ServerCode.BAD_CHARACTER,
                f"{field}: {code} is not allowed (it reorders the text around it, or is not a "
                "character)",
                params={"field": field, "char": code},
            )
    if not any(visible(c) for c in text):
        raise ClientError(
            ServerCode.INVISIBLE_TEXT,
            f"{field}: needs at least one visible character",
            params={"field": field},
        )
    return text
