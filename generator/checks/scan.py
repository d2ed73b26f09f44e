"""What a reviewer should see before a skill, hook or script takes effect: lines that
download and run code (``curl ... | sh`` and its kin), run code they decode or fetch,
or send credentials they read (``scan_text``) in hooks, scripts, MCP server commands
and the lines a skill has Claude Code run; hooks that download and run a package;
secrets written into a source
(named by kind, never shown) and URLs that carry a credential (``urls``);
``allowed-tools`` that pre-approve every use of a tool; invisible or bidirectional
Unicode, which hides text from a reviewer but not from a model. Each a warning at its
line; files are read, never run.

Every search is linear in the text it reads (a SKILL.md may be 1 MB, and a pull
request chooses it): tests/test_scan_linear.py holds each pattern's worst case to a
few times plain prose of the same size.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from typing import Any

from .. import urls
from ..checks import Subject, bom, scan_text
from ..checks.bom import SCRIPT_SUFFIXES
from ..diagnostics import Report, position
from ..filestat import read_regular
from ..ir import Definition, Function, ScriptExecutor

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

    def where_in(self, path: str, command: str, needle: str) -> int:
        """Where ``needle`` is in ``command``, as the file writes the command (a JSON
        string, escaped, in hooks.json; as is in a YAML block): two hooks of one file
        that run the same package are told apart by their commands."""
        text = self.text(path)
        if text is None:
            return -1
        escaped = json.dumps(command, ensure_ascii=False)[1:-1]
        for written in (escaped, json.dumps(command)[1:-1], command):
            at = text.find(written)
            if at >= 0:
                inner = written.find(needle)
                return at + max(inner, 0)
        return text.find(needle)

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

    def runs(self, path: str, text: str, what: str, whole: bool = False) -> None:
        """Whether ``text`` (a command, a script: ``whole``, instructions) downloads
        and runs code, runs code it decodes or fetches, or sends what it reads of
        credentials (in one line; in a script, anywhere in it); ``path``: the file it
        is written in."""
        found = scan_text.download_and_run(text)
        if found:
            self.say(
                path,
                self.where(path, found),
                "download-and-execute",
                f"{what} downloads code and runs it: {found[:80]}",
            )
        span = scan_text.obfuscated(text)
        if span:
            shown = text[span[0] : span[1]]
            self.say(
                path,
                self.where(path, shown),
                "obfuscated-execution",
                f"{what} runs code it decodes or fetches, which a reviewer cannot "
                f"read: {shown[:80]}",
            )
        span = scan_text.exfiltration(text, whole)
        if span:
            shown = text[span[0] : span[1]]
            where = "and, in the same script," if whole else "and, in the same line,"
            self.say(
                path,
                self.where(path, shown),
                "exfiltration",
                f"{what} reads {shown[:60]} {where} sends data over the network: "
                "what it reads can leave the machine",
            )

    def hook(
        self, path: str, event: str, matcher: str, command: str, what: str
    ) -> None:
        """A command hook: what ``runs`` finds, and a package it downloads and runs."""
        self.runs(path, command, what)
        package = scan_text.package_run(command)
        if package is None:
            return
        every = event in TOOL_EVENTS and matcher.strip() in ("", "*", ".*")
        when = "on every tool call" if every else f"on each {event}"
        pinned = "" if "@" in package.lstrip("@") else " (any version)"
        self.say(
            path,
            self.where_in(path, command, package),
            "hook-runs-package",
            f"{what} downloads and runs {package}{pinned} {when}: what the registry "
            "serves then runs with your rights; install it once and run it by path, "
            "or pin an exact version you have read",
        )


# Claude Code's events of a tool call, whose matcher chooses the tools.
TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure"})


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
                    scan.runs(path, text, "this script", whole=True)
        if isinstance(d, Definition):
            # Its !`cmd` lines, which Claude Code runs, and what it tells the agent to.
            scan.runs(
                d.source.path, d.body, f"a line of {tool.qualname}'s instructions"
            )
            for entry in bom.skill_hooks(d.extra.get("hooks")):
                what = f"a {entry['event']} hook of {tool.qualname}"
                event, matcher, command = (
                    entry["event"],
                    entry["matcher"],
                    entry["command"],
                )
                scan.hook(d.source.path, event, matcher, command, what)
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
            what = f"a {hook.event} hook of plugin {hook.plugin}"
            scan.hook(hook.source, hook.event, hook.matcher, hook.action, what)
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
        yield bom.script_file(d, d.executor)
