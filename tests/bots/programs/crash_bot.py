"""An outside bot that greets, then exits with an error on its first turn."""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "crash"}), flush=True)
    elif msg["type"] == "turn":
        raise SystemExit(3)
