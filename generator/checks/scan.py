"""What a reviewer should see before a skill, hook or script takes effect: lines that
download and run code (``curl ... | sh`` and its kin) in hooks, scripts, MCP server
commands and the lines a skill has Claude Code run; secrets written into a source
(named by kind, never shown) and URLs that carry a credential (``urls``);
``allowed-tools`` that pre-approve every use of a tool; invisible or bidirectional
Unicode, which hides text from a reviewer but not from a model. Each a warning at its
line; files are read, never run.

Every search is linear in the text it reads (a SKILL.md may be 1 MB, and a pull
request chooses it): tests/test_scan_linear.py holds each pattern's worst case to a
few times plain prose of the same size.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .. import urls
from ..checks import Subject
from ..checks.bom import SCRIPT_SUFFIXES
from ..diagnostics import Report, position
from ..filestat import read_regular
from ..ir import Definition, Function, ScriptExecutor

# Download-and-run, in four shapes. Each pattern is linear in the text it searches: no
# part of one can match again what another part just matched (a run of letters can
# start a scheme only once, an unbounded run is never followed by what it may hold).
# The shapes with an unbounded middle (``curl ... | sh``) are searched from the first
# download of a stretch of text only (``_earliest``): from each, as one regex did, a
# line holding ``curl -fsSL `` 40,000 times took 131 s to scan.
RUN = r"(?:sudo\s+)?(?:env\s+\S++\s+)?(?:ba|z|da|k|c|fi)?sh|python[0-9.]*|node|perl|ruby|php"
# A process substitution, sh -c or eval of a download: fixed words, one space run each.
SUBSTITUTED = re.compile(
    r"\b(?:ba|z)?sh\s+<\(\s*(?:curl|wget)\b"
    r"|\b(?:ba|z)?sh\s+-c\s+[\"']?\$\(\s*(?:curl|wget)\b"
    r"|\beval\s+[\"']?\$\(\s*(?:curl|wget)\b",
    re.I,
)
DOWNLOAD = re.compile(r"\b(?:curl|wget)\b", re.I)
PIPED_TO_RUN = re.compile(rf"\|\s*(?:{RUN})\b", re.I)
SEGMENT_END = re.compile(r"[\n|;&]")
PS_DOWNLOAD = re.compile(r"\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b", re.I)
PS_RUN = re.compile(r"\b(?:iex|Invoke-Expression)\b", re.I)
PIPED_TO_PS_RUN = re.compile(r"\|\s*(?:iex|Invoke-Expression)\b", re.I)
PS_FETCHED = re.compile(r"\b(?:iwr|irm|Invoke-WebRequest|DownloadString)\b", re.I)
LINE_END = re.compile(r"\n")
# Each kind of secret by the shape its issuer gives it.
SECRETS = {
    "an AWS access key": re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    "a GitHub token": re.compile(
        r"\b(?:gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{60,})\b"
    ),
    "a Slack token": re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
    # From the start of a run of key characters only: from every "sk-" of a run
    # ("sk-sk-sk-..."), each search scanned the rest of it (quadratic).
    "an OpenAI key": re.compile(
        r"(?<![A-Za-z0-9_-])sk-(?:proj-)?[A-Za-z0-9_-]{16,}T3BlbkFJ[A-Za-z0-9_-]{16,}"
    ),
    "an Anthropic key": re.compile(r"\bsk-ant-[a-z]+\d{2}-[A-Za-z0-9_-]{40,}"),
    "a Google API key": re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"),
    "a Stripe live key": re.compile(r"\b[rs]k_live_[0-9A-Za-z]{24,}\b"),
    # the header alone is how documentation names the format: the key follows it
    "a private key": re.compile(
        r"-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----[ \t]*\r?\n[A-Za-z0-9+/=]{40,}"
    ),
}
# Documentation's stand-ins, not secrets.
PLACEHOLDERS = re.compile(r"EXAMPLE|x{6,}|X{6,}|0{8,}|1234567890", re.I)
BIDI = {*range(0x202A, 0x202F), *range(0x2066, 0x206A)}
# Zero-width and invisible characters that no text needs (the joiners U+200C and
# U+200D, which emoji and Indic scripts use, are left alone), and the tag characters.
INVISIBLE = {0x200B, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x180E, 0xFEFF}
INVISIBLE |= {0x115F, 0x1160, 0x3164, 0xFFA0, *range(0xE0000, 0xE0080)}
# An allowed-tools rule that pre-approves every use of a tool (Claude Code's
# permission rules: a bare tool name or a * specifier matches everything).
EVERYTHING = re.compile(
    r"^\*$|^[A-Za-z]+\((?:\*|:\*|\*:\*)\)$|^mcp__\*|^mcp__[^_]+__\*$|^(?:Bash|PowerShell)$"
)


class _Scan:
    def __init__(self, subject: Subject, report: Report) -> None:
        self.root = subject.config.root.resolve()
        self.limit = subject.config.max_file_bytes
        self.report = report
        self.found: list[dict[str, Any]] = []
        self.texts: dict[str, str | None] = {}

    def text(self, path: str) -> str | None:
        """A project file's text (None: outside it, no regular file, or too large)."""
        if path not in self.texts:
            full = (self.root / path).resolve()
            self.texts[path] = None
            if self.root in full.parents:
                data = read_regular(os.fspath(full), self.limit)
                if data is not None:
                    self.texts[path] = data.decode("utf-8", "replace")
        return self.texts[path]

    def say(self, path: str, offset: int, code: str, message: str) -> None:
        text = self.text(path) or ""
        line, col = position(text, offset) if offset >= 0 else (1, 1)
        self.report.warning(path, line, col, code, message)
        self.found.append(
            {"path": path, "line": line, "col": col, "code": code, "message": message}
        )

    def where(self, path: str, needle: str) -> int:
        text = self.text(path)
        return -1 if text is None else text.find(needle)

    def secrets_and_unicode(self, path: str) -> None:
        text = self.text(path)
        if text is None:
            return
        for kind, pattern in SECRETS.items():
            for match in pattern.finditer(text):
                if not PLACEHOLDERS.search(match.group()):
                    self.say(
                        path,
                        match.start(),
                        "secret-in-source",
                        f"{kind} is written here; keep it in the environment and read it by name",
                    )
                    break
        self.credentials(path, text)
        if text.isascii():
            return
        for kinds, what in (
            (BIDI, "bidirectional control"),
            (INVISIBLE, "invisible character"),
        ):
            hits = [
                i
                for i, c in enumerate(text)
                if ord(c) in kinds and (i or c != "\ufeff")
            ]
            if hits:
                self.say(
                    path,
                    hits[0],
                    "hidden-unicode",
                    f"{len(hits)} {what}(s), the first U+{ord(text[hits[0]]):04X}: text a "
                    "reviewer does not see and a model reads",
                )

    def credentials(self, path: str, text: str) -> None:
        """The first URL that carries a credential (and how many more do)."""
        found = [(url, why) for url in urls.urls(text) if (why := urls.credential(url))]
        if found:
            more = (
                f" ({len(found) - 1} more URLs here do too)" if len(found) > 1 else ""
            )
            self.say(
                path,
                text.find(found[0][0]),
                "credential-in-url",
                f"a URL carries {found[0][1]}{more}; keep it in the environment and "
                "write ${NAME} in its place (CLAUDE.md, AGENTS.md, report.json, "
                "bom.json and ai-tools.json show the URL without it)",
            )

    def runs(self, path: str, text: str, what: str) -> None:
        """Whether ``text`` (a command, a script, instructions) downloads and runs
        code; ``path``: the file it is written in."""
        found = download_and_run(text)
        if found:
            self.say(
                path,
                self.where(path, found),
                "download-and-execute",
                f"{what} downloads code and runs it: {found[:80]}",
            )


def download_and_run(text: str) -> str | None:
    """The first stretch of ``text`` that downloads code and runs it (``curl ... |
    sh``, ``bash <(curl ...)``, ``iwr ... | iex``, ``iex ... DownloadString``)."""
    spans = [
        _earliest(text, DOWNLOAD, SEGMENT_END, _piped_to_run),
        _earliest(text, PS_DOWNLOAD, LINE_END, _last(PIPED_TO_PS_RUN, "|")),
        _earliest(text, PS_RUN, LINE_END, _last(PS_FETCHED, "")),
    ]
    match = SUBSTITUTED.search(text)
    spans.append(match.span() if match else None)
    found = min((span for span in spans if span), default=None)
    return None if found is None else text[found[0] : found[1]]


# What follows a download in its stretch of text: where the match ends, or None.
Tail = Callable[[str, int, int], int | None]


def _earliest(
    text: str, start: re.Pattern[str], stop: re.Pattern[str], tail: Tail
) -> tuple[int, int] | None:
    """The first ``start`` that ``tail`` completes before the next ``stop`` (or at
    it). Only the first ``start`` of each stretch is tried: any later one in it has
    less of the stretch left, so it cannot complete when the first does not."""
    pos = 0
    while found := start.search(text, pos):
        end = stop.search(text, found.end())
        limit = len(text) if end is None else end.start()
        done = tail(text, found.end(), limit)
        if done is not None:
            return found.start(), done
        pos = limit + 1
    return None


def _piped_to_run(text: str, _: int, limit: int) -> int | None:
    """``| sh`` where the download's command ends (a pipe ends it)."""
    piped = PIPED_TO_RUN.match(text, limit)
    return None if piped is None else piped.end()


def _last(pattern: re.Pattern[str], first: str) -> Tail:
    """The end of the last ``pattern`` that starts in the stretch (at a ``first``
    character, when given: a pipe), as a greedy ``[^\n]*`` before it would find."""

    def tail(text: str, begin: int, limit: int) -> int | None:
        last = None
        if first:
            at = text.find(first, begin, limit)
            while at >= 0:
                if match := pattern.match(text, at):
                    last = match.end()
                at = text.find(first, at + 1, limit)
        else:
            for match in pattern.finditer(text, begin, limit):
                last = match.end()
        return last

    return tail


def run(subject: Subject, report: Report) -> list[dict[str, Any]]:
    scan = _Scan(subject, report)
    scanned: set[str] = set()
    for tool in subject.model.tools:
        d = tool.definition
        for path in _files(d):
            if path not in scanned:
                scanned.add(path)
                scan.secrets_and_unicode(path)
                text = scan.text(path)
                if text is not None and path.endswith(SCRIPT_SUFFIXES):
                    scan.runs(path, text, "this script")
        if isinstance(d, Definition):
            # Its !`cmd` lines, which Claude Code runs, and what it tells the agent to.
            scan.runs(
                d.source.path, d.body, f"a line of {tool.qualname}'s instructions"
            )
            if d.kind.value != "agent":
                for rule in d.allowed_tools:
                    if EVERYTHING.search(rule.strip()):
                        scan.say(
                            d.source.path,
                            scan.where(d.source.path, rule),
                            "allowed-tools-wildcard",
                            f"{tool.qualname} pre-approves {rule!r}: every use of the tool "
                            "runs without asking while the skill is active",
                        )
    for hook in subject.model.hooks:
        if hook.type == "command":
            scan.runs(
                hook.source, hook.action, f"a {hook.event} hook of plugin {hook.plugin}"
            )
        if hook.source not in scanned:
            scanned.add(hook.source)
            scan.secrets_and_unicode(hook.source)
    for server in subject.model.mcp_servers:
        command = " ".join([server.target, *server.args])
        scan.runs(
            server.source,
            command,
            f"MCP server {server.name} of plugin {server.plugin}",
        )
        if server.source not in scanned:
            scanned.add(server.source)
            scan.secrets_and_unicode(server.source)
    return scan.found


def _files(d: Definition | Function) -> Iterator[str]:
    """The source files a tool is made of: its definition, and its scripts."""
    if not d.source.path.startswith("<"):
        yield d.source.path
    if isinstance(d, Definition) and d.skill_dir:
        for name in d.files:
            if name.startswith("scripts/") or name.endswith(SCRIPT_SUFFIXES):
                yield f"{d.skill_dir}/{name}"
    if isinstance(d, Function) and isinstance(d.executor, ScriptExecutor):
        yield str(Path(d.executor.cwd, d.executor.entry).as_posix())
