"""An outside bot that greets, then never answers a turn (it sleeps)."""

import json
import sys
import time

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "hang"}), flush=True)
    elif msg["type"] == "turn":
        time.sleep(3600)
