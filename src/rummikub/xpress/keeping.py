"""Which dice the playouts' player keeps at a throw: a small logistic model of the ``expert``'s
own throws (expert iteration: the search's choices, fitted, make the cheap policy that the
search's playouts then follow).

Each unplaced die is kept or thrown again on its own. Its score is a weighted sum of what the
expert's choices were found to follow (:class:`KeepModel`):

- how far its face counts above or below the mean of its die's six faces (a die left over at
  the end of a round counts its face: a low face loses little), and the face's value itself;
- whether it shows a joker;
- its **reach**: the share of its die's six faces that one die alone could add to a set on the
  table (joined to it, or splitting it in two; :func:`table_reach`) — a die whose faces mostly
  fit the table is worth throwing again;
- its partners: the other dice of the hand that could share a set with its face
  (:func:`has_partner`) — the beginning of a set is worth keeping;
- whether the other player holds two dice or fewer (he may go out next), and how many throws
  in a row have placed nothing (a blocked round is near).

A die whose score is above 0 is kept; when every die would be kept, the one counting the most is
thrown (a throw takes at least one die). As a bot (placing as ``greedy``), the policy won 66.2%
of 2,000 paired six-round matches against ``greedy``, where keeping the low dice alone
(:func:`~rummikub.xpress.ranking.low_dice`) won 60.8% of the same deals; the weights were
fitted (``bench/xpress_keep_fit.py``) to 25,242 dice of 200 matches of the expert against
``greedy`` (docs/xpress.md).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rummikub.core.by_object import ByObject

from .dice import DieFace, Face, Layout, face_value, full_faces
from .solver import _key, _solve

__all__ = [
    "FEATURES",
    "KEEP_MODEL",
    "KeepModel",
    "die_features",
    "die_means",
    "has_partner",
    "kept_dice",
    "table_reach",
    "thrown_dice",
]

#: a set on the table as the playouts hold it: its faces
MeldFaces = tuple[Face, ...]


#: what a die's score weighs, in :attr:`KeepModel.weights`' order: how far its face counts
#: above the mean of its die's faces (negative below), 1 for a joker, its reach (the share
#: of its die's faces that fit the table alone), its partners in the hand, 1 when the other
#: player holds two dice or fewer, the throws in a row that placed nothing (both players), the
#: face's value (a joker: the rules' joker value)
FEATURES = ("above_mean", "joker", "reach", "partners", "other_near_out", "idle", "value")


@dataclass(frozen=True, slots=True)
class KeepModel:
    """A die's score is ``bias`` plus the sum of ``weights`` × its :data:`FEATURES`; a die is
    kept when its score is above 0."""

    bias: float
    weights: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.weights) != len(FEATURES):
            raise ValueError(
                f"a keep model weighs {len(FEATURES)} features ({', '.join(FEATURES)}), "
                f"got {len(self.weights)} weights"
            )

    def score(self, features: Sequence[float]) -> float:
        return self.bias + sum(w * x for w, x in zip(self.weights, features, strict=True))


#: fitted by ``bench/xpress_keep_fit.py`` to the expert's throws (module docstring)
KEEP_MODEL = KeepModel(
    bias=-0.3619,
    weights=(-0.1644, 1.6437, -1.4431, 0.5628, -0.0795, 0.0471, -0.0857),
)


@lru_cache(maxsize=1)
def _all_faces() -> tuple[Face, ...]:
    return tuple(sorted(full_faces(), key=str))


@lru_cache(maxsize=8192)
def _meld_reach(meld: MeldFaces) -> frozenset[Face]:
    """The faces one die could add to the set ``meld`` alone (joined to it, or splitting it)."""
    key = _key(meld)
    out = set()
    for f in _all_faces():
        found = _solve(key, (f,))
        if found is not None and found[0] > len(meld):
            out.add(f)
    return frozenset(out)


@lru_cache(maxsize=4096)
def table_reach(melds: tuple[MeldFaces, ...]) -> frozenset[Face]:
    """The faces one die could add to one of the sets ``melds`` (rearranging only that set:
    a quick, slightly narrow view of what the table takes)."""
    out: frozenset[Face] = frozenset()
    for m in melds:
        out |= _meld_reach(m)
    return out


#: :func:`die_means` by the layout object, then the joker's value
_MEANS: ByObject[Layout, dict[int, tuple[float, ...]]] = ByObject(32)


def die_means(layout: Layout, joker_value: int) -> tuple[float, ...]:
    """Per die of ``layout``, the mean value of its six faces."""
    known = _MEANS.get(layout)
    if known is None:
        known = _MEANS.keep(layout, {})
    means = known.get(joker_value)
    if means is None:
        means = known[joker_value] = tuple(
            statistics.fmean(face_value(f, joker_value) for f in layout.faces_of(d))
            for d in range(len(layout))
        )
    return means


def has_partner(face: Face, others: Sequence[Face]) -> bool:
    """Whether ``face`` could share a set with one of ``others`` (a joker always could): same
    colour within two numbers, or same number in another colour."""
    if face.is_joker:
        return True
    for o in others:
        if o.is_joker:
            return True
        if o.colour == face.colour and 0 < abs(o.number - face.number) <= 2:
            return True
        if o.number == face.number and o.colour != face.colour:
            return True
    return False


def _partners(face: Face, others: Iterable[Face]) -> int:
    return sum(has_partner(face, [o]) for o in others)


def die_features(
    hand: Sequence[DieFace], other_size: int, melds: tuple[MeldFaces, ...], idle: Sequence[int],
    layout: Layout, joker_value: int,
) -> list[tuple[float, ...]]:  # fmt: skip
    """The :data:`FEATURES` of each die of ``hand`` (in its order), the table being the sets
    ``melds`` and the other player holding ``other_size`` dice."""
    reach = table_reach(melds)
    means = die_means(layout, joker_value)
    near_out = 1.0 if other_size <= 2 else 0.0
    idle_sum = float(sum(idle))
    rows: list[tuple[float, ...]] = []
    for i, d in enumerate(hand):
        value = face_value(d.face, joker_value)
        share = sum(f in reach for f in layout.faces_of(d.die)) / 6
        partners = _partners(d.face, (o.face for j, o in enumerate(hand) if j != i))
        rows.append((value - means[d.die], float(d.face.is_joker), share, float(partners),
                     near_out, idle_sum, float(value)))  # fmt: skip
    return rows


def kept_dice(
    hand: Sequence[DieFace], other_size: int, melds: tuple[MeldFaces, ...], idle: Sequence[int],
    layout: Layout, joker_value: int, model: KeepModel = KEEP_MODEL,
) -> frozenset[int]:  # fmt: skip
    """The dice of ``hand`` that ``model`` keeps (their score is above 0), the table being the
    sets ``melds`` and the other player holding ``other_size`` dice."""
    rows = die_features(hand, other_size, melds, idle, layout, joker_value)
    return frozenset(d.die for d, row in zip(hand, rows, strict=True) if model.score(row) > 0)


def thrown_dice(
    hand: Sequence[DieFace], other_size: int, melds: tuple[MeldFaces, ...], idle: Sequence[int],
    layout: Layout, joker_value: int, model: KeepModel = KEEP_MODEL,
) -> set[int]:  # fmt: skip
    """The dice the playouts' player throws again: all but :func:`kept_dice`; when every die
    would be kept, the one counting the most."""
    kept = kept_dice(hand, other_size, melds, idle, layout, joker_value, model)
    thrown = {d.die for d in hand if d.die not in kept}
    if not thrown and hand:
        thrown = {max(hand, key=lambda d: face_value(d.face, joker_value)).die}
    return thrown
