"""The canonical form for --dedupe: exact minlex, invariant under every symmetry."""

from __future__ import annotations

import itertools
import random

import pytest
from bulk_helpers import PUZZLES, jsonl, run_grade

from grader.core.geometry import geometry
from grader.formats import parse_grid_token
from grader.formats.canonical import BudgetExceeded, canonical_form, canonical_key, minlex
from grader.kernel import solve


def relabel(vals: list[int]) -> tuple[int, ...]:
    m: dict[int, int] = {}
    return tuple(0 if v == 0 else m.setdefault(v, len(m) + 1) for v in vals)


def line_orders(size: int, groups: int):  # type: ignore[no-untyped-def]
    """Every order of lines that keeps groups (bands or stacks) of ``size`` together."""
    for go in itertools.permutations(range(groups)):
        for inner in itertools.product(*[itertools.permutations(range(g * size, g * size + size))
                                         for g in go]):
            yield [x for t in inner for x in t]


def brute_minlex(vals: list[int], a: int, b: int) -> tuple[int, ...]:
    """The definition, by enumerating the whole symmetry group (small grids only)."""
    n = a * b
    if a > b:
        vals = [vals[c * n + r] for r in range(n) for c in range(n)]
        a, b = b, a
    mats = [vals]
    if a == b:
        mats.append([vals[c * n + r] for r in range(n) for c in range(n)])
    best = None
    for m in mats:
        for rows in line_orders(a, n // a):
            for cols in line_orders(b, n // b):
                s = relabel([m[r * n + c] for r in rows for c in cols])
                if best is None or s < best:
                    best = s
    assert best is not None
    return best


def transform(vals: list[int], a: int, b: int, rng: random.Random) -> list[int]:
    """A random element of the symmetry group applied to a grid."""
    n = a * b
    perm = list(range(1, n + 1))
    rng.shuffle(perm)
    m = [[([0] + perm)[v] for v in vals[r * n:(r + 1) * n]] for r in range(n)]
    rows = rng.choice(list(itertools.islice(line_orders(a, n // a), 200)))
    cols = rng.choice(list(itertools.islice(line_orders(b, n // b), 200)))
    m = [[m[r][c] for c in cols] for r in rows]
    if a == b and rng.random() < 0.5:
        m = [[m[c][r] for c in range(n)] for r in range(n)]
    return [v for row in m for v in row]


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 2)])
def test_minlex_is_the_minimum_over_the_whole_group(box: tuple[int, int]) -> None:
    rng = random.Random(7)
    a, b = box
    n = a * b
    sol = list(solve(geometry(a, b), [0] * (n * n), 1).solutions[0])
    for _ in range(25):
        vals = list(sol)
        for i in rng.sample(range(n * n), rng.randint(0, n * n)):
            vals[i] = 0
        assert minlex(vals, a, b) == brute_minlex(vals, a, b)


def test_9x9_invariant_under_random_symmetries() -> None:
    rng = random.Random(3)
    lines = [ln.split()[0] for ln in (PUZZLES / "se-medium-500.txt").read_text().splitlines()]
    for text in lines[:40]:
        g = parse_grid_token(text)
        c = canonical_form(g)
        assert not c.startswith("!") and len(c) == 81
        assert c == canonical_key(c)  # the form is its own canonical form
        for _ in range(3):
            t = transform(list(g.values), 3, 3, rng)
            assert canonical_form(parse_grid_token("".join(map(str, t)))) == c


def test_different_grids_have_different_forms() -> None:
    lines = [ln.split()[0] for ln in (PUZZLES / "se-easy-500.txt").read_text().splitlines()]
    forms = {canonical_key(t) for t in lines[:150]}
    assert len(forms) == 150
    # a grid with one given less is another class (it has fewer givens)
    g = lines[0]
    i = next(k for k, ch in enumerate(g) if ch != "0")
    assert canonical_key(g) != canonical_key(g[:i] + "." + g[i + 1:])
    assert canonical_key(g).count(".") + 1 == canonical_key(g[:i] + "." + g[i + 1:]).count(".")


def test_other_sizes_and_the_budget() -> None:
    g16 = "1" + "." * 255
    assert canonical_key(g16).startswith("!")  # too symmetric: exact repeats only
    with pytest.raises(BudgetExceeded):
        minlex([0] * 256, 4, 4, budget=1000)
    # a 6x6 grid and its transpose (a 3x2-block grid) are the same class
    six = "1.....2.....3.....4.....5.....6....."
    t = "".join(six[c * 6 + r] for r in range(6) for c in range(6))
    assert canonical_key(six) == canonical_key(t, box=(3, 2))


def test_dedupe_on_the_command_line(tmp_path) -> None:
    rng = random.Random(11)
    lines = [ln.split()[0] for ln in (PUZZLES / "se-easy-500.txt").read_text().splitlines()]
    base = lines[:6]
    copies = ["".join(map(str, transform([int(c) for c in t], 3, 3, rng))) for t in base[:3]]
    src = tmp_path / "dups.txt"
    src.write_text("\n".join(base + copies + [base[4]]) + "\n")
    p = run_grade(src, output_format="jsonl", jobs=1, dedupe=True, summary=True)
    rows = jsonl(p.stdout)
    assert [r["index"] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert all(r["canonical"] == canonical_key(r["puzzle"]) for r in rows)
    assert "4 duplicates dropped" in p.stderr


def test_dedupe_survives_resume(tmp_path) -> None:
    rng = random.Random(5)
    lines = [ln.split()[0] for ln in (PUZZLES / "se-easy-500.txt").read_text().splitlines()]
    base = lines[:8]
    copies = ["".join(map(str, transform([int(c) for c in t], 3, 3, rng))) for t in base[:4]]
    src = tmp_path / "dups.txt"
    src.write_text("\n".join(base + copies) + "\n")
    clean = tmp_path / "clean.jsonl"
    run_grade(src, output=clean, jobs=1, dedupe=True)
    assert [r["index"] for r in jsonl(clean.read_text())] == list(range(1, 9))
    # a run stopped after 5 results: the classes of grids 1-5 must still be known
    out = tmp_path / "r.jsonl"
    out.write_text("".join(clean.read_text().splitlines(keepends=True)[:5]))
    p = run_grade(src, output=out, jobs=2, resume=True, dedupe=True)
    assert p.returncode == 0, p.stderr
    assert [r["index"] for r in jsonl(out.read_text())] == list(range(1, 9))
    assert "4 duplicates dropped" in p.stdout
