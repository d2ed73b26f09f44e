"""The command, ``skillc`` or ``python -m generator``: ``cli.main``, in a process that
stays light.

- The garbage collector is off from the start (``generator.collector`` says why): its
  passes over the modules a rebuild imports and the cache it unpickles were about a
  twentieth of a one-skill rebuild.
- The process ends without the interpreter's teardown, which frees every module and
  object one by one and took about a tenth of a one-skill rebuild. Nothing is left to
  do by then (files are closed, the cache is committed, skillc registers no exit
  handlers) but flush the output.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import NoReturn


def run() -> NoReturn:
    gc.disable()
    from generator.cli import main

    status = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nobody is reading any more
            pass
    os._exit(status)


if __name__ == "__main__":
    run()
