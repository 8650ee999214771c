"""The lazy sequence the environments offer their candidates in: its length at once, each item
made once and only when read, equal and pickled as the list of its items."""

from __future__ import annotations

import pickle

import pytest

from rummikub.envs.lazy import Lazy


def counting(n: int) -> tuple[Lazy[int], list[int]]:
    made: list[int] = []

    def maker(i: int) -> object:
        def make() -> int:
            made.append(i)
            return i * i

        return make

    return Lazy(maker(i) for i in range(n)), made  # type: ignore[misc]


def test_the_length_is_known_before_any_item_is_made() -> None:
    seq, made = counting(5)
    assert len(seq) == 5 and made == []
    assert seq[3] == 9 and seq[3] == 9 and seq[-1] == 16
    assert made == [3, 4]  # each once, only those read
    with pytest.raises(IndexError):
        seq[5]


def test_a_slice_and_a_mapping_are_lazy_too() -> None:
    seq, made = counting(6)
    part = seq[1:4]
    names = part.map(str)
    assert len(part) == 3 and len(names) == 3 and made == []
    assert names[2] == "9" and made == [3]
    assert list(part) == [1, 4, 9] and made == [3, 1, 2]


def test_equal_to_a_list_of_its_items_and_pickled_as_one() -> None:
    seq, _ = counting(4)
    assert seq == [0, 1, 4, 9] and seq == (0, 1, 4, 9) and seq != [0, 1, 4]
    assert seq != "abcd"
    back = pickle.loads(pickle.dumps(seq))
    assert type(back) is list and back == [0, 1, 4, 9]
