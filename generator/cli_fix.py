"""``skillc fix``, as ruff fixes: the fixes as a unified diff on stdout, written only
with ``--write``. Exit 0 when there is nothing to fix, or all was written; 1 when
fixes are there and not written; 2 on a configuration error (cli.main).

A fix today is the one ``loaders.recover`` makes: a one-line description holding
``: `` unquoted, quoted as the author meant it. A file is written only when its fixed
text reads back to the document the build reads (``recover.fixed``), when it is a
regular file (not a link) and when it still holds the bytes read."""

from __future__ import annotations

import argparse
import difflib
import os
import sys
import tempfile
from pathlib import Path

from . import config, discover
from .diagnostics import Report
from .discovered import Kind
from .loaders import agent, frontmatter, recover, skill

# The keys of each Markdown kind, up to which an unquoted description is read.
KEYS = {
    Kind.SKILL: skill.KNOWN_KEYS,
    Kind.AGENT: agent.KNOWN_KEYS,
    Kind.COMMAND: skill.KNOWN_KEYS,
}


def main(args: argparse.Namespace, cfg: config.Config) -> int:
    project = cfg.root.resolve()
    walk = Report()
    found = discover.discover(
        cfg.source_dirs(), project, (cfg.out_dir,), walk, cfg.exclude
    )
    fixes = []
    for item in sorted(found.found, key=lambda f: f.path):
        if item.kind in KEYS and not item.path.is_symlink():
            fix = _fix(item.path, KEYS[item.kind], cfg.max_file_bytes)
            if fix is not None:
                fixes.append((item.path, *fix))
    for path, raw, text in fixes:
        rel = discover.relative(path, project)
        if args.write:
            _write(path, raw, text)
        else:
            _diff(rel, raw.decode("utf-8"), text)
    files = f"{len(fixes):,} file{'s' * (len(fixes) != 1)}"
    if not fixes:
        print("skillc: nothing to fix", file=sys.stderr)
    elif args.write:
        print(f"skillc: fixed {files}", file=sys.stderr)
    else:
        them = "them" if len(fixes) > 1 else "it"
        print(
            f"skillc: {files} to fix; skillc fix --write writes {them}", file=sys.stderr
        )
    return 1 if fixes and not args.write else 0


def _diff(rel: str, old: str, new: str) -> None:
    """The unified diff of a file's fix, as ``diff -u`` prints it."""
    for line in difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), rel, rel
    ):
        end = "" if line.endswith("\n") else "\n\\ No newline at end of file\n"
        sys.stdout.write(line + end)


def _fix(path: Path, keys: frozenset[str], max_bytes: int) -> tuple[bytes, str] | None:
    """The file's bytes and its fixed text, when it has a fix."""
    try:
        raw = frontmatter.head(path, max_bytes + 1)
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None  # the build says why it cannot read it
    if len(raw) > max_bytes:
        return None
    new = recover.fixed(text, keys)
    return None if new is None else (raw, new)


def _write(path: Path, raw: bytes, text: str) -> None:
    """``text`` in place of ``path``'s bytes ``raw``, in one step (a file beside it,
    renamed over it, with its mode); never when the file changed since it was read."""
    with tempfile.NamedTemporaryFile(
        "wb", dir=path.parent, prefix=f".{path.name}.", delete=False
    ) as new:
        new.write(text.encode("utf-8"))
    try:
        os.chmod(new.name, path.stat().st_mode & 0o7777)
        if path.read_bytes() != raw:
            raise OSError(f"{path} changed while skillc fix ran; not written")
        os.replace(new.name, path)
    finally:
        if os.path.exists(new.name):
            os.unlink(new.name)
