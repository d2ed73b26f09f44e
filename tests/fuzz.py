"""Mutation fuzzing of skillc over real inputs (run it with ``nox -s fuzz``).

Seeds are the SKILL.md files, subagents, plugin.json and metadata.yaml files of
../shared/corpus, and tool manifests made from its real function definitions; without
../shared/corpus (a fresh clone), those of this repository's skills/ and tests/fixtures/. Each
round mutates one or two seeds (bytes flipped, lines cut or repeated, YAML and JSON
tokens that broke skillc before: deep nesting, .inf, dates, unbalanced quotes, ...),
builds them in a fresh process, and requires: no traceback and no crash (exit 0 or 1),
no run over 10 s, and, when the build exits 0, a package whose every module imports.
Failing inputs are kept in --keep (default: .fuzz-failures/). Exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
# Without the corpus: this repository's own inputs, manifests taken as they are.
OWN_INPUTS = (REPO / "skills", REPO / "tests" / "fixtures")
MANIFESTS = ("tool-manifest.yaml", "ai-tool.yaml")
HANG_SEC = 10
IMPORT_ALL = (
    "import importlib, pkgutil, generated\n"
    "for m in pkgutil.walk_packages(generated.__path__, 'generated.'):\n"
    "    if not m.name.endswith('__main__'):\n"
    "        importlib.import_module(m.name)\n"
    "generated.list()\n"
)
# Text that broke (or could break) a loader: spliced in at random places.
TOKENS = [
    ".inf",
    "-.inf",
    ".nan",
    "1.0e999",
    "NaN",
    "Infinity",
    "2024-01-01",
    "2024-01-01T10:00:00Z",
    "'",
    '"',
    "\\",
    "{",
    "[",
    "]",
    "}",
    ": ",
    "- ",
    "---\n",
    "&a ",
    "*a",
    "!!binary ",
    "!!python/object:os.system ",
    "? ",
    "|",
    ">",
    "\t",
    "\x00",
    "\ufeff",
    "\r\n",
    "%",
    "::error ",
    "\n",
    "$ARGUMENTS",
    "{{ x }}",
    "../",
    "/etc/passwd",
]


def seeds(roots: tuple[Path, ...]) -> list[tuple[str, bytes]]:
    """(file name, content) of every seed below ``roots``: the name decides how skillc
    reads it."""
    found: list[tuple[str, bytes]] = []
    for path in sorted(p for root in roots for p in root.rglob("*")):
        if not path.is_file() or path.stat().st_size > 64_000:
            continue
        if path.name in ("SKILL.md", "metadata.yaml", "plugin.json", *MANIFESTS):
            found.append((path.name, path.read_bytes()))
        elif path.name.endswith(".tools.yaml"):
            found.append(("seed.tools.yaml", path.read_bytes()))
        elif path.suffix == ".md" and path.parent.name == "agents":
            found.append(("agent.md", path.read_bytes()))
    for source in sorted(p for root in roots for p in root.glob("functions/*.json")):
        items = json.loads(source.read_text(encoding="utf-8"))
        for item in items[:200]:
            tool = {
                "name": item.get("name", "t"),
                "description": item.get("description") or "x",
                "parameters": item.get("parameters", item.get("inputSchema")),
                "executor": {"type": "cli", "command": "echo"},
            }
            manifest = {"namespace": "fz", "tools": [tool]}
            found.append(("tool-manifest.yaml", yaml.safe_dump(manifest).encode()))
    return found


def mutate(data: bytes, chance: random.Random) -> bytes:
    text = bytearray(data)
    for _ in range(chance.randint(1, 4)):
        operation = chance.randrange(6)
        at = chance.randint(0, len(text))
        if operation == 0 and text:  # flip a byte
            text[min(at, len(text) - 1)] ^= 1 << chance.randrange(8)
        elif operation == 1:  # splice a token in
            text[at:at] = chance.choice(TOKENS).encode()
        elif operation == 2:  # cut a span
            del text[at : at + chance.randint(1, 200)]
        elif operation == 3:  # repeat a line
            lines = bytes(text).split(b"\n")
            index = chance.randrange(len(lines))
            lines[index:index] = [lines[index]] * chance.randint(1, 50)
            text = bytearray(b"\n".join(lines))
        elif operation == 4:  # nest deeply
            depth = chance.choice([70, 1_000, 30_000])
            opener = chance.choice([b"[", b"{a: ", b"- ", b"\n  k:"])
            text[at:at] = opener * depth
        else:  # a long name
            text[at:at] = b"n" * chance.choice([300, 1_000])
    return bytes(text)


def place(skills: Path, name: str, content: bytes, index: int) -> None:
    folder = skills / f"s{index}"
    if name == "plugin.json":
        target = folder / ".claude-plugin" / "plugin.json"
        (folder / "skills" / "a").mkdir(parents=True)
        (folder / "skills" / "a" / "SKILL.md").write_text(
            "---\nname: a\ndescription: A.\n---\nA.\n"
        )
    elif name == "metadata.yaml":
        target = folder / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: s{index}\ndescription: S.\n---\nS.\n"
        )
    elif name == "agent.md":
        target = skills / "agents" / f"a{index}.md"
    else:
        target = folder / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(content)


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str] | None:
    """The finished process, or None when it ran past HANG_SEC."""
    env = {**os.environ, "PYTHONPATH": str(cwd), "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        return subprocess.run(
            command,
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=HANG_SEC,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None


def problem(project: Path) -> str | None:
    """What is wrong with building ``project``, or None."""
    built = run([sys.executable, "-m", "skillc", "build", "--no-cache"], project)
    if built is None:
        return f"the build ran over {HANG_SEC} s"
    if built.returncode not in (0, 1) or "Traceback" in built.stderr:
        return f"exit {built.returncode}:\n{built.stderr[-3000:]}"
    if built.returncode == 0:
        imported = run([sys.executable, "-c", IMPORT_ALL], project)
        if imported is None or imported.returncode != 0:
            detail = imported.stderr[-3000:] if imported else "import hung"
            return f"the build exited 0 but its package does not import:\n{detail}"
    return None


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--keep", type=Path, default=Path(".fuzz-failures"))
    args = parser.parse_args()
    roots = (CORPUS,) if CORPUS.is_dir() else OWN_INPUTS
    if roots == OWN_INPUTS:
        print(
            "fuzz: ../shared/corpus is not beside this checkout; seeds: skills/, tests/fixtures/"
        )
    seed = (
        args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 30)
    )
    chance = random.Random(seed)
    pool = seeds(roots)
    deadline = time.monotonic() + args.seconds
    rounds = failures = exits_0 = 0
    while time.monotonic() < deadline:
        rounds += 1
        with tempfile.TemporaryDirectory() as tmp:
            project = Path(tmp)
            (project / "pyproject.toml").write_text(
                '[tool.skillc]\nsources = ["skills"]\n'
            )
            (project / "skills").mkdir()
            for index in range(chance.randint(1, 2)):
                name, content = chance.choice(pool)
                place(project / "skills", name, mutate(content, chance), index)
            found = problem(project)
            exits_0 += found is None and (project / "generated").is_dir()
            if found is not None:
                failures += 1
                keep = args.keep / f"seed{seed}-round{rounds}"
                shutil.copytree(project / "skills", keep / "skills")
                print(f"fuzz: FAILED round {rounds} (kept in {keep}): {found}")
    print(
        f"fuzz: seed {seed}, {rounds} rounds in {args.seconds:g} s, "
        f"{exits_0} built and imported, {failures} failure(s)"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
