"""A player on a real server's socket (a websockets connection, not Channels' communicator):
for the tests that start server processes (two servers; the cluster behind nginx)."""

from __future__ import annotations

import asyncio
import json


class Player:
    def __init__(self, socket, name: str) -> None:
        self.socket = socket
        self.name = name
        self.frames: list[dict] = []
        self.next_id = 0

    async def until(self, test, timeout: float = 15.0) -> dict:
        async def wait() -> dict:
            while True:
                frame = json.loads(await self.socket.recv())
                self.frames.append(frame)
                if test(frame):
                    return frame

        return await asyncio.wait_for(wait(), timeout)

    async def act(self, **action) -> dict:
        self.next_id += 1
        ident = f"{self.name}-{self.next_id}"
        await self.socket.send(json.dumps({"type": "action", "id": ident, "action": action}))
        return await self.until(lambda f: f.get("id") == ident)


def legal(frame: dict, kind: str) -> bool:
    you = frame.get("you") or {}
    return frame.get("type") == "state" and any(
        a["kind"] == kind for a in you.get("legal_actions", [])
    )
