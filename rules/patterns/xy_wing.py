"""XY-Wing (4.2): a bivalue pivot {x,y} and two bivalue pincers {x,z} and
{y,z} among its peers.  Whichever value the pivot takes, one pincer is z, so
z leaves the cells that see both pincers.

The whole technique in one place: its declaration (:data:`FAMILIES`: place in
the walk, rating, C twin), its finder (:func:`xy_wings`) and its presenter
(:class:`XyWing`, the text, roles and drawing it shares with the XYZ-Wing).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from grader.strategy.expert.hint import Hint, Position
from grader.strategy.expert.wings import _bivalues

from .wings import Wing

#: The family, declared once (pure data: setup.py reads it without importing
#: the package, to write grader/kernel/_families.h; ``se``: the rating of each
#: hint, in tenths, which the C twin reads as ``SE_N_XY``).
FAMILIES = (
    {"name": "XY-Wing", "order": 20, "consulted": True,
     "finder": "grader.rules.patterns.xy_wing:xy_wings", "uses": ["pos"],
     "se": {"XY-Wing": 42},
     "c": {"index": 1, "run": ["xy_wings(P)"], "hints": [["XY-Wing", "N_XY"]]}},
)

RATING = FAMILIES[0]["se"]["XY-Wing"]  # type: ignore[index]


def xy_wings(pos: Position) -> Iterator[Hint]:
    """Pivot {x,y}, pincers {x,z} and {y,z} among its peers: z leaves the
    cells that see both pincers."""
    cands, peer = pos.cands, pos.m.peer
    biv = _bivalues(pos)
    for p in biv:
        pm = cands[p]
        pins = [q for q in biv if peer[p] >> q & 1 and (cands[q] & pm).bit_count() == 1]
        for q1, q2 in combinations(pins, 2):
            z = cands[q1] & cands[q2]
            if z.bit_count() != 1 or z & pm or cands[q1] & pm == cands[q2] & pm:
                continue
            d = z.bit_length()
            elim = pos.elims(peer[q1] & peer[q2], d)
            if elim:
                yield Hint("XY-Wing", RATING, (), elim, (p, q1, q2))


class XyWing(Wing):
    """The XY-Wing's presenter: the wing's (pivot, pincers, five links)."""

    names = ("XY-Wing",)
