"""WCAG contrast measured in the browser from the computed styles of the page (the functions
are in contrast.js), for the browser tests of test_browser_readable.py.

Every visible text (an element with text of its own, and every field's value) is measured
against what is behind it: the backgrounds of the element and its ancestors, translucent ones
laid over the first opaque one, a gradient counted by each of its colours (the worst one
decides). The text's own transparency and its ancestors' opacity fade it into that backdrop.
WCAG AA asks 4.5:1 of text, 3:1 of large text (24 px, or 18.66 px bold) and of focus
indicators. Inactive controls (disabled) and text hidden to the eye (an ``sr-only`` label) are
exempt, as WCAG says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

# the measuring functions (contrast.js), with a call of one of them, as one function for
# page.evaluate (the page's policy forbids eval)
_JS = (Path(__file__).parent / "contrast.js").read_text()


def _call(name: str) -> str:
    return "() => {\n" + _JS + f"\nreturn {name}();\n}}"


#: the texts of the page below WCAG AA: [what, ratio, needed] (the worst backdrop of each)
LOW_TEXT = _call("lowText")
#: the focused element's focus indicator: [what, outline width in px, its contrast with what is
#: around it] (width 0 for no outline, or the browser's own thin ring)
FOCUS_RING = _call("focusRing")


def low_contrast(page: Any) -> list[list[Any]]:
    """The page's texts that fall short of WCAG AA, each as [what, ratio, needed]."""
    found: list[list[Any]] = page.evaluate(LOW_TEXT)
    return found


def focus_rings(page: Any, presses: int) -> list[list[Any]]:
    """Tab ``presses`` times from the top of the page: each focused control's indicator as
    [what, outline width, contrast with its surroundings]."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); }")
    rings: list[list[Any]] = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        ring = page.evaluate(FOCUS_RING)
        if ring is not None:
            rings.append(ring)
    return rings
