"""skillc's benchmark (run it with `nox -s bench`): every figure, each as a ratio to a
baseline measured in the same run. It prints figures; it does not fail on them.

Build and start-up: a corpus of 1,000 skills (about 1.5 KB of body each), timed in fresh
processes against the floor (a plain script that reads every SKILL.md and parses its
frontmatter with yaml.CSafeLoader); each time is the median of several runs, with a floor
run before every run, so that drift in the machine's speed moves the floor too. The same
corpus is discovered by skillkit 0.4.0, a runtime skill loader, when it is installed.

Compile rate: the share of each real source in ../shared/corpus (skills, a plugin
marketplace's skills and subagents, four sources of function definitions in manifests of
200) that compiles (`python tests/bench.py --only compile-rate` prints only these).

find_tool: recall@1, @3, @10 and MRR of plain BM25, the lexical ranker, dense alone and
hybrid on the test part of the held-out set (tests/eval/find_tool_heldout.yaml, when
../shared is there), and recall@1, recall@3 and MRR on the self-written
tests/eval/find_tool.yaml beside plain BM25; the time of one query over 2,000 tools
(after load) beside plain BM25's, the time of the first query (loading the index, the
vectors and the token table) and the size of the tool vectors; and the context saved by
Level 1 entries plus find_tool over sending every full tool schema.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

import yaml

FLOOR_SCRIPT = textwrap.dedent("""
    import sys, pathlib, yaml
    for path in sorted(pathlib.Path(sys.argv[1]).rglob("SKILL.md")):
        text = path.read_text(encoding="utf-8")
        yaml.load(text.split("---\\n", 2)[1], Loader=yaml.CSafeLoader)
""")

BODY_LINE = (
    "Step {j}: check the {topic} of the change carefully and report what you find.\n"
)


def write_corpus(root: Path, count: int) -> None:
    for i in range(count):
        folder = root / "skills" / f"skill-{i:04d}"
        folder.mkdir(parents=True)
        body = "".join(BODY_LINE.format(j=j, topic=f"topic {i}") for j in range(19))
        (folder / "SKILL.md").write_text(
            f"---\nname: skill-{i:04d}\n"
            f"description: Handles task number {i} for a user. Use when working on area {i % 37}.\n"
            f"allowed-tools: Read Grep\n---\n\n# Skill {i}\n\n{body}",
            encoding="utf-8",
        )
    (root / "pyproject.toml").write_text('[tool.skillc]\nsources = ["skills"]\n')


def timed(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


class Sampler:
    """Times each figure's runs with a floor run before every one, so that a machine
    that slows down or speeds up during the bench moves the floor with the figures."""

    def __init__(self, floor) -> None:  # type: ignore[no-untyped-def]
        self.floor = floor
        self.floor_times: list[float] = []

    def median(self, runs: int, action) -> float:  # type: ignore[no-untyped-def]
        times = []
        for _ in range(runs):
            self.floor_times.append(self.floor())
            times.append(action())
        return statistics.median(times)


# Start-up work, timed inside a fresh process (interpreter start-up, the same for both,
# left out): skillkit importing and discovering the skills; the package importing and
# listing them.
SKILLKIT = textwrap.dedent("""
    import time
    start = time.perf_counter()
    from skillkit import SkillManager
    manager = SkillManager(project_skill_dir="skills")
    manager.discover()
    assert len(manager.list_skills()) > 0
    print(time.perf_counter() - start)
""")
OURS = textwrap.dedent("""
    import time
    start = time.perf_counter()
    import generated
    assert len(generated.list()) > 0
    print(time.perf_counter() - start)
""")


def inside(command: list[str], cwd: Path, env: dict[str, str]) -> float:
    """The time a fresh process reports for its own work."""
    done = subprocess.run(command, cwd=cwd, env=env, check=True, capture_output=True)
    return float(done.stdout.decode().split()[-1])


Row = tuple[
    str, float, str, float | None, str, str
]  # name, value, unit, ratio, target, met


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--skills", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument(
        "--only",
        choices=("compile-rate", "find"),
        help="print one section only (compile-rate: the real corpora; find: find_tool)",
    )
    args = parser.parse_args()
    rows = [] if args.only else build_figures(args)
    rows += [] if args.only == "compile-rate" else find_tool_figures(args.runs)
    rows += [] if args.only == "find" else compile_rate_figures()
    print(f"\n{'figure':<52}{'value':>12}{'ratio':>10}{'target':>10}  met")
    for name, value, unit, ratio, target, met in rows:
        shown = f"{value:.3f} {unit}" if unit else f"{value:.3f}"
        ratio_text = "" if ratio is None else f"{ratio:.2f}"
        print(f"{name:<52}{shown:>12}{ratio_text:>10}{target:>10}  {met}")


def compile_rate_figures() -> list[Row]:
    """The share of each real source (../shared/corpus) that compiles: every skill and
    subagent is the target, and 99% of function definitions."""
    import corpus_rates

    if not corpus_rates.CORPUS.is_dir():
        print("compile rate: ../shared/corpus is not beside this checkout; skipped")
        return []
    with tempfile.TemporaryDirectory() as tmp:
        rates = corpus_rates.rates(Path(tmp))
    rows: list[Row] = []
    for rate in rates:
        goal = 0.99 if rate.kind == "functions" else 1.0
        name = f"compiled: {rate.source} {rate.kind} {rate.compiled}/{rate.total}"
        met = "yes" if rate.ratio >= goal else "NO"
        rows.append((name, 100 * rate.ratio, "%", None, f">= {goal:.0%}", met))
    return rows


def _met(ratio: float, goal: float, at_least: bool = False) -> tuple[str, str]:
    ok = ratio >= goal if at_least else ratio <= goal
    return (f">= {goal:g}" if at_least else f"<= {goal:g}"), ("yes" if ok else "NO")


def build_figures(args: argparse.Namespace) -> list[Row]:
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        write_corpus(project, args.skills)
        body_bytes = (project / "skills" / "skill-0000" / "SKILL.md").stat().st_size
        build = [py, "-m", "generator", "build"]
        out = project / "generated"
        base_env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}

        sampler = Sampler(
            lambda: timed([py, "-c", FLOOR_SCRIPT, "skills"], project, base_env)
        )
        median = sampler.median

        def cold() -> float:
            shutil.rmtree(out, ignore_errors=True)
            shutil.rmtree(project / ".skillc-cache", ignore_errors=True)
            return timed(build, project, base_env)

        cold_build = median(max(3, args.runs // 2), cold)
        noop = median(args.runs, lambda: timed(build, project, base_env))
        target = project / "skills" / f"skill-{args.skills // 2:04d}" / "SKILL.md"
        original = target.read_text(encoding="utf-8")
        counter = iter(range(1_000_000))

        def one_change() -> float:
            target.write_text(original + f"\nEdit {next(counter)}.\n", encoding="utf-8")
            return timed(build, project, base_env)

        changed = median(args.runs, one_change)
        listing = [py, "-c", "import generated; generated.list()"]
        no_pyc = median(args.runs * 2, lambda: timed(listing, project, base_env))
        with_pyc_env = {
            k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"
        }
        timed(listing, project, with_pyc_env)  # writes the .pyc files
        with_pyc = median(args.runs * 2, lambda: timed(listing, project, with_pyc_env))
        startup = median(
            args.runs * 2, lambda: timed([py, "-c", "pass"], project, base_env)
        )
        skillkit = None
        if importlib.util.find_spec("skillkit") is not None:
            skillkit = median(
                args.runs, lambda: timed([py, "-c", SKILLKIT], project, base_env)
            )
            skillkit_work = median(
                args.runs, lambda: inside([py, "-c", SKILLKIT], project, base_env)
            )
            our_work = median(
                args.runs, lambda: inside([py, "-c", OURS], project, base_env)
            )
        floor = statistics.median(sampler.floor_times)
        out_lines = sum(len(p.read_text().splitlines()) for p in out.rglob("*.py"))

    print(
        f"\nskillc bench: {args.skills} skills, {body_bytes} bytes per SKILL.md, "
        f"{out_lines:,} lines of generated Python; medians of {args.runs}+ runs in fresh "
        f"processes, a floor run before each ({len(sampler.floor_times)} floor runs); "
        "ratios are to the floor unless said otherwise"
    )
    rows: list[Row] = [
        ("floor: read + CSafeLoader every SKILL.md", floor, "s", 1.0, "", "")
    ]
    for name, seconds, goal in (
        ("cold build", cold_build, 15.0),
        ("no-op rebuild", noop, 2.0),
        ("rebuild after one skill changed", changed, 3.0),
        ("fresh import + list, no .pyc", no_pyc, 0.5),
        ("fresh import + list, with .pyc", with_pyc, 0.5),
    ):
        rows.append((name, seconds, "s", seconds / floor, *_met(seconds / floor, goal)))
    rows.append(("(python -c pass, for scale)", startup, "s", startup / floor, "", ""))
    if skillkit is None:
        rows.append(("skillkit 0.4.0 discovery: not installed", 0.0, "", None, "", ""))
    else:
        rows.append(
            (
                "skillkit 0.4.0: discover every skill",
                skillkit,
                "s",
                skillkit / floor,
                "",
                "",
            )
        )
        rows.append(
            (
                "  its start-up work ÷ import + list's (x faster)",
                skillkit_work / our_work,
                "",
                skillkit_work / our_work,
                *_met(skillkit_work / our_work, 20, True),
            )
        )
        rows.append(
            (
                "  whole processes, python start-up included (x)",
                skillkit / no_pyc,
                "",
                skillkit / no_pyc,
                "",
                "",
            )
        )

    return rows


def find_tool_figures(runs: int) -> list[Row]:
    """Ranking quality and cost, each beside plain BM25 (tests/find_eval.py)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import find_eval

    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        if find_eval.PLUGINS.is_dir():
            rows += _heldout(Path(tmp))
        catalogues = find_eval.catalogues(Path(tmp))
        pairs = sum(len(c.pairs) for c in catalogues)
        ours = [find_eval.measure(find_eval.find_tool(c), c.pairs) for c in catalogues]
        base = [find_eval.measure(find_eval.bm25(c.model), c.pairs) for c in catalogues]
        sizes = " + ".join(str(len(c.model.tools)) for c in catalogues)
        print(f"find_tool: {pairs} purposes over catalogues of {sizes} tools")
        for index, name, goal in (
            (0, "recall@1", None),
            (1, "recall@3", 0.9),
            (2, "MRR", None),
        ):
            mine = (
                sum(f[index] * len(c.pairs) for f, c in zip(ours, catalogues)) / pairs
            )
            plain = (
                sum(f[index] * len(c.pairs) for f, c in zip(base, catalogues)) / pairs
            )
            target, met = ("", "") if goal is None else _met(mine, goal, True)
            rows.append(
                (
                    f"self-written set {name} (ratio: ÷ BM25 {plain:.3f})",
                    mine,
                    "",
                    mine / plain,
                    target,
                    met,
                )
            )
        rows += _savings(catalogues[-1])
        rows += _query_time(Path(tmp), runs)
    return rows


def _heldout(tmp: Path) -> list[Row]:
    """The held-out set's test part: every method, beside plain BM25."""
    import find_eval

    catalogue = find_eval.heldout_catalogue(tmp)
    test = find_eval.heldout("test")
    half, anyone = find_eval.overlap_shares(catalogue.model, test)
    hard = sum(p.hard for p in test)
    other = sum(p.lang != "en" for p in test)
    print(
        f"held-out test part: {len(test)} purposes ({hard} hard, {other} not in"
        f" English) over {len(catalogue.model.tools)} tools; purposes with half their"
        f" content words in the target's description: {half:.0%} (any word: {anyone:.0%})"
    )
    methods: dict[str, find_eval.Finder] = {
        "plain BM25": find_eval.bm25(catalogue.model)
    }
    for method in ("lexical", "dense", "hybrid"):
        methods[method] = find_eval.method(catalogue, method)
    base = find_eval.scores(methods["plain BM25"], test)
    rows: list[Row] = []
    goals = {"recall@3": 0.85, "recall@10": 0.95}
    for name, find in methods.items():
        figures = find_eval.scores(find, test)
        for figure, value in figures.items():
            target, met = ("", "")
            if name == "hybrid" and figure in goals:
                target, met = _met(value, goals[figure], True)
            ratio = value / base[figure] if base[figure] else None
            rows.append(
                (f"held-out test {name} {figure}", value, "", ratio, target, met)
            )
    gain = find_eval.scores(methods["hybrid"], test)["recall@3"] - base["recall@3"]
    rows.append(
        (
            "held-out test hybrid recall@3 - BM25's",
            gain,
            "",
            None,
            *_met(gain, 0.25, True),
        )
    )
    return rows


def _savings(catalogue: Any) -> list[Row]:
    """Context sent, per purpose: the namespaces (the package's Level 1 help), find_tool's
    answer and the chosen tool's Level 2 spec; or every tool's Level 1 entry and one
    Level 2 spec; against every tool's full schema (anthropic.json)."""
    out = Path(catalogue.package.__file__).parent
    budgets = json.loads((out / "report.json").read_text())["budgets"]
    full = budgets["providers"]["providers/anthropic.json"]
    level1 = sum(t["level1"] for t in budgets["tools"])
    level2 = {t["name"]: t["level2"] for t in budgets["tools"]}
    from generator.tokens import counter

    count = counter(budgets["counter"])
    answers = []
    for purpose, _ in catalogue.pairs:
        matches = catalogue.package.find_tool(purpose, 5)
        text = "\n".join(f"{m.relevance} {m.name} ({m.reason})" for m in matches)
        answers.append(count(text) + (level2[matches[0].name] if matches else 0))
    per_call = statistics.mean(answers)
    n = len(level2)
    rows: list[Row] = [
        (
            f"every full schema, {n} tools ({budgets['counter']})",
            full,
            "tok",
            None,
            "",
            "",
        ),
    ]
    namespaces = count(str(catalogue.package.help()))
    for name, sent, goal in (
        ("namespaces + find_tool + its Level 2, saved", namespaces + per_call, 0.95),
        ("every Level 1 entry + 1 Level 2, saved", level1 + per_call, 0.85),
    ):
        saving = 1 - sent / full
        rows.append((name, saving, "", saving, *_met(saving, goal, True)))
    return rows


def _query_time(tmp: Path, runs: int) -> list[Row]:
    """One find_tool query over 2,000 tools, in process, beside plain BM25's."""
    import find_eval

    project = tmp / "two_thousand"
    project.mkdir()
    write_corpus(project, 2000)
    catalogue = find_eval._catalogue("large", project, [])
    queries = [p for p, _ in yaml.safe_load(find_eval.EVAL.read_text())["corpus"]]
    baseline = find_eval.bm25(catalogue.model)
    find = catalogue.package.find_tool
    started = time.perf_counter()
    find("warm up", 5)  # loads the index, the vectors and the token table
    load = (time.perf_counter() - started) * 1000
    vectors = Path(catalogue.package.__file__).parent / "_search_vectors.py"
    per_thousand = vectors.stat().st_size / 2000 * 1000 / 1024
    lexical = find_eval.method(catalogue, "lexical")

    def per_query(function: Any) -> float:
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            for query in queries:
                function(query, 5)
            samples.append((time.perf_counter() - start) / len(queries) * 1000)
        return statistics.median(samples)

    ours, plain, lexical_ms = per_query(find), per_query(baseline), per_query(lexical)
    return [
        (
            "find_tool query, 2,000 tools (ratio: ÷ BM25)",
            ours,
            "ms",
            ours / plain,
            "< 1 ms",
            "yes" if ours < 1 else "NO",
        ),
        ("  lexical ranker query, same tools", lexical_ms, "ms", None, "", ""),
        ("  plain BM25 query, same tools", plain, "ms", None, "", ""),
        ("find_tool first query (load), 2,000 tools", load, "ms", None, "", ""),
        ("tool vectors per 1,000 tools", per_thousand, "KiB", None, "", ""),
    ]


if __name__ == "__main__":
    main()
