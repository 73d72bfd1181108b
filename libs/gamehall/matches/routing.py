"""Which rules replica owns a match: rendezvous (highest-random-weight) hashing of the match id.

Every gateway computes the same owner from the same replica list with no coordination, and when
a replica leaves or joins only the matches it owned (or wins) move. Ownership is only for a warm
cache: correctness comes from the log's compare-and-swap, so two gateways that briefly disagree
cost a reload, never a fork.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence


def _weight(match_id: str, replica: str) -> int:
    digest = hashlib.blake2b(f"{replica}\x00{match_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def rank_replicas(match_id: str, replicas: Sequence[str]) -> list[str]:
    """The replicas in the order a match should try them: owner first, then its successors."""
    return sorted(set(replicas), key=lambda r: (_weight(match_id, r), r), reverse=True)


def owner_of(match_id: str, replicas: Sequence[str]) -> str:
    """The replica that owns `match_id` (ValueError when there is none)."""
    if not replicas:
        raise ValueError("no replica to route to")
    return max(set(replicas), key=lambda r: (_weight(match_id, r), r))


__all__ = ["owner_of", "rank_replicas"]
