"""The shapes of the harness model: what one client loads, refuses and names, as data.
Every value carries ``source``: the file and line at a commit, the spec section, the
docs page or the issue thread it was read from (``UNVERIFIED`` where no source could
be checked, and what skillc assumes then)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from ..project import ConfigError

Kind = Literal["skill", "agent", "command"]
Outcome = Literal["loaded", "skipped", "refused"]


@dataclass(frozen=True, slots=True)
class Root:
    """Where a client looks for one kind of definition.

    ``path`` is "/"-separated. A ``project`` root is met in any folder of the project
    (``.claude/skills`` of the project or of one of its packages); a ``plugin`` root is
    relative to the root of a plugin of a format the client reads. ``depth`` counts the
    folders between the root and a skill's folder (a skill), or the file (an agent or a
    command): (1, 1) is ``<root>/<name>/SKILL.md``, (0, None) any depth. ``dot``: dot
    folders below the root are read. Roots are listed in the order the client loads
    them (see ``Precedence``)."""

    kind: Kind
    path: str
    scope: Literal["project", "plugin"]
    depth: tuple[int, int | None]
    dot: bool
    source: str
    skipped_prefix: str = ""  # files whose name starts with it are not read


@dataclass(frozen=True, slots=True)
class Naming:
    """How a client names a skill: by its ``folder``, by its frontmatter ``name`` (a
    skill without one is skipped), or by its ``name`` else its folder; a plugin's are
    prefixed with the plugin's name (``plugin:name``) unless ``namespaced`` is false."""

    project: Literal["folder", "name", "name-or-folder"]
    plugin: Literal["folder", "name", "name-or-folder"]
    source: str
    replaced: str = ""  # characters the client replaces by "-" in a name
    namespaced: bool = True  # a plugin's are plugin:name


@dataclass(frozen=True, slots=True)
class Precedence:
    """Which copy wins when two loaded items get one name: ``last`` (the later root's,
    in the order of ``Client.roots``), ``first``, or ``path`` (copies are told apart by
    path and both listed)."""

    dedupe: Literal["last", "first", "path"]
    source: str


@dataclass(frozen=True, slots=True)
class Check:
    """A rule an item's frontmatter must keep, or the client ``refused`` it (an error
    it reports) or ``skipped`` it (left out, with at most a log line).

    ``rule``: "required" (a non-empty string), "max" (at most ``value`` characters,
    counted after whitespace is collapsed), "pattern" (matches the regular expression
    ``value``), "folder" (equals its folder's name), "keys" (no key outside ``value``),
    "yaml" (strict YAML: a frontmatter skillc had to recover is refused). ``field`` is
    a frontmatter key (dotted: ``metadata.short-description``), or ``qualified-name``:
    the name the client gives the item, ``plugin:name`` for a plugin's."""

    field: str
    rule: Literal["required", "max", "pattern", "folder", "keys", "yaml"]
    outcome: Literal["refused", "skipped"]
    kinds: frozenset[Kind]
    source: str
    value: int | str | frozenset[str] | None = None
    # Refused: an error for the item, or (alone) only when this client is the one
    # targeted: a file written for another client is its verdict, not a defect.
    alone: bool = False
    # Whose items it judges: a project's, a plugin's, or both ("any").
    scope: Literal["any", "project", "plugin"] = "any"


@dataclass(frozen=True, slots=True)
class Budget:
    """A listing's share of the context window."""

    fraction: float
    unit: str  # "chars": the context's tokens times chars_per_token; "tokens"
    chars_per_token: int = 4
    fallback_chars: int | None = None  # the budget when the context size is unknown

    def limit(self, context: int | None) -> tuple[int, str]:
        """The budget and its unit at ``context`` tokens (None: unknown)."""
        if context is None:
            if self.fallback_chars is None:
                raise ConfigError("this harness needs a context size (harness:200k)")
            return self.fallback_chars, "chars"
        per_token = self.chars_per_token if self.unit == "chars" else 1
        return max(1, math.floor(context * per_token * self.fraction)), self.unit


@dataclass(frozen=True)
class Listing:
    """What a harness lists of a catalogue (``skillc check``'s listing budgets), how it
    shows an entry, its budget and how it fits a listing that is too long."""

    harness: str
    kinds: frozenset[
        str
    ]  # what it lists (of those offered): skill, command, agent, tool
    naming: str  # "claude": plugin:name; "skill": the skill's name; "provider"
    fields: tuple[str, ...]  # what makes an entry's text: description, when_to_use
    line: str  # an entry as shown; {name}, {text}, {path}
    bare: str  # an entry without its text
    overflow: str  # "rank", "share" or "count"
    sources: tuple[str, ...]  # where each number below is documented
    budget: Budget | None = None
    default_context: int | None = None  # tokens, when none is given
    default_model: str = ""  # the model whose window default_context is
    entry_cap: int | None = None  # characters of an entry's text
    max_entries: int | None = None
    reattach_tokens: int | None = None  # an invoked skill after compaction
    path_root: str = ""  # what stands before a skill's path in {path}


@dataclass(frozen=True, slots=True)
class Manifest:
    """A plugin manifest format the client reads, and its rules (the loaders apply
    them; these are the values and their sources)."""

    path: str  # relative to the plugin's root; "marketplace" for a marketplace entry
    source: str
    schemas: tuple[str, ...] = ()  # accepted $schema values (none: not checked)
    closed: frozenset[str] = frozenset()  # top-level keys, when others are refused
    name_pattern: str = ""  # what a plugin's name must match
    strict: tuple[str, ...] = ()  # sub-objects where an unknown key refuses the plugin


@dataclass(frozen=True, slots=True)
class Client:
    """One client (harness): where it looks, what it loads, how it names and ranks."""

    id: str  # the harnesses setting's value
    title: str
    version: str  # the version of the client the rules were read from
    # Folders or files that show a project is laid out for this client (the default of
    # the harnesses setting follows them).
    marks: tuple[str, ...]
    roots: tuple[Root, ...]
    manifests: tuple[Manifest, ...]
    naming: Naming
    precedence: Precedence
    checks: tuple[Check, ...] = ()
    listing: Listing | None = None
