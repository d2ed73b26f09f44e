"""Convert a length: convert.py VALUE FROM TO... prints {"ok": true, "data": {TO: value}}."""

import json
import sys

METRES = {
    "mm": 0.001,
    "cm": 0.01,
    "m": 1.0,
    "km": 1000.0,
    "in": 0.0254,
    "ft": 0.3048,
    "yd": 0.9144,
    "mi": 1609.344,
}


def main(argv: list[str]) -> int:
    value, unit, *targets = argv
    metres = float(value) * METRES[unit]
    data = {target: float(f"{metres / METRES[target]:.6g}") for target in targets}
    print(json.dumps({"ok": True, "data": data}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
