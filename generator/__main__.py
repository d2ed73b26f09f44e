"""The command, ``skillc`` or ``python -m generator``: ``cli.main``."""

from __future__ import annotations

import sys

from generator.cli import main


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
