"""Hybrid find_tool: the held-out evaluation (purposes others' tools were not written
for), the token table's tokenizer, vectors compiled at build time, the lexical floor
without numpy, and results an agent can use."""

from __future__ import annotations

import array
import json
import math
import random
import shutil
import warnings
from pathlib import Path
from typing import Any

import pytest

import find_eval
from conftest import REPO, run_mypy, run_python, run_skillc, shared_corpus
from skillc.emitters import search_index
from skillc.diagnostics import Report

needs_corpus = pytest.mark.skipif(
    not find_eval.PLUGINS.is_dir(),
    reason="../shared/corpus is not beside this checkout",
)
# Blocks numpy in a fresh process, as if it were not installed.
WITHOUT_NUMPY = "import sys; sys.modules['numpy'] = None\n"


def repo_project(tmp_path: Path, extra: str = "") -> Path:
    project = tmp_path / "repo"
    project.mkdir()
    shutil.copytree(REPO / "skills", project / "skills")
    (project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\nbuiltins = ["file", "batch", "db"]\n'
        + extra
    )
    return project


@needs_corpus
def test_heldout_hybrid_beats_plain_bm25_by_far(tmp_path: Path) -> None:
    catalogue = find_eval.heldout_catalogue(tmp_path)
    test = find_eval.heldout("test")
    dev = find_eval.heldout("dev")
    assert len(test) + len(dev) >= 150
    assert sum(p.hard for p in test + dev) >= 20
    assert sum(p.lang != "en" for p in test + dev) >= 10
    assert find_eval.overlap_shares(catalogue.model, test + dev)[0] < 0.3
    plain = find_eval.scores(find_eval.bm25(catalogue.model), test)
    hybrid = find_eval.scores(find_eval.method(catalogue, "hybrid"), test)
    lexical = find_eval.scores(find_eval.method(catalogue, "lexical"), test)
    assert hybrid["recall@3"] >= plain["recall@3"] + 0.1
    assert hybrid["recall@10"] >= plain["recall@10"] + 0.1
    assert hybrid["MRR"] > lexical["MRR"] > plain["MRR"] - 0.05


def test_tokenizer_matches_bert_uncased_wordpiece() -> None:
    """Ids as the teacher's own tokenizer (tokenizers, tokenizer.json) gives them."""
    table = search_index.load_table("hybrid", _report())
    assert table is not None
    tokenize = table.tokenize
    assert tokenize("Hello, World! café naïve") == [7592, 1010, 2088, 999, 7668, 15743]
    assert tokenize("get_file_contents") == [2131, 1035, 5371, 1035, 8417]
    assert tokenize("x" * 101) == [tokenize.unknown]


def _per_character(text: str) -> list[str]:
    """BERT's basic tokenizer one character at a time (``_embed.basic_words`` as it
    was written first, with its predicates): the oracle of the differential test."""
    import unicodedata

    embed = search_index.embedding()
    chars: list[str] = []
    for char in unicodedata.normalize("NFD", text.lower()):
        code = ord(char)
        if code == 0 or code == 0xFFFD or unicodedata.category(char) == "Mn":
            continue
        if char.isspace() or unicodedata.category(char) in ("Cc", "Cf"):
            chars.append(" ")
        elif embed._is_punctuation(char) or embed._is_cjk(code):
            chars.append(f" {char} ")
        else:
            chars.append(char)
    return "".join(chars).split()


def test_basic_words_splits_as_bert_does_character_by_character() -> None:
    """Differential: the runtime's one-pass tokenizer against the per-character one, on
    random text (every ASCII character, controls included, and others: accents,
    combining marks, CJK, U+FFFD, format characters, unusual spaces and punctuation) and
    on the real corpora's skills, subagents, commands and function descriptions."""
    import corpus_rates

    basic_words = search_index.embedding().basic_words
    rng = random.Random(25)
    others = "éÉñÑçßİıſﬁ\u0301\u0308\u200b\u200d\u00ad\ufffd\u3000\u00a0\u2028"
    others += "中文字\U00020001\uf900—–…«»¿¡·•€$^`~\U0001f600ǅⅫ①"
    alphabet = [chr(code) for code in range(128)] + list(others)
    texts = ["".join(rng.choices(alphabet, k=rng.randrange(40))) for _ in range(3000)]
    ascii_only = [chr(code) for code in range(128)]
    texts += [
        "".join(rng.choices(ascii_only, k=rng.randrange(80))) for _ in range(3000)
    ]
    assert sum(not text.isascii() for text in texts) > 1000
    for text in texts:
        assert basic_words(text) == _per_character(text), repr(text)
    corpus = shared_corpus()  # skips here without ../shared
    texts = [  # each file's frontmatter and opening
        path.read_text(encoding="utf-8", errors="replace")[:800]
        for path in sorted(corpus.glob("*/**/*.md"))
    ]
    for source in corpus_rates.FUNCTION_SOURCES:
        texts += [
            str(item.get("description")) for item in corpus_rates.functions(source)
        ]
    assert len(texts) > 1000
    assert any(not text.isascii() for text in texts)
    for text in texts:
        assert basic_words(text) == _per_character(text), repr(text)


def test_queries_of_ever_new_characters_keep_the_tokenizer_table_bounded() -> None:
    """The generated MCP server tokenises every query a model sends: a caller sending
    ever new characters fills the table of what each became only up to MAX_KEPT, and
    the characters past it still split as BERT splits them."""
    embed = search_index.embedding()
    text = "".join(map(chr, range(0x10000, 0x10000 + embed.MAX_KEPT + 10_000)))
    assert embed.basic_words(text) == _per_character(text)
    assert len(embed._SPACING) <= embed.MAX_KEPT


def test_rows_are_weighted_by_idf_so_a_purpose_leans_on_its_rare_words(
    tmp_path: Path,
) -> None:
    """train.py's last step: each row's scale times its token's idf over the summaries;
    the shipped table was made so (a stop word weighs far less than a topical word)."""
    import numpy

    from skillc.embed import train

    tokenize = train.embed_module().Tokenizer(["[UNK]", "the", "alarm", "weather"])
    weights = train.idf(["the alarm", "the weather", "the"], tokenize, 4)
    assert weights[2] == weights[3] > weights[1] == 1.0  # "the" is in every text
    rows = numpy.array([[1, -2], [3, 4], [5, 6], [7, 8]], dtype=numpy.int8)
    for out in (tmp_path / "a", tmp_path / "b"):
        train.write(out, rows, numpy.ones(4) * weights, ["[UNK]", "the", "x", "y"])
    files = ("table.npy", "scales.npy", "vocab.txt", "MODEL")
    assert all(
        (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes()
        for f in files
    )
    assert (tmp_path / "a" / "MODEL").read_text().startswith("minilm-static-256-")

    table = search_index.load_table("hybrid", _report())
    assert table is not None
    inner = table
    norms = numpy.linalg.norm(inner.rows.astype(float), axis=1) * inner.scales
    weight = {
        w: norms[inner.tokenize.ids[w]] for w in ("the", "for", "weather", "alarm")
    }
    assert max(weight["the"], weight["for"]) * 10 < min(
        weight["weather"], weight["alarm"]
    )


def _report():  # type: ignore[no-untyped-def]
    from skillc.diagnostics import Report

    return Report()


def test_vectors_are_compiled_deterministically_and_loaded_lazily(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = repo_project(tmp_path)
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0 and "find-tool-lexical" not in err, err
    out = project / "generated"
    first = (out / "_search_vectors.py").read_text()
    report = json.loads((out / "report.json").read_text())
    assert report["find_tool"]["method"] == "hybrid"
    assert report["find_tool"]["model"].startswith("minilm-static-256-")
    other = tmp_path / "again"
    shutil.copytree(project, other, ignore=shutil.ignore_patterns("generated"))
    status, err = run_skillc(capsys, "-C", str(other), "build", "--no-cache")
    assert status == 0, err
    assert (other / "generated" / "_search_vectors.py").read_text() == first
    # Importing the package loads neither numpy nor the vectors; the first query does.
    probe = run_python(
        "import sys, generated\n"
        "assert 'numpy' not in sys.modules and 'generated._search_vectors' not in sys.modules\n"
        "m = generated.find_tool('put text into a file on disk')[0]\n"
        "assert 'numpy' in sys.modules\n"
        "print(m.name, m.path, m.original, m.providers['anthropic'], m.relevance)",
        project,
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.split()[:4] == [
        "file.write",
        "generated.file.write",
        "write",
        "file__write",
    ]


def test_without_numpy_the_build_and_the_package_rank_lexically_and_say_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = repo_project(tmp_path)
    built = run_python(
        WITHOUT_NUMPY
        + "from skillc import cli\nsys.exit(cli.main(['build', '--no-cache']))",
        project,
    )
    assert built.returncode == 0, built.stderr
    assert built.stderr.count("warning[find-tool-lexical]") == 1
    out = project / "generated"
    assert json.loads((out / "report.json").read_text())["find_tool"] == {
        "method": "lexical"
    }
    assert "VECTORS: Final[list[str]] = []" in (out / "_search_vectors.py").read_text()
    # Built hybrid, then used where numpy is missing: lexical, with one warning.
    status, err = run_skillc(capsys, "-C", str(project), "build", "--no-cache")
    assert status == 0, err
    used = run_python(
        WITHOUT_NUMPY + "import generated\n"
        "for _ in range(3): m = generated.find_tool('read a file')\n"
        "print(m[0].name)",
        project,
    )
    assert used.returncode == 0, used.stderr
    assert used.stdout.split() == ["file.read"]
    assert used.stderr.count("find_tool ranks lexically: numpy is not installed") == 1


def test_find_tool_lexical_config_writes_no_vectors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = repo_project(tmp_path, 'find-tool = "lexical"\n')
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0 and "find-tool-lexical" not in err, err
    out = project / "generated"
    assert json.loads((out / "report.json").read_text())["find_tool"] == {
        "method": "lexical"
    }
    assert 'MODEL: Final = ""' in (out / "_search_vectors.py").read_text()
    (project / "pyproject.toml").write_text(
        (project / "pyproject.toml").read_text().replace("lexical", "semantic")
    )
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 2 and "find-tool must be one of hybrid, lexical" in err


def test_a_package_without_tools_type_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "empty"
    (project / "skills").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.skillc]\nsources = ["skills"]\n')
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    checked = run_mypy(project, "generated")
    assert checked.returncode == 0, checked.stdout
    used = run_python("import generated; print(generated.find_tool('x'))", project)
    assert used.stdout.strip() == "[]", used.stderr


def test_relevance_is_comparable_and_an_exact_name_wins(tmp_path: Path) -> None:
    project = repo_project(tmp_path)
    from skillc import cli

    with warnings.catch_warnings():
        assert cli.main(["-C", str(project), "build"]) == 0
    probe = run_python(
        "import generated\n"
        "good = generated.find_tool('run a shell command')\n"
        "bad = generated.find_tool('bake a chocolate cake with cherries')\n"
        "named = generated.find_tool('db.insert')\n"
        "print(good[0].name, good[0].relevance > (bad[0].relevance if bad else 0))\n"
        "print(named[0].name, named[0].reason)\n"
        "print(all(0 <= m.relevance <= 1 and type(m.relevance) is float for m in good))",
        project,
    )
    assert probe.returncode == 0, probe.stderr
    first, second, third = probe.stdout.splitlines()
    assert first == "batch.run True"
    assert second.startswith("db.insert name: db.insert")
    assert third == "True"


def _running_sum(table: Any, text: str) -> tuple[bytes, float]:
    """A text's vector in plain Python floats: each known token's row times its scale,
    added to the total in turn, normalised with an exact sum, rounded half to even."""
    ids = [i for i in table.tokenize(text) if i != table.tokenize.unknown]
    total: list[float] = []
    for i in ids[: search_index.VECTOR_TOKENS]:
        row = [float(value) * float(table.scales[i]) for value in table.rows[i]]
        total = [t + v for t, v in zip(total, row)] if total else row
    norm = math.sqrt(math.fsum(x * x for x in total))
    if norm == 0:
        return bytes(table.dim), 0.0
    unit = [x / norm for x in total]
    scale = max(map(abs, unit)) / 127
    return array.array("b", [round(x / scale) for x in unit]).tobytes(), scale


def test_numpys_vector_sums_the_rows_in_order() -> None:
    """The tools' vectors (summed by numpy with add.reduce along the rows, quantised
    in numpy) are the running sum's, byte for byte, for texts of every number of
    tokens up to past the most a vector takes: the same bytes on every machine."""
    table = search_index.load_table("hybrid", Report())
    assert table is not None
    # Whole words of the vocabulary (not "##" pieces), so that each is one known token.
    vocab = sorted(w for w in table.tokenize.ids if w.isalpha() and w.isascii())
    rng = random.Random(17)
    for length in range(0, search_index.VECTOR_TOKENS + 8):
        text = " ".join(rng.choice(vocab) for _ in range(length))
        assert search_index.vector(table, text) == _running_sum(table, text), text
