"""An outside bot that answers every turn with garbage (mode 'garbage'), or with an illegal play
and then a draw after the host's error (mode 'retry')."""

import json
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "garbage"
pool = 1
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": mode}), flush=True)
    elif msg["type"] == "turn":
        pool = msg["observation"]["pool_size"]
        if mode == "garbage":
            print("this is not json {", flush=True)
        else:
            rack = msg["observation"]["rack"]
            print(json.dumps({"action": "play", "play": rack[:1], "table": [rack[:1]]}), flush=True)
    elif msg["type"] == "error" and msg.get("retry"):
        if mode == "garbage":
            print(json.dumps({"action": "dance"}), flush=True)
        else:
            print(json.dumps({"action": "draw"} if pool else {"action": "pass"}), flush=True)
