"""Small helpers for writing explanations in the book's notation.

Used by the rules' ``teach`` templates; they only format data the step
carries (cells, regions, values) and never look at a board."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from grader.core.geometry import Geometry

SUBSET_NAMES = {1: "single", 2: "pair", 3: "triple", 4: "quad"}

#: Region role of a full house: a single position in a unit whose only empty
#: cell is the target (``rules/singles.py``).
FULL_HOUSE = "full-house"


def join_and(items: Sequence[str], word: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def cells(geo: Geometry, cs: Iterable[int], word: str = "and") -> str:
    return join_and([geo.cell_name(c) for c in cs], word)


def values(geo: Geometry, vs: Iterable[int], word: str = "and") -> str:
    return join_and([geo.symbol(v) for v in vs], word)


def value_set(geo: Geometry, vs: Iterable[int]) -> str:
    return "{" + ", ".join(geo.symbol(v) for v in vs) + "}"


def regions(geo: Geometry, rs: Iterable[int], long: bool = False) -> str:
    name = geo.region_long_name if long else geo.region_name
    return join_and([name(r) for r in rs])


def effects(geo: Geometry, placements: Iterable[tuple[int, int]] = (),
            eliminations: Iterable[tuple[int, int]] = ()) -> str:
    parts = [f"{geo.cell_name(c)} <- {geo.symbol(v)}" for c, v in placements]
    parts += [f"{geo.cell_name(c)} != {geo.symbol(v)}" for c, v in eliminations]
    return ", ".join(parts)


def a_or_an(name: str) -> str:
    """``an X-Wing``, ``a naked pair``, ``an empty rectangle``, ``a unique
    rectangle``: the article a name takes (by its sound: ``XY`` is read
    letter by letter)."""
    first = name[:1]
    if first.isupper() and (len(name) == 1 or not name[1].islower()):
        vowel = first in "AEFHILMNORSX"  # the letter's name starts with a vowel
    else:
        low = name.lower()
        vowel = low[:1] in ("a", "e", "i", "o") or (low[:1] == "u" and not low.startswith("uni"))
    return f"{'an' if vowel else 'a'} {name}"


def subset_name(k: int) -> str:
    return SUBSET_NAMES.get(k, f"set of {k}")


def plural(word: str, k: int) -> str:
    return word if k == 1 else word + "s"


def all_word(k: int) -> str:
    """``both`` for two things, ``all`` for more (``it`` never needs it)."""
    return "both" if k == 2 else "all"


def kind_word(geo: Geometry, region: int, many: bool = False) -> str:
    """``row``/``column``/``block`` (plural with ``many``)."""
    from grader.core.geometry import KIND_NAMES

    w = KIND_NAMES[geo.region_kind[region]]
    return w + "s" if many else w


def fish_path(geo: Geometry, cs: Sequence[int], rows_first: bool = True) -> list[int]:
    """A closed path through every cell of a fish, alternating moves along a
    base line and along a cover line (the book's drawing of X-Wing and
    Swordfish), or ``[]`` when the cells admit none.  Deterministic."""
    cells = sorted(cs)
    if len(cells) < 4 or len(cells) % 2:
        return []
    base_of = geo.cell_row if rows_first else geo.cell_col
    cover_of = geo.cell_col if rows_first else geo.cell_row
    path = [cells[0]]
    used = {cells[0]}

    def rec(along_base: bool) -> bool:
        last = path[-1]
        if len(path) == len(cells):
            # close the cycle with a cover move back to the start
            return not along_base and cover_of[last] == cover_of[path[0]]
        same = base_of if along_base else cover_of
        for c in cells:
            if c not in used and same[c] == same[last]:
                path.append(c)
                used.add(c)
                if rec(not along_base):
                    return True
                path.pop()
                used.discard(c)
        return False

    return path if rec(True) else []
