"""What each client makes of an item its discovery reaches: the name it gives it, and
whether its checks (``Client.checks``: hard limits, required fields, strict keys)
let it load. The one procedural part of the model."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from . import CLIENTS
from .model import Check, Client, Kind
from .views import Reach


@dataclass(frozen=True, slots=True)
class Item:
    """What a check reads of an item: its kind, its folder's name (a skill) or file's
    stem, its frontmatter (as written), its plugin's name, and whether skillc had to
    recover its frontmatter from YAML a strict parser rejects."""

    kind: Kind
    folder: str
    frontmatter: Mapping[str, object]
    plugin: str | None = None
    recovered: bool = False


@dataclass(frozen=True, slots=True)
class Verdict:
    """One client's verdict on an item: ``loaded``, ``skipped`` or ``refused``, the
    name it gives it (``plugin:name`` for a plugin's), why, and the rule's source."""

    client: str
    outcome: str
    name: str
    why: str = ""
    source: str = ""
    alone: bool = False  # refused by a rule that is an error only for a sole target

    @property
    def bare(self) -> str:
        """The name without its plugin's prefix."""
        return self.name.rpartition(":")[2]


def judge(item: Item, reach: Mapping[str, Reach], clients: list[str]) -> list[Verdict]:
    """Each of ``clients`` that reaches the item (in that order): its verdict."""
    verdicts = []
    for client_id in clients:
        view = reach.get(client_id)
        if view is None:
            continue
        client = CLIENTS[client_id]
        if view.outcome != "loaded":
            verdicts.append(Verdict(client_id, view.outcome, "", view.why, view.source))
            continue
        name = _name(client, item)
        if name is None:
            why = (
                f"{client.title} names a skill by its frontmatter name, and it has none"
            )
            verdicts.append(
                Verdict(client_id, "skipped", "", why, client.naming.source)
            )
            continue
        prefixed = item.plugin and client.naming.namespaced
        shown = f"{item.plugin}:{name}" if prefixed else name
        failed = next((c for c in client.checks if _fails(c, item, shown)), None)
        if failed is None:
            verdicts.append(Verdict(client_id, "loaded", shown))
        else:
            why = f"{client.title} {failed.outcome} it: {_said(failed, item, shown)}"
            verdicts.append(
                Verdict(
                    client_id,
                    failed.outcome,
                    shown,
                    why,
                    failed.source,
                    failed.alone,
                )
            )
    return verdicts


def refusal(client_id: str, item: Item) -> str:
    """Why ``client_id`` refuses or skips an item it reaches ("" when it loads it),
    from the item alone: its name and its checks."""
    reach = Reach(client_id, "loaded", "", "", 0, "")
    verdict = judge(item, {client_id: reach}, [client_id])[0]
    return verdict.why if verdict.outcome != "loaded" else ""


def _name(client: Client, item: Item) -> str | None:
    """The name the client gives the item (without a plugin's prefix); None when it
    names skills by their frontmatter name and this one has none."""
    written = item.frontmatter.get("name")
    given = " ".join(written.split()) if isinstance(written, str) else ""
    if item.kind != "skill":
        return given or item.folder
    rule = client.naming.plugin if item.plugin else client.naming.project
    if rule == "folder":
        name = item.folder
    elif given:
        name = given
    elif rule == "name-or-folder":
        name = item.folder
    else:
        return None
    for char in client.naming.replaced:
        name = name.replace(char, "-")
    return name


def _fails(check: Check, item: Item, shown: str) -> bool:
    if item.kind not in check.kinds:
        return False
    if check.scope != "any" and (check.scope == "plugin") != bool(item.plugin):
        return False
    if check.rule == "yaml":
        return item.recovered
    if check.rule == "keys":
        assert isinstance(check.value, frozenset)
        return bool(set(item.frontmatter) - check.value)
    text = _text(check, item, shown)
    if check.rule == "required":
        return not text
    if check.rule == "max":
        assert isinstance(check.value, int)
        return len(text) > check.value
    if check.rule == "pattern":
        assert isinstance(check.value, str)
        return re.fullmatch(check.value, text) is None
    return text != item.folder  # "folder"


def _text(check: Check, item: Item, shown: str) -> str:
    """The value a check reads, whitespace collapsed: the client's name for the item
    (``qualified-name``: with its plugin's prefix), else a frontmatter value."""
    value = shown if check.field == "qualified-name" else _field(item, check.field)
    return " ".join(value.split()) if isinstance(value, str) else ""


def _field(item: Item, dotted: str) -> object:
    """A frontmatter value by its dotted key (``metadata.short-description``)."""
    value: object = item.frontmatter
    for key in dotted.split("."):
        value = value.get(key) if isinstance(value, Mapping) else None
    return value


def _said(check: Check, item: Item, shown: str) -> str:
    """What the failed check found."""
    if check.rule == "yaml":
        return "its frontmatter is not strict YAML"
    if check.rule == "keys":
        assert isinstance(check.value, frozenset)
        extra = ", ".join(sorted(set(item.frontmatter) - check.value))
        return f"its frontmatter has keys it does not allow ({extra})"
    if check.rule == "required":
        return f"{check.field} is missing or empty"
    text = _text(check, item, shown)
    if check.rule == "max":
        return f"{check.field} is {len(text):,} characters, over {check.value:,}"
    if check.rule == "pattern":
        return f"{check.field} {text!r} does not match {check.value}"
    return f"its name {text!r} is not its folder's name ({item.folder!r})"
