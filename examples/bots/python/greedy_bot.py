#!/usr/bin/env python3
"""A tilerace bot in Python: the standard library and Debian's python3-websockets.

It signs in with its API token, accepts every challenge, plays quick match in the bot queue
when asked, and reconnects when its connection drops. Its player is greedy: of the moves that
change the board, the one that scores most, then leaves most cells empty.

    python3 examples/bots/python/greedy_bot.py --token tb_... [--quick-match] [--races N]

docs/bots.md walks through it.
"""

import argparse
import asyncio
import json
import os
import sys

import websockets

DIRS = ("up", "down", "left", "right")


def slide_row(row):
    """Slides one row to the left: the new row and the points its merges made."""
    tiles = [v for v in row if v]
    out, gained, i = [], 0, 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(tiles[i] * 2)
            gained += tiles[i] * 2
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (len(row) - len(out)), gained


def slide(board, direction):
    """The board after a move in direction (no spawn), and the points it made."""
    n = len(board)
    if direction in ("left", "right"):
        rows = [list(r) if direction == "left" else list(reversed(r)) for r in board]
    else:
        cols = [[board[r][c] for r in range(n)] for c in range(n)]
        rows = cols if direction == "up" else [list(reversed(c)) for c in cols]
    moved, gained = [], 0
    for r in rows:
        new, g = slide_row(r)
        moved.append(new)
        gained += g
    if direction == "right":
        moved = [list(reversed(r)) for r in moved]
    elif direction in ("up", "down"):
        if direction == "down":
            moved = [list(reversed(c)) for c in moved]
        moved = [[moved[c][r] for c in range(n)] for r in range(n)]
    return moved, gained


def choose(board):
    """The greedy move for board, or None when no move changes it."""
    best, best_key = None, None
    for d in DIRS:
        after, gained = slide(board, d)
        if after == board:
            continue
        key = (gained, sum(v == 0 for row in after for v in row))
        if best_key is None or key > best_key:
            best, best_key = d, key
    return best


class Bot:
    def __init__(self, args):
        self.args = args
        self.races = 0
        self.me = None
        self.game = None  # my race game as last seen

    def done(self):
        return self.args.races and self.races >= self.args.races

    async def run(self):
        delay = 1
        while not self.done():
            try:
                async with websockets.connect(self.args.url) as ws:
                    delay = 1
                    await self.play(ws)
            except (OSError, websockets.ConnectionClosed) as e:
                print(f"connection lost ({e}); again in {delay} s", file=sys.stderr)
            if not self.done():
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30)

    async def send(self, ws, message):
        await ws.send(json.dumps(message))

    async def play(self, ws):
        await self.send(ws, {"type": "hello", "bot_token": self.args.token})
        async for text in ws:
            m = json.loads(text)
            kind = m.get("type")
            if kind == "welcome":
                self.me = m["player"]["id"]
                print(f"signed in as {m['player']['name']}", file=sys.stderr)
                if self.args.quick_match:
                    await self.send(ws, {"type": "quick_match"})
            elif kind == "error":
                if m.get("code") in ("bad_token", "banned"):
                    sys.exit(f"refused: {m.get('message')}")
                if m.get("code") == "rate_limited" and self.game:  # too fast: that move again
                    await asyncio.sleep(0.1)
                    await self.move(ws, self.game)
            elif kind == "challenged":
                await self.send(ws, {"type": "challenge_accept", "id": m["id"]})
            elif kind == "room":
                room = m["room"]
                mine = [p for p in room["players"] if p["id"] == self.me]
                if room["state"] == "waiting" and mine and not mine[0]["ready"]:
                    await self.send(ws, {"type": "ready", "ready": True})
            elif kind == "race_start":
                await self.move(ws, m["games"][self.me])
            elif kind == "moved":
                await self.move(ws, m)
            elif kind == "race_over":
                self.races += 1
                print(f"race over: {m['reason']}, winner {m.get('winner')}", file=sys.stderr)
                if self.done():
                    return
                if self.args.quick_match:
                    await self.send(ws, {"type": "leave_room"})
            elif kind == "left" and self.args.quick_match:
                await self.send(ws, {"type": "quick_match"})

    async def move(self, ws, game):
        self.game = game
        if game.get("state") != "playing":
            return
        d = choose(game["board"])
        if d is not None:
            await self.send(ws, {"type": "move", "dir": d})


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--url", default="ws://127.0.0.1:8080/ws")
    p.add_argument("--token", default=os.environ.get("TILERACE_BOT_TOKEN"))
    p.add_argument("--quick-match", action="store_true", help="play quick match in the bot queue")
    p.add_argument("--races", type=int, default=0, help="stop after this many races (0: never)")
    args = p.parse_args()
    if not args.token:
        p.error("--token (or TILERACE_BOT_TOKEN) is required")
    asyncio.run(Bot(args).run())


if __name__ == "__main__":
    main()
