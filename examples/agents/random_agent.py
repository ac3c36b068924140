#!/usr/bin/env python3
"""A seat played by a program: a random legal action each decision (Python, standard library only).

    castell simulate --bots "cmd:python3 examples/agents/random_agent.py",greedy -p 2 -n 10

It reads the JSON-lines protocol on standard input (docs/agents.md): a `hello` first (its
`seat` and `bot_seed`), a `state` for each of its decisions, a `result` at the end; it writes
one line per `state`, `{"action": TEXT}`. Seeded by `bot_seed`, it plays the same game every
time, so simulations stay reproducible. Diagnostics go to standard error, never to stdout.
"""

import json
import random
import sys


def main() -> None:
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            rng = random.Random(message["bot_seed"])
        elif kind == "state":
            actions = message["legal_actions"]
            print(json.dumps({"action": rng.choice(actions)}), flush=True)
        elif kind == "result":
            winners = message["result"]["winners"]
            print(f"random_agent: game over, winners {winners}", file=sys.stderr)


if __name__ == "__main__":
    main()
