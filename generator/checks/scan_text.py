"""What the scan looks for in a text (a script, a command, a skill's instructions),
as pure functions that return the first stretch they found (None: none), for the scan
(``scan.py``) to locate:

- ``download_and_run``: code downloaded and run (``curl ... | sh``, ``bash <(curl
  ...)``, ``iwr ... | iex``, ``iex ... DownloadString``);
- ``exfiltration``: what reads credentials (an SSH key, cloud or registry credentials,
  a browser's cookies, a keychain) or the whole environment, flowing into a network
  send: in one line of a command, or anywhere in one script;
- ``obfuscated``: code decoded or fetched, then run: ``exec(base64.b64decode(...))``,
  ``eval(atob(...))``, ``base64 -d | sh``, ``eval "$(... | base64 -d)"``, PowerShell's
  ``-EncodedCommand`` and ``iex`` of ``FromBase64String``;
- ``package_run``: a command that downloads a package and runs it (``npx pkg@1.2``,
  ``uvx``, ``pipx run``, ``bunx``, ``pnpm dlx``).

The second and third are the commonest classes of public skill audits (arXiv
2601.10338: 13.3% and 11.8% of 31,132 skills; Snyk's ToxicSkills). Every pattern is
linear in the text it reads (a SKILL.md may be 1 MB, and a pull request chooses it):
tests/test_scan_linear.py holds each one's worst case to a few times plain prose of
the same size.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable

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
# Reads of what a tool has no business sending: other programs' credentials, by path
# or command, and the environment as a whole (not one variable: a token read by name
# and sent to its own API is how a tool authenticates).
CREDENTIALS = re.compile(
    r"\.ssh/(?:id_\w+|authorized_keys|known_hosts)|\bid_(?:rsa|ed25519|ecdsa|dsa)\b"
    r"|\.aws/credentials|\.netrc\b|\.git-credentials|\.config/gh/hosts\.yml"
    r"|\.docker/config\.json|\.kube/config|\.npmrc\b|\.pypirc\b|/etc/shadow\b"
    r"|\.gnupg/|Cookies\.binarycookies|Login Data\b|\bfind-(?:generic|internet)-password\b"
    r"|\b(?:printenv|env)\s*(?:\||>)|JSON\.stringify\(\s*process\.env\s*\)"
    r"|\b(?:json\.dumps|str|repr)\(\s*(?:dict\(\s*)?os\.environ\b"
    r"|\b(?:Get-ChildItem|gci|dir|ls)\s+env:",
    re.I,
)
# A line's own read of a secrets file: ``cat .env``, ``$(cat ~/.aws/credentials)``.
DOTENV = re.compile(r"\b(?:cat|type|Get-Content|gc)\s+[\"']?(?:\./)?\.env\b", re.I)
# Network sends: shell clients, and the HTTP, socket and mail calls of Python, Node and
# PowerShell.
SENDS = re.compile(
    r"\b(?:curl|wget|nc|ncat|netcat|scp|sftp|ftp|Invoke-WebRequest|Invoke-RestMethod"
    r"|iwr|irm)\b"
    r"|\b(?:requests|httpx|session|client)\.(?:post|put|patch|request)\s*\("
    r"|\burlopen\s*\(|\burllib\.request\.Request\s*\(|\.sendall?\s*\("
    r"|\bsmtplib\b|\baxios(?:\.(?:post|put|patch))?\s*\(|\bfetch\s*\("
    r"|\bhttps?\.request\s*\(|\bXMLHttpRequest\b|\bnew\s+WebSocket\b",
    re.I,
)
# Decoders whose output, run, is code a reviewer cannot read.
_DECODED = (
    r"(?:[A-Za-z_]\w*\.)*(?:b64decode|b32decode|b16decode|a85decode|b85decode"
    r"|decodebytes|decompress|unhexlify|fromhex)\s*\("
    r"|codecs\.decode\s*\(|marshal\.loads\s*\(|atob\s*\(|Buffer\.from\s*\("
    r"|unescape\s*\("
)
_FETCHED = (
    r"(?:await\s+)?\(?\s*(?:await\s+)?(?:fetch|requests\.get|httpx\.get|urlopen"
    r"|urllib\.request\.urlopen)\s*\("
)
RUN_DECODED = re.compile(
    rf"\b(?:exec|eval|new\s+Function)\s*\(\s*(?:{_DECODED}|{_FETCHED})", re.I
)
# Shell: a decoder whose output is piped to a shell, or run through eval, sh -c or a
# process substitution; PowerShell's encoded commands.
DECODE = re.compile(r"\bbase64\s+(?:-d|--decode|-D)\b|\bxxd\s+-r\b", re.I)
SUBSTITUTION = re.compile(
    r"\beval\s+[\"']?\$\(|\b(?:ba|z)?sh\s+-c\s+[\"']?\$\(|\b(?:ba|z)?sh\s+<\(", re.I
)
SUBSTITUTION_END = re.compile(r"[)\n]")
POWERSHELL = re.compile(r"\b(?:powershell|pwsh)(?:\.exe)?\b", re.I)
ENCODED = re.compile(r"\s-e[a-z]*\s+[A-Za-z0-9+/]{20,}", re.I)
FROM_BASE64 = re.compile(r"FromBase64String", re.I)
# Package runners: each downloads the package (when not cached) and runs it.
# Options are skipped whole (possessive: a failed match never re-splits them).
PACKAGE_RUN = re.compile(
    r"\b(?:npx|bunx|uvx|pipx\s+run|pnpm\s+dlx|yarn\s+dlx|npm\s+exec)\s+"
    r"(?:-[\w-]+(?:=\S+)?\s+)*+(?P<package>[@\w./-]+)",
    re.I,
)


def exfiltration(text: str, whole: bool) -> tuple[int, int] | None:
    """The read of credentials that a network send in the same line follows or
    precedes (``whole``: anywhere in the text, a script's); its span."""
    reads = [m.span() for m in CREDENTIALS.finditer(text)]
    reads += [m.span() for m in DOTENV.finditer(text)] if not whole else []
    if not reads:
        return None
    sends = [m.start() for m in SENDS.finditer(text)]
    if whole:
        return min(reads) if sends else None
    ends = [m.start() for m in LINE_END.finditer(text)]  # a line: by bisection
    lines = {bisect.bisect(ends, at) for at in sends}
    found = [span for span in reads if bisect.bisect(ends, span[0]) in lines]
    return min(found) if found else None


def obfuscated(text: str) -> tuple[int, int] | None:
    """The first stretch that runs decoded or fetched code; its span."""
    spans = [
        _earliest(text, DECODE, SEGMENT_END, _piped_to_run),
        _earliest(text, SUBSTITUTION, SUBSTITUTION_END, _within(DECODE)),
        _earliest(text, POWERSHELL, LINE_END, _within(ENCODED)),
        _earliest(text, PS_RUN, LINE_END, _within(FROM_BASE64)),
    ]
    match = RUN_DECODED.search(text)
    spans.append(match.span() if match else None)
    return min((span for span in spans if span), default=None)


def _within(pattern: re.Pattern[str]) -> Callable[[str, int, int], int | None]:
    """The end of ``pattern``'s first match in the stretch, or None."""

    def tail(text: str, begin: int, limit: int) -> int | None:
        match = pattern.search(text, begin, limit)
        return None if match is None else match.end()

    return tail


def package_run(command: str) -> str | None:
    """The package a command downloads and runs (``protect-mcp@0.7.4``), or None."""
    match = PACKAGE_RUN.search(command)
    return None if match is None else match["package"]


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
