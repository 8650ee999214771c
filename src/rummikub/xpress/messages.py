"""Left only for :mod:`rummikub.cli.xpress`, which still imports ``LANGUAGES`` from here.

The Xpress interface text is in the one message catalogue now (:mod:`rummikub.i18n`, keys
``xpress.tui.*``). Delete this module once that import reads ``from rummikub.i18n import
LANGUAGES``.
"""

from __future__ import annotations

from rummikub.i18n import LANGUAGES

__all__ = ["LANGUAGES"]
