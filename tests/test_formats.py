"""Input formats: one grid per line (with ids, comments, ratings around it),
"N T", multi-line blocks with box drawing, CSV, JSON Lines, standard input,
a bare grid argument, every size from 4x4 to 25x25, and auto-detection on
excerpts of every collection in the project's puzzle survey
(tests/data/formats/, first lines of each file)."""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path

import pytest
from conftest import DATA, book_figures
from typer.testing import CliRunner

from grader.cli.main import build_app
from grader.core.geometry import geometry
from grader.formats import MalformedGrid, detect_format, iter_source, iter_text, parse_grid_token

FIG = book_figures()["fig2.1"]
P = FIG["puzzle"]            # '.' for empty
P0 = P.replace(".", "0")     # '0' for empty
runner = CliRunner()
app = build_app()


def records(text: str, fmt: str = "auto", box=None, column=None):
    return list(iter_text(io.StringIO(text), "<test>", fmt, box, column))


def grade_jsonl(*args: str, input: str | None = None) -> tuple[int, list[dict], str]:
    res = runner.invoke(app, ["grade", *args, "-f", "jsonl"], input=input)
    lines = [json.loads(x) for x in res.stdout.splitlines() if x.strip()]
    return res.exit_code, lines, res.stderr


# -- one grid per line -------------------------------------------------------------
def test_line_format_with_ids_comments_and_ratings() -> None:
    text = (
        "# a collection\n"
        "// another comment\n"
        "\n"
        f"{P}\n"
        f"abc123 {P0} 2.5\n"
        f"{P}  # the book's Figure 2.1\n"
        f"{P.replace('.', '-')}\t3.7\n"
        f"{P.replace('.', '*')},extra,columns\n"
        f"{P.replace('.', '_')}\n"
    )
    recs = records(text)
    assert [r.line for r in recs] == [4, 5, 6, 7, 8, 9]
    assert [r.index for r in recs] == [1, 2, 3, 4, 5, 6]
    assert all(r.format == "line" and r.error is None for r in recs)
    assert {r.grid.normalised() for r in recs} == {P}
    assert recs[1].extra == {"rest": f"abc123 {P0} 2.5"}


def test_line_format_title_lines_are_malformed_records_not_skipped() -> None:
    """Issue 11: every line that is neither blank nor a comment gives one record."""
    recs = records(f"My puzzles\nfrom the newspaper\n{P}\n")
    assert [(r.line, r.error) for r in recs] == [(1, "no grid on this line"),
                                                 (2, "no grid on this line"), (3, None)]
    assert recs[0].text == "My puzzles" and recs[2].grid.normalised() == P


def test_a_header_naming_the_grid_column_is_a_header() -> None:
    recs = records(f"line\tpuzzle\trating\n1\t{P}\t2.5\n")
    assert [(r.line, r.error) for r in recs] == [(2, None)]


def test_a_line_without_a_grid_after_the_first_grid_is_reported() -> None:
    recs = records(f"{P}\nnot a grid at all\n{P}\n")
    assert [(r.line, r.error is None) for r in recs] == [(1, True), (2, False), (3, True)]
    assert recs[1].grid is None and "no grid" in recs[1].error


def test_nt_format() -> None:
    recs = records(f"3 {P0}\n3 {P0}\n")
    assert [(r.format, r.line, r.grid.normalised()) for r in recs] == [("nt", 1, P), ("nt", 2, P)]
    four = "1000000000000000"
    recs = records(f"2 {four}\n", fmt="nt")
    assert recs[0].grid.size == 4 and recs[0].grid.normalised() == "1" + "." * 15
    assert detect_format([f"3 {P0}"]) == "nt"


def test_nt_format_forced_on_a_plain_line_is_an_error() -> None:
    (rec,) = records(f"{P}\n", fmt="nt")
    assert rec.grid is None and "N T" in rec.error


# -- blocks -------------------------------------------------------------------------
def boxed(puzzle: str, n: int = 9, a: int = 3, b: int = 3) -> str:
    rows = [puzzle[i * n:(i + 1) * n] for i in range(n)]
    sep = "+" + "+".join("-" * (2 * b + 1) for _ in range(n // b)) + "+"
    out = [sep]
    for r, row in enumerate(rows):
        cells = [" ".join(row[j * b:(j + 1) * b]) for j in range(n // b)]
        out.append("| " + " | ".join(cells) + " |")
        if r % a == a - 1:
            out.append(sep)
    return "\n".join(out) + "\n"


def test_block_format_with_box_drawing() -> None:
    text = "# two grids\n" + boxed(P) + "\n" + boxed(P0) + "\n"
    assert "|" in text and "+" in text
    recs = records(text)
    # a block starts at its first row (the box drawing above it is not a row)
    assert [(r.format, r.line, r.index) for r in recs] == [("block", 3, 1), ("block", 17, 2)]
    assert [r.grid.normalised() for r in recs] == [P, P]


def test_block_format_plain_rows_blank_separated() -> None:
    rows = "\n".join(P[i * 9:(i + 1) * 9] for i in range(9))
    recs = records(rows + "\n\n" + rows + "\n")
    assert [(r.format, r.line) for r in recs] == [("block", 1), ("block", 11)]
    assert recs[1].grid.normalised() == P


@pytest.mark.parametrize("box", ["2x2", "2x3", "2x4", "3x3", "3x4", "4x4", "5x5"])
def test_block_format_with_box_drawing_every_size(box: str) -> None:
    """Regression: a block opening with a +---+ line was read as one-per-line
    for sizes whose side + 1 is not itself a grid side (4, 6, 12, 16)."""
    (a, b), puzzle, _ = sizes()[box]
    n = a * b
    for k in (1, 2):
        recs = records("\n".join([boxed(puzzle, n, a, b)] * k))
        assert all(r.format == "block" and r.grid is not None for r in recs), recs[:2]
        assert [r.grid.normalised() for r in recs] == [puzzle] * k


def test_block_with_a_short_row_is_malformed_not_a_crash() -> None:
    rows = [P[i * 9:(i + 1) * 9] for i in range(9)]
    rows[4] = rows[4][:7]
    recs = records("\n".join(rows) + "\n", fmt="block")
    assert len(recs) >= 1 and recs[0].grid is None and "rows" in recs[0].error


# -- CSV ------------------------------------------------------------------------------
def test_csv_puzzle_column_anywhere() -> None:
    recs = records(f"id,puzzle,rating\n7,{P},1.2\n8,{P0},3\n")
    assert [(r.format, r.line) for r in recs] == [("csv", 2), ("csv", 3)]
    assert recs[0].grid.normalised() == P and recs[0].extra == {"id": "7", "rating": "1.2"}


def test_csv_quizzes_column() -> None:
    sol = FIG["solution"]
    recs = records(f"quizzes,solutions\n{P0},{sol}\n")
    assert recs[0].format == "csv" and recs[0].grid.normalised() == P
    assert recs[0].extra == {"solutions": sol}


def test_csv_first_column_by_default_and_column_option() -> None:
    sol = FIG["solution"]
    recs = records(f"grid,answer\n{P},{sol}\n")
    assert recs[0].grid.normalised() == P
    recs = records(f"grid,answer\n{P},{sol}\n", column="answer")
    assert recs[0].grid.normalised() == sol


def test_csv_bad_rows_are_reported_per_row() -> None:
    recs = records(f"id,puzzle\n1,{P}\n2\n3,{P[:-1]}\n4,{P}\n", fmt="csv")
    assert [(r.line, r.grid is not None) for r in recs] == [(2, True), (3, False), (4, False),
                                                            (5, True)]
    assert "80 symbols" in recs[2].error


# -- JSON Lines -----------------------------------------------------------------------
def test_jsonl_keys() -> None:
    text = "\n".join(json.dumps(d) for d in (
        {"name": "a", "puzzle": P}, {"quizzes": P0}, {"grid": P, "rating": 3},
        {"nothing": P}, ["not", "an", "object"])) + "\n{broken\n"
    recs = records(text)
    assert all(r.format == "jsonl" for r in recs)
    assert [r.grid is not None for r in recs] == [True, True, True, False, False, False]
    assert recs[0].extra == {"name": "a"} and recs[2].extra == {"rating": "3"}
    assert "key" in recs[3].error and "object" in recs[4].error and "JSON" in recs[5].error
    assert [r.line for r in recs] == [1, 2, 3, 4, 5, 6]


def test_jsonl_book_files_are_read() -> None:
    root = Path(__file__).resolve().parent.parent / "puzzles"
    recs = list(iter_source(str(root / "book-figures.jsonl")))
    assert len(recs) == 14 and all(r.grid is not None for r in recs)
    assert recs[1].extra["name"] == "fig2.1" and recs[1].grid.normalised() == P


# -- standard input and inline grids ---------------------------------------------------
def test_stdin_dash() -> None:
    code, out, _ = grade_jsonl("-", input=f"# from a pipe\n{P}\n{P0}\n")
    assert code == 0
    assert [(r["index"], r["line"], r["puzzle"], r["verdict"]) for r in out] == [
        (1, 2, P, "ok"), (2, 3, P, "ok")]


def test_bare_grid_argument_and_nt_argument() -> None:
    code, out, _ = grade_jsonl(P)
    assert code == 0 and out[0]["puzzle"] == P and out[0]["level"] == 1
    code, out, _ = grade_jsonl(f"3 {P0}")
    assert code == 0 and out[0]["puzzle"] == P


def test_several_inputs_are_numbered_across_files(tmp_path: Path) -> None:
    f1 = tmp_path / "a.txt"
    f1.write_text(f"{P}\n{P}\n")
    f2 = tmp_path / "b.csv"
    f2.write_text(f"puzzle\n{P0}\n")
    code, out, _ = grade_jsonl(str(f1), str(f2), P)
    assert code == 0
    assert [(r["index"], r["line"]) for r in out] == [(1, 1), (2, 2), (3, 2), (4, 1)]


@pytest.mark.parametrize(("name", "data"), [
    ("bom.txt", "\ufeff" + P + "\r\n" + P + "\r\n"),
    ("bom.csv", "\ufeffid,puzzle\r\n7," + P + "\r\n"),
    ("crlf.txt", "# comment\r\n" + P + "\r\n"),
])
def test_byte_order_mark_and_crlf(tmp_path: Path, name: str, data: str) -> None:
    """Regression: a UTF-8 byte order mark (files saved on Windows) made the
    first grid 'malformed: 82 symbols' and hid a CSV's first column name."""
    f = tmp_path / name
    f.write_bytes(data.encode("utf-8"))
    recs = list(iter_source(str(f)))
    assert recs and all(r.error is None and r.grid.normalised() == P for r in recs)


def test_non_ascii_symbol_is_reported_with_its_position() -> None:
    code, out, _ = grade_jsonl(P[:3] + "\uff16" + P[4:])
    assert code == 1
    assert out[0]["verdict"] == "malformed"
    assert "at position 4 (row 1, column 4)" in out[0]["message"]


def test_reading_is_lazy() -> None:
    """The first records come out before the input ends."""
    def endless():
        yield "# endless\n"
        while True:
            yield P + "\n"
    first = list(itertools.islice(iter_text(endless(), "<gen>"), 3))  # type: ignore[arg-type]
    assert [r.line for r in first] == [2, 3, 4]


# -- sizes -----------------------------------------------------------------------------
def sizes() -> dict[str, tuple[tuple[int, int], str, str]]:
    out = {}
    for line in (DATA / "sizes.txt").read_text().splitlines():
        if line.startswith("#"):
            continue
        box, puzzle, solution = line.split()
        a, b = (int(x) for x in box.split("x"))
        out[box] = ((a, b), puzzle, solution)
    return out


@pytest.mark.parametrize("box", list(sizes()))
def test_every_size_parses_and_grades(box: str) -> None:
    (a, b), puzzle, solution = sizes()[box]
    n = a * b
    grid = parse_grid_token(puzzle, box=(a, b))
    assert grid.size == n and (grid.geo.a, grid.geo.b) == (a, b)
    assert grid.normalised() == puzzle
    args = [puzzle, "--with-solution"] + (["--box", box] if box == "3x2" else [])
    code, out, err = grade_jsonl(*args)
    assert code == 0, err
    (r,) = out
    assert (r["size"], r["verdict"], r["solution"]) == (n, "ok", solution)
    assert r["level"] >= 1 and r["rating"] is not None


def test_default_box_shapes() -> None:
    for n, (a, b) in {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 12: (3, 4), 16: (4, 4),
                      25: (5, 5)}.items():
        g = parse_grid_token("." * (n * n))
        assert (g.geo.a, g.geo.b) == (a, b), n


def test_box_3x2_changes_the_grid() -> None:
    (_, puzzle, _) = sizes()["3x2"]
    code, out, _ = grade_jsonl(puzzle)
    assert code == 1 and out[0]["verdict"] != "ok"
    code, out, _ = grade_jsonl(puzzle, "--box", "3x2")
    assert code == 0 and out[0]["verdict"] == "ok"


def test_symbols_beyond_nine_are_letters_either_case() -> None:
    (_, puzzle, _) = sizes()["4x4"]
    assert parse_grid_token(puzzle.lower()).normalised() == puzzle
    g = parse_grid_token("G" + "." * 255)
    assert g.values[0] == 16
    with pytest.raises(MalformedGrid, match="'H' at position 1"):
        parse_grid_token("H" + "." * 255)
    assert geometry(4, 4).symbols == "123456789ABCDEFG"


# -- auto-detection on every surveyed collection --------------------------------------
def first_token(line: str) -> str:
    return line.split()[0]


def csv_col(i: int, sep: str = ","):
    return lambda line: line.split(sep)[i]


FORMATS = DATA / "formats"
#: file -> (format, lines where grids start, how to find the grid on those lines)
EXPECTED = {
    "bench-mixed.meta.tsv": (("line", "nt"), [2, 3, 4], csv_col(1, "\t")),
    "bench-mixed.txt": (("line",), [1, 2, 3], first_token),
    "hodoku-py_HardestDatabase110626.txt": (("line",), [1, 3, 4], csv_col(0)),
    "hodoku-py_exemplars-1.0.txt": (("line",), [13, 14], first_token),
    "kaggle-radcliffe_curated5000.csv": (("csv",), [2, 3, 4], csv_col(0)),
    "sudoku-exchange_se-rated_sample.txt": (("line",), [1, 2, 3], lambda ln: ln.split()[1]),
    "sudoku-exchange_easy-SE-below-1.5_500.txt": (("line",), [1, 2, 3], first_token),
    "sudoku-exchange_medium-SE-1.5-to-2.4_500.txt": (("line",), [1, 2, 3], first_token),
    "sudokuoftheday_daily_levels.tsv": (("line",), [2, 3, 4], csv_col(2, "\t")),
}
for _f in ("norvig_easy50.txt", "norvig_hardest.txt", "norvig_top95.txt"):
    EXPECTED[_f] = (("line",), [1, 2, 3], first_token)
for _p in sorted(FORMATS.glob("*.sdm")):
    EXPECTED[_p.name] = (("line",), [1, 2, 3], first_token)


def test_every_survey_file_has_an_expectation() -> None:
    assert sorted(p.name for p in FORMATS.iterdir()) == sorted(EXPECTED)
    assert len(EXPECTED) == 24


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_auto_detection_on_survey_excerpts(name: str) -> None:
    fmts, lines, grab = EXPECTED[name]
    path = FORMATS / name
    raw = path.read_text().splitlines()
    recs = list(iter_source(str(path)))
    assert [r.line for r in recs] == lines
    if name == "hodoku-py_HardestDatabase110626.txt":  # a title line: its own record
        title = recs.pop(0)
        assert (title.text, title.error) == ("HardestDatabase110626", "no grid on this line")
    assert all(r.format in fmts and r.error is None for r in recs), recs
    for r in recs:
        want = grab(raw[r.line - 1]).strip()
        assert r.grid is not None and r.grid.size == 9
        assert r.grid.normalised() == parse_grid_token(want).normalised()
        assert r.source == str(path)


def test_excerpts_grade_through_the_cli() -> None:
    files = [str(FORMATS / n) for n in ("hodoku-py_top1465.sdm", "kaggle-radcliffe_curated5000.csv",
                                        "hodoku-py_exemplars-1.0.txt")]
    code, out, err = grade_jsonl(*files)
    assert code == 0, err
    assert [r["index"] for r in out] == list(range(1, 9))
    assert all(r["verdict"] == "ok" for r in out)
