"""``python -m <package>``: the tools for agents that work through a shell. What a call
prints passes through ``_secrets.redact``, as every text that leaves the package does.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ._runtime import PACKAGE, entries, namespace_help, package_help
from ._secrets import redact
from ._tasks import Invocation
from ._tools import CallableTool, shortened

if TYPE_CHECKING:
    import argparse


def find(name: str) -> Any:
    """A tool by dotted name (``task.code_reviewer``), alias or source name."""
    from ._index import ALIASES, SOURCE_NAMES

    name = dict(entry.split("\t") for entry in ALIASES).get(name, name)
    for line in SOURCE_NAMES:
        qualname, _, original = line.partition("\t")
        ns = qualname.rpartition(".")[0]
        if name in (qualname, original, f"{ns}.{original}"):
            module = importlib.import_module(f"{PACKAGE}.{ns}")
            return getattr(module, qualname.rpartition(".")[2])
    raise LookupError(
        redact(f"no tool named {shortened(name)!r}; see: python -m {PACKAGE} list")
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m <package> list [--json] [--tag T] [--capability C] [--namespace N] |
    help [NAME] | find TEXT [--tag T] [--capability C] | call NAME ... | mcp``. Output cut short by a closed pipe (``| head``) ends quietly, status 141.
    """
    import os
    import sys

    try:
        status = _main(argv)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        # Python would complain again when it flushes stdout at exit: point it nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # as a process ended by SIGPIPE


def _main(argv: Sequence[str] | None) -> int:
    parser = _parser()
    args, rest = parser.parse_known_args(argv)
    if rest and args.command != "call":
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    return _COMMANDS[args.command](args, rest)


def _parser() -> argparse.ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(prog=f"python -m {PACKAGE}")
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("list", help="list every tool (Level 1)")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.add_argument("--namespace", help="only this namespace and those below it")
    _filter_options(listing)
    helping = commands.add_parser(
        "help", help="a namespace's tools, or one tool's spec"
    )
    helping.add_argument("name", nargs="?")
    finding = commands.add_parser("find", help="rank tools by fit for a purpose")
    finding.add_argument("purpose", nargs="+")
    finding.add_argument("-k", type=int, default=10)
    _filter_options(finding)
    calling = commands.add_parser("call", help="call a tool and print the result")
    calling.add_argument("name")
    calling.add_argument("--json", action="store_true", help="print JSON")
    calling.add_argument(
        "--confirm", action="store_true", help="let a tool marked dangerous run"
    )
    serving = commands.add_parser(
        "mcp", help="serve the tools over MCP (stdio; --http needs the mcp SDK)"
    )
    serving.add_argument("--profile", help="only the tools of this profile")
    serving.add_argument(
        "--allow-dangerous",
        action="store_true",
        help="let tools marked dangerous run without asking",
    )
    serving.add_argument(
        "--progressive",
        action="store_true",
        help="list only find_tool, the always-loaded tools and call_tool",
    )
    serving.add_argument(
        "--http", action="store_true", help="streamable HTTP on 127.0.0.1"
    )
    serving.add_argument("--port", type=int, default=8000, help="with --http")
    serving.add_argument(
        "--host", default="127.0.0.1", help="with --http: the address to bind"
    )
    serving.add_argument(
        "--public",
        action="store_true",
        help="with --http: allow a bind beyond 127.0.0.1 (needs SKILLC_MCP_TOKEN)",
    )
    serving.add_argument(
        "--workers",
        type=int,
        default=1,
        help="with --http: worker processes (more than one serve statelessly)",
    )
    serving.add_argument(
        "--stateless",
        action="store_true",
        help="with --http: no sessions, even with one worker",
    )
    return parser


def _serve(args: argparse.Namespace, rest: Sequence[str]) -> int:
    from . import _mcp

    http = _mcp.Http(args.port, args.host, args.workers, args.public, args.stateless)
    served = http if args.http else None
    return _mcp.main(args.profile, args.allow_dangerous, served, args.progressive)


def _list(args: argparse.Namespace, rest: Sequence[str]) -> int:
    import json

    tools = entries(args.namespace, args.tag, args.capability)
    if args.json:
        from ._index import METADATA

        listed = [
            {**entry._asdict(), "metadata": METADATA.get(entry.name, {})}
            for entry in tools
        ]
        print(json.dumps(listed, indent=2))
    else:
        print("\n".join(f"{entry.name}: {entry.summary}" for entry in tools))
    return 0


def _find(args: argparse.Namespace, rest: Sequence[str]) -> int:
    from ._search import find as find_tool

    purpose = " ".join(args.purpose)
    tags, capabilities = args.tag or (), args.capability or ()
    for match in find_tool(purpose, args.k, tags=tags, capabilities=capabilities):
        print(f"{match.relevance:5.3f}  {match.name}  ({match.reason})")
    return 0


def _call(args: argparse.Namespace, rest: Sequence[str]) -> int:
    import json
    import sys

    try:
        tool = find(args.name)
    except LookupError as exc:
        print(exc, file=sys.stderr)
        return 2
    if isinstance(tool, CallableTool):
        return _call_tool(tool.using(confirm=args.confirm), rest, args.json)
    named, positional = _options(rest)
    last = {key: values[-1] for key, values in named.items()}
    result = tool(
        positional if tool.spec.kind == "skill" else " ".join(positional), **last
    )
    if isinstance(result, Invocation):
        output = result.to_dict() if args.json else result.text
    else:
        output = result
    output = redact(output)
    print(output if isinstance(output, str) else json.dumps(output, indent=2))
    return 0


def _filter_options(command: argparse.ArgumentParser) -> None:
    """``--tag`` and ``--capability``, each repeatable: a tool must have every one."""
    command.add_argument(
        "--tag", action="append", help="only tools with this tag (repeatable)"
    )
    command.add_argument(
        "--capability",
        action="append",
        help="only tools with this capability (repeatable)",
    )


def _call_tool(tool: CallableTool[Any, Any], rest: Sequence[str], as_json: bool) -> int:
    """``--name value`` per parameter (original names); values that are not strings in the
    schema are read as JSON (``--limit 5``, ``--rows '[{"a": 1}]'``). A list is given by
    repeating its option (``--tag a --tag b``), or as one JSON array."""
    import json

    named, positional = _options(rest, keep_dashes=True)
    if positional:
        words = shortened(" ".join(positional))
        print(redact(f"unexpected arguments: {words}; use --name value"))
        return 2
    properties = tool.spec.input_schema.get("properties", {})
    arguments: dict[str, Any] = {}
    for key, texts in named.items():
        name = tool.spec.parameters.get(key.replace("-", "_"), key)
        schema = properties.get(name, {})
        try:
            arguments[name] = _argument(schema, texts)
        except RecursionError:  # JSON nested deeper than Python reads
            print(
                redact(f"error[invalid-arguments]: --{shortened(key)}: nested too deep")
            )
            return 2
    result = tool.call_raw(arguments)
    try:
        if as_json:
            text = json.dumps(result._asdict(), indent=2, default=str)
        elif result.ok:
            data = result.data
            text = (
                data
                if isinstance(data, str)
                else json.dumps(data, indent=2, default=str)
            )
        else:
            assert result.error is not None
            text = f"error[{result.error.code}]: {result.error.message}"
    except RecursionError:
        text = "error[internal-error]: the result nests too deep to print"
    print(redact(text))
    return 0 if result.ok else 1


def _argument(schema: Any, texts: Sequence[str]) -> Any:
    """An argument's value from its option's texts (every one given, for a list)."""
    if schema.get("type") != "array":
        return _value(schema, texts[-1])
    whole = _value(schema, texts[0]) if len(texts) == 1 else None
    items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
    return whole if isinstance(whole, list) else [_value(items, t) for t in texts]


def _help(args: argparse.Namespace, rest: Sequence[str]) -> int:
    import sys

    from ._index import NAMESPACES

    name = args.name
    if name is None:
        print(package_help())
    elif name in dict(NAMESPACES):
        print(namespace_help(name))
    else:
        try:
            print(find(name).spec.help)
        except LookupError as exc:
            print(exc, file=sys.stderr)
            return 2
    return 0


def _value(schema: Any, text: str) -> Any:
    """One value from the shell: as it is for a string, else read as JSON when it is."""
    import json

    if schema.get("type") == "string":
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


def _options(
    rest: Sequence[str], keep_dashes: bool = False
) -> tuple[dict[str, list[str]], list[str]]:
    """``--name value`` and ``--name=value`` pairs (every value of a repeated name), and
    the plain arguments."""
    named: dict[str, list[str]] = {}
    positional: list[str] = []
    items = iter(rest)
    for item in items:
        if item.startswith("--") and len(item) > 2:
            key, _, value = item[2:].partition("=")
            key = key if keep_dashes else key.replace("-", "_")
            named.setdefault(key, []).append(value if "=" in item else next(items, ""))
        else:
            positional.append(item)
    return named, positional


_COMMANDS = {"mcp": _serve, "list": _list, "help": _help, "find": _find, "call": _call}
