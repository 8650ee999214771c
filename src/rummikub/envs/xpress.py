"""Xpress for the environments: its features and its candidate actions.

Features (all ``float32``), for ``K = 53`` kinds of face (4 colours × 13 numbers, the joker
last), seen from the observing player (his values first):

=============  ======  ===============================================================
part           length  what
=============  ======  ===============================================================
hand           K       how many of each face his unplaced dice show
other hand     K       the same for the other player (both hands lie open in Xpress)
table          K       how many of each face lie on the table
hand sizes     2       unplaced dice of each player
phase          4       1 before his throw; dice placed this turn; whether a placement was
                       possible after the throw; whether he may end his turn now
idle           2       each player's throws in a row without placing (3 each: blocked)
scores         2       match totals so far
=============  ======  ===============================================================

Candidates before the throw: throw every unplaced die, then keep one die that could share a set
with another (throwing the rest), then keep such a pair; after the throw: the placement of the
most dice (then points) or the end of the turn, and the other of the two when it is legal too.
"""

from __future__ import annotations

import numpy as np

from rummikub.core.table import Table
from rummikub.xpress import EndTurn, Place, Throw, XpressAction, XpressObservation, XpressRules
from rummikub.xpress.bots import dice_for, has_partner, place_best
from rummikub.xpress.solver import hand_set

from .layout import counts, kinds
from .spec import Features

__all__ = ["XpressSpec"]

COLOURS, NUMBERS = 4, 13


class XpressSpec:
    """Xpress's features and candidates."""

    game = "xpress"

    def __init__(self, limit: int = 24) -> None:
        self.limit = limit

    def feature_size(self, rules: XpressRules, players: int) -> int:
        return 3 * kinds(COLOURS, NUMBERS) + 2 + 4 + 2 + 2

    def features(self, obs: XpressObservation) -> Features:
        me, other = obs.player, 1 - obs.player
        parts = [
            counts((d.face for d in obs.hand), COLOURS, NUMBERS),
            counts((d.face for d in obs.other), COLOURS, NUMBERS),
            counts(obs.table.tiles(), COLOURS, NUMBERS),
            np.array(
                [
                    len(obs.hand),
                    len(obs.other),
                    float(obs.phase == "throw"),
                    obs.placed,
                    float(obs.can_place),
                    float(obs.may_end_turn),
                    obs.idle[me],
                    obs.idle[other],
                    obs.scores[me] if obs.scores else 0,
                    obs.scores[other] if obs.scores else 0,
                ],
                dtype=np.float32,
            ),
        ]
        return np.concatenate(parts)

    def candidates(self, obs: XpressObservation) -> list[XpressAction]:
        if obs.phase == "throw":
            return self._throws(obs)
        out: list[XpressAction] = [place_best(obs)]
        if obs.may_end_turn and not isinstance(out[0], EndTurn):
            out.append(EndTurn())
        faces = [d.face for d in obs.hand]
        held = hand_set(faces)
        if held is not None:
            own = Place(dice_for(obs.hand, held.tiles), Table((*obs.table.melds, held)))
            if own not in out:
                out.append(own)
        return out[: self.limit]

    def _throws(self, obs: XpressObservation) -> list[XpressAction]:
        hand = obs.hand
        every = tuple(d.die for d in hand)
        out: list[XpressAction] = [Throw(every)]
        if len(hand) <= 1:
            return out
        table = obs.table.tiles()
        keepable = [
            d for d in hand if has_partner(d.face, [o.face for o in hand if o.die != d.die] + table)
        ]
        keeps = [{d.die} for d in keepable]
        keeps += [
            {a.die, b.die}
            for i, a in enumerate(keepable)
            for b in keepable[i + 1 :]
            if has_partner(a.face, [b.face])
        ]
        for keep in keeps:
            thrown = tuple(d for d in every if d not in keep)
            if thrown and len(out) < self.limit:
                out.append(Throw(thrown))
        return out
