"""Melds (sets): groups and runs, with any number of jokers.

A :class:`Meld` is a meld *as written*: its tiles in order and, for each joker, the role it was
given (``J=R6`` in a run, ``J=7`` in a group) or none. A meld may be invalid; :func:`read_meld`
judges it under a rules object and returns its :class:`Reading` (group or run, which number each
joker stands for, its value) or raises :class:`IllegalPlayError` saying why it is not a meld.

A meld is judged only by whether *some* assignment of its jokers makes it a valid group or run.
When several readings exist, the one the written order supports is taken (``R5 R6 J`` is
R5 R6 R7); among those, explicit roles decide, then the highest value, then run before group.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from .by_object import ByObject
from .errors import Code, IllegalPlayError, NotationError, Param
from .per_rules import PerRules
from .rules import Rules
from .tiles import COLOUR_LETTERS, JOKER, Tile, parse_tile, sort_key

__all__ = [
    "Meld",
    "Reading",
    "Role",
    "is_valid_meld",
    "known_reading",
    "meld_value",
    "read_meld",
    "replaced_joker_kept",
]

#: A joker's role: the tile it stands for in a run, or the number it stands for in a group.
Role = Tile | int
Kind = Literal["run", "group"]
_STANDARD = Rules()


def _format_role(tile: Tile, role: Role | None) -> str:
    if role is None or not tile.is_joker:
        return str(tile)
    return f"J={role}"


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld as written: tiles in order, and a role (or ``None``) for each position.

    ``roles`` is either empty (no roles given) or as long as ``tiles``; only jokers may carry a
    role. Equality is of the written form; use :meth:`key` to compare tile contents.
    """

    tiles: tuple[Tile, ...]
    roles: tuple[Role | None, ...] = ()

    def __post_init__(self) -> None:
        if self.roles:
            if len(self.roles) != len(self.tiles):
                raise NotationError("a meld needs one role entry per tile")
            for tile, role in zip(self.tiles, self.roles, strict=True):
                if role is not None and not tile.is_joker:
                    raise NotationError(
                        f"only a joker can carry a role, not {tile}", token=f"{tile}={role}"
                    )
            if all(r is None for r in self.roles):
                object.__setattr__(self, "roles", ())

    @classmethod
    def of(cls, tiles: Iterable[Tile | str]) -> Meld:
        """A meld from tiles (or tile strings such as ``"J=R6"``)."""
        toks = [t if isinstance(t, Tile) else str(t) for t in tiles]
        return cls.parse(" ".join(str(t) for t in toks))

    @classmethod
    def parse(cls, text: str, *, offset: int = 0) -> Meld:
        """Parse ``R4 R5 J=R6`` / ``K7 B7 J=7``. ``offset`` numbers tokens in error messages."""
        tokens = text.split()
        if not tokens:
            raise NotationError("empty meld", position=offset)
        tiles: list[Tile] = []
        roles: list[Role | None] = []
        for i, tok in enumerate(tokens):
            tile, role = parse_meld_token(tok, position=offset + i)
            tiles.append(tile)
            roles.append(role)
        return cls(tuple(tiles), tuple(roles))

    def role(self, i: int) -> Role | None:
        return self.roles[i] if self.roles else None

    @property
    def jokers(self) -> int:
        return sum(1 for t in self.tiles if t.is_joker)

    def key(self) -> tuple[Tile, ...]:
        """The tile multiset as a sorted tuple (ignores order and roles)."""
        return tuple(sorted(self.tiles, key=sort_key))

    def __len__(self) -> int:
        return len(self.tiles)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.tiles)

    def __str__(self) -> str:
        return " ".join(_format_role(t, self.role(i)) for i, t in enumerate(self.tiles))

    def to_json(self) -> list[str]:
        if not self.roles:
            return [str(t) for t in self.tiles]
        return [_format_role(t, r) for t, r in zip(self.tiles, self.roles, strict=True)]

    @classmethod
    def from_json(cls, data: object, *, where: str = "meld") -> Meld:
        if not isinstance(data, list) or not all(isinstance(x, str) for x in data):
            raise NotationError(f"{where} must be a list of tile strings")
        return cls.parse(" ".join(data))

    def canonical(self, rules: Rules = _STANDARD) -> Meld:
        """The canonical written form (raises :class:`IllegalPlayError` if invalid)."""
        return read_meld(self, rules).meld


def parse_meld_token(tok: str, *, position: int | None = None) -> tuple[Tile, Role | None]:
    """A tile, or a joker with a role: ``J=R6`` (run) / ``J=7`` (group)."""
    if "=" not in tok:
        return parse_tile(tok, position=position), None
    head, _, role_text = tok.partition("=")
    if head.strip().upper() != "J":
        raise NotationError(
            "only a joker can carry a role (write J=R6 or J=7)", token=tok, position=position
        )
    role_text = role_text.strip()
    if role_text.isdigit() and role_text.isascii():
        if role_text.startswith("0"):
            raise NotationError(
                "joker role number must not start with 0", token=tok, position=position
            )
        return JOKER, int(role_text)
    try:
        role = parse_tile(role_text)
    except NotationError:
        raise NotationError(
            "joker role must be a tile (J=R6) or a number (J=7)", token=tok, position=position
        ) from None
    if role.is_joker:
        raise NotationError("a joker cannot stand for a joker", token=tok, position=position)
    return JOKER, role


@dataclass(frozen=True, slots=True)
class Reading:
    """How a valid meld is read: a run of ``colour`` from ``number`` up, or a group of
    ``number``; ``tiles`` in canonical order (runs ascending; groups by colour, jokers last)."""

    kind: Kind
    colour: int  # run colour; -1 for a group
    number: int  # first number of a run; the number of a group
    tiles: tuple[Tile, ...]
    ambiguous: bool = False  # whether the bare canonical form has another reading

    @property
    def value(self) -> int:
        n = len(self.tiles)
        if self.kind == "group":
            return self.number * n
        return n * self.number + n * (n - 1) // 2

    def face(self, i: int) -> int:
        """The number position ``i`` stands for."""
        return self.number if self.kind == "group" else self.number + i

    def roles(self) -> list[Role | None]:
        """What each position stands for: ``None`` for a real tile, a joker's role (the tile
        in a run, the number in a group) for a joker; in canonical order."""
        return [self._role(i) if t.is_joker else None for i, t in enumerate(self.tiles)]

    def _role(self, i: int) -> Role:
        return self.number if self.kind == "group" else Tile(self.colour, self.face(i))

    def joker_roles(self) -> list[Role]:
        """The role of each joker, in canonical order."""
        return [r for r in self.roles() if r is not None]

    def labels(self) -> list[str]:
        """Each tile's notation, every joker with its role (``R5 J=R6``, ``K1 R1 J=1``)."""
        return [_format_role(t, r) for t, r in zip(self.tiles, self.roles(), strict=True)]

    def missing_colours(self, rules: Rules = _STANDARD) -> tuple[int, ...]:
        """For a group: the colours not present among its real tiles."""
        present = {t.colour for t in self.tiles if not t.is_joker}
        return tuple(c for c in range(rules.colours) if c not in present)

    @property
    def meld(self) -> Meld:
        """The canonical written meld: bare jokers unless the bare form is ambiguous (the same
        object for the same reading while it is remembered: tables the solver lays out then
        share their melds, which every cache by object recognises)."""
        made = _CANONICAL.get(self)
        return made if made is not None else _CANONICAL.keep(self, self._canonical())

    def _canonical(self) -> Meld:
        if not self.ambiguous or not any(t.is_joker for t in self.tiles):
            return Meld(self.tiles)
        roles: list[Role | None] = []
        for i, t in enumerate(self.tiles):
            if not t.is_joker:
                roles.append(None)
            elif self.kind == "group":
                roles.append(self.number)
            else:
                roles.append(Tile(self.colour, self.face(i)))
        return Meld(self.tiles, tuple(roles))

    def __str__(self) -> str:
        return str(self.meld)


# --------------------------------------------------------------------------- reading melds
def _max_group(rules: Rules) -> int:
    return min(rules.colours, 4) if rules.colours >= 3 else 0


def _group_readings(
    tiles: Sequence[Tile], roles: Sequence[Role | None], rules: Rules
) -> list[Reading]:
    real = [t for t in tiles if not t.is_joker]
    n = len(tiles)
    if not real or not 3 <= n <= max(_max_group(rules), 0) or rules.colours < n:
        return []
    if n > rules.colours or n > 4:
        return []
    number = real[0].number
    if any(t.number != number for t in real):
        return []
    if len({t.colour for t in real}) != len(real):
        return []
    for r in roles:
        if r is not None and (not isinstance(r, int) or r != number):
            return []
    ordered = tuple(sorted(real, key=sort_key)) + (JOKER,) * (n - len(real))
    return [Reading("group", -1, number, ordered)]


def _run_readings(
    tiles: Sequence[Tile], roles: Sequence[Role | None], rules: Rules, ordered: bool
) -> list[Reading]:
    real = [t for t in tiles if not t.is_joker]
    n = len(tiles)
    if not real or not 3 <= n <= rules.numbers:
        return []
    colour = real[0].colour
    if any(t.colour != colour for t in real):
        return []
    nums = [t.number for t in real]
    if len(set(nums)) != len(nums):
        return []
    role_nums: list[int] = []
    for r in roles:
        if r is None:
            continue
        if isinstance(r, int) or r.colour != colour:
            return []
        role_nums.append(r.number)
    fixed = nums + role_nums
    if len(set(fixed)) != len(fixed):
        return []
    lo, hi = min(fixed), max(fixed)
    out: list[Reading] = []
    for start in range(max(1, hi - n + 1), min(lo, rules.numbers - n + 1) + 1):
        if ordered:
            ok = True
            for i, t in enumerate(tiles):
                want = start + i
                if (not t.is_joker and t.number != want) or (
                    roles and isinstance(roles[i], Tile) and roles[i] != Tile(colour, want)
                ):
                    ok = False
                    break
            if not ok:
                continue
        present = set(nums)
        seq = tuple(Tile(colour, k) if k in present else JOKER for k in range(start, start + n))
        out.append(Reading("run", colour, start, seq))
    return out


def _all_readings(
    tiles: Sequence[Tile], roles: Sequence[Role | None], rules: Rules
) -> tuple[list[Reading], list[Reading]]:
    """(readings consistent with the written order, readings of the tile multiset)."""
    groups = _group_readings(tiles, roles, rules)
    ordered_runs = _run_readings(tiles, roles, rules, ordered=True)
    any_runs = _run_readings(tiles, roles, rules, ordered=False)
    return ordered_runs + groups, any_runs + groups


def _choose(readings: list[Reading]) -> Reading:
    return max(readings, key=lambda r: (r.value, r.kind == "run"))


def known_reading(meld: Meld, rules: Rules) -> Reading | None:
    """The reading :func:`read_meld` last gave this meld object under these rules, if it is
    still remembered (nothing is read)."""
    seen = _BY_OBJECT.get(id(meld))
    if seen is not None and seen[0] is meld and seen[1] is rules:
        return seen[2]
    return None


def read_meld(meld: Meld | Sequence[Tile], rules: Rules = _STANDARD) -> Reading:
    """Judge a meld; return its reading or raise :class:`IllegalPlayError` saying why not."""
    if not isinstance(meld, Meld):
        meld = Meld(tuple(meld))
    seen = known_reading(meld, rules)
    if seen is not None:
        return seen
    known = _READINGS.of(rules)
    got = known.get(meld)
    if got is None:
        got = _read(meld, rules)
        _READINGS.keep(known, meld, got)
        canonical = got._canonical()
        # a meld written canonically is the canonical object (:attr:`Reading.meld`)
        _CANONICAL.keep(got, meld if canonical == meld else canonical)
    if len(_BY_OBJECT) >= _READINGS_PER_RULES:
        _BY_OBJECT.clear()
    _BY_OBJECT[id(meld)] = (meld, rules, got)
    return got


#: the readings of valid melds, per rule set
_READINGS_PER_RULES = 65536
_READINGS: PerRules[Meld, Reading] = PerRules(_READINGS_PER_RULES)
#: the same readings by the meld object's identity first: a game's melds are mostly the same
#: objects turn after turn, and hashing a meld hashes each of its tiles (each entry holds its
#: meld, so an id is never reused while its entry lives)
_BY_OBJECT: dict[int, tuple[Meld, Rules, Reading]] = {}
#: the canonical meld of each reading (:attr:`Reading.meld`) by the reading object
_CANONICAL: ByObject[Reading, Meld] = ByObject(_READINGS_PER_RULES)


def _read(meld: Meld, rules: Rules) -> Reading:
    tiles = meld.tiles
    roles: tuple[Role | None, ...] = meld.roles or (None,) * len(tiles)
    for t in tiles:
        if not rules.is_valid_tile(t):
            text, params = rules.not_a_tile(t)
            raise _invalid(meld, text, Code.MELD_BAD_TILE, **params)
    ordered, anyway = _all_readings(tiles, roles, rules)
    candidates = ordered or anyway
    if not candidates:
        raise _why_invalid(meld, tiles, roles, rules)
    best = _choose(candidates)
    # Is the bare canonical form ambiguous? (more than one order-consistent reading)
    bare_ordered, _ = _all_readings(best.tiles, (None,) * len(best.tiles), rules)
    ambiguous = len(bare_ordered) > 1
    return Reading(best.kind, best.colour, best.number, best.tiles, ambiguous)


def _invalid(meld: Meld, message: str, why: Code, **params: Param) -> IllegalPlayError:
    """The error of an invalid meld: code ``invalid-meld``, the meld as written and ``why``
    (a ``meld-*`` code) with its params."""
    return IllegalPlayError(
        message, code=Code.INVALID_MELD, params={"meld": str(meld), "why": why, **params}
    )


def _why_invalid(
    meld: Meld, tiles: Sequence[Tile], roles: Sequence[Role | None], rules: Rules
) -> IllegalPlayError:
    n = len(tiles)
    real = [t for t in tiles if not t.is_joker]
    if n < 3:
        return _invalid(
            meld, f"a meld needs at least 3 tiles, this has {n}", Code.MELD_TOO_SHORT, count=n
        )
    if not real:
        return _invalid(meld, "a meld cannot be made of jokers only", Code.MELD_ONLY_JOKERS)
    numbers = {t.number for t in real}
    colours = {t.colour for t in real}
    if any(r is not None for r in roles):
        plain_ordered, plain_any = _all_readings(tiles, (None,) * n, rules)
        if plain_ordered or plain_any:
            given = ", ".join(f"J={r}" for r in roles if r is not None)
            return _invalid(
                meld,
                f"the joker role {given} does not fit this meld",
                Code.MELD_JOKER_ROLE,
                roles=given,
            )
    if len(numbers) == 1:
        counts = Counter(t.colour for t in real)
        dup = [c for c, k in counts.items() if k > 1]
        if dup:
            tile = f"{COLOUR_LETTERS[dup[0]]}{real[0].number}"
            return _invalid(
                meld,
                f"a group needs different colours, but {tile} appears twice",
                Code.MELD_GROUP_REPEATS,
                tile=tile,
            )
        limit = _max_group(rules)
        if n > limit:
            return _invalid(
                meld,
                f"a group has at most {limit} tiles, this has {n}",
                Code.MELD_GROUP_TOO_BIG,
                limit=limit,
                count=n,
            )
    if len(colours) == 1:
        nums = sorted(t.number for t in real)
        dups = {k for k in nums if nums.count(k) > 1}
        letter = COLOUR_LETTERS[real[0].colour]
        if dups:
            tile = f"{letter}{min(dups)}"
            return _invalid(
                meld, f"a run cannot hold {tile} twice", Code.MELD_RUN_REPEATS, tile=tile
            )
        if n > rules.numbers:
            return _invalid(
                meld,
                f"a run has at most {rules.numbers} tiles, this has {n}",
                Code.MELD_RUN_TOO_LONG,
                limit=rules.numbers,
                count=n,
            )
        span = nums[-1] - nums[0] + 1
        jokers = n - len(real)
        first, last = f"{letter}{nums[0]}", f"{letter}{nums[-1]}"
        if span > n:
            gaps = span - len(real)
            return _invalid(
                meld,
                f"the run {first}..{last} has {gaps} gaps to fill and {jokers} jokers to fill them",
                Code.MELD_RUN_GAPS,
                first=first,
                last=last,
                gaps=gaps,
                jokers=jokers,
            )
        return _invalid(
            meld,
            f"a run of {n} tiles with {first}..{last} does not fit 1..{rules.numbers}",
            Code.MELD_RUN_OFF_END,
            count=n,
            numbers=rules.numbers,
        )
    if len(numbers) > 1 and len(colours) > 1:
        return _invalid(
            meld, "neither a group (numbers differ) nor a run (colours differ)", Code.MELD_MIXED
        )
    return _invalid(meld, "not a valid group or run", Code.MELD_INVALID)


def is_valid_meld(meld: Meld | Sequence[Tile], rules: Rules = _STANDARD) -> bool:
    try:
        read_meld(meld, rules)
    except IllegalPlayError:
        return False
    return True


def meld_value(meld: Meld | Sequence[Tile], rules: Rules = _STANDARD) -> int:
    """The value of a valid meld, jokers at the value they stand for."""
    return read_meld(meld, rules).value


# ------------------------------------------------------------------ freed jokers
def joker_run_patterns(
    melds: Iterable[Meld], rules: Rules = _STANDARD
) -> tuple[tuple[Counter[Tile], tuple[Tile, ...], int, Counter[Tile]], ...]:
    """For every run of ``melds`` holding a joker: (its real tiles, the tiles its jokers stand
    for, its joker count, all its tiles). Groups are left out: a joker in a group stands for
    any missing colour, so adding a colour to the group is adding to it, not replacing it."""
    out = []
    for meld in melds:
        if not any(t.is_joker for t in meld.tiles):
            continue
        reading = read_meld(meld, rules)
        if reading.kind != "run":
            continue
        real = Counter(t for t in reading.tiles if not t.is_joker)
        roles = tuple(r for r in reading.joker_roles() if isinstance(r, Tile))
        out.append((real, roles, len(roles), Counter(reading.tiles)))
    return tuple(out)


def stays_with_its_set(
    pattern: tuple[Counter[Tile], tuple[Tile, ...], int, Counter[Tile]], meld: Counter[Tile]
) -> bool:
    """Whether ``meld`` (a tile multiset) is the old joker run ``pattern`` with a joker
    replaced by the tile it stood for and the joker still in it: it holds every real tile of
    the old run, ``k`` >= 1 of the tiles its jokers stood for, and more than the ``jokers - k``
    jokers that were not replaced."""
    real, roles, jokers, _ = pattern
    if real - meld:
        return False
    replaced = sum(1 for r in roles if meld[r] > 0)
    return replaced > 0 and meld[JOKER] > jokers - replaced


def replaced_joker_kept(
    old: Sequence[Meld], new: Sequence[Meld], rules: Rules = _STANDARD
) -> tuple[Meld, Meld] | None:
    """The rule "a joker taken from a set must become part of another set in the same turn",
    judged on the end state: ``(old meld, new meld)`` if a joker of an old run was replaced by
    the tile it stood for but is still in that run's set, else ``None``.

    The set a joker left is a new meld holding all the real tiles of its old run and the tile
    that replaced the joker; jokers look alike, so that meld may hold no more jokers than the
    old run kept. An old run found intact (all its tiles, jokers included, in one new meld
    without a replacing tile) kept its joker, whatever other melds hold."""
    news = [Counter(m.tiles) for m in new]
    for meld, pattern in zip(
        [m for m in old if any(t.is_joker for t in m.tiles) and read_meld(m, rules).kind == "run"],
        joker_run_patterns(old, rules),
        strict=True,
    ):
        _, roles, _, whole = pattern
        if any(not (whole - c) and not any(c[r] for r in roles) for c in news):
            continue
        for m, c in zip(new, news, strict=True):
            if stays_with_its_set(pattern, c):
                return meld, m
    return None
