"""Which shard of the task queue a game's jobs go to (:class:`api.worker.queue.TaskQueue`)."""

from __future__ import annotations

import hashlib


def shard_index(game_id: str, count: int) -> int:
    """The shard (0 to ``count`` - 1) of ``game_id``: a hash of the id, the same in every
    process (so ``QUEUE_URL`` must list the same shards in the same order everywhere)."""
    return int.from_bytes(hashlib.sha256(game_id.encode()).digest()[:8], "big") % count
