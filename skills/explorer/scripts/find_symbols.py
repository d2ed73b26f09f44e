"""Print where Python functions and classes are defined: path:line:name, one per line.

Usage: find_symbols.py [FOLDER] [NAME-SUBSTRING]
"""

import ast
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path(".")
    wanted = argv[1] if len(argv) > 1 else ""
    for path in sorted(folder.rglob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if wanted in node.name:
                    print(f"{path}:{node.lineno}:{node.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
