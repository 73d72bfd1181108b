"""open → running inside a transaction that already holds the match row's lock: shared by `start_match`
and by a seat claim that fills the match, so a join that takes the last seat starts the match in the
same commit (no crash or cancelled call can leave a full match open)."""

from __future__ import annotations

from gamehall.store.deadlines import next_deadline_ms
from gamehall.store.transaction import Tx


async def mark_running(tx: Tx, match_id: str, clock: str | None, clock_state_json: str | None) -> None:
    """Set the match running, with `clock_state_json` as its clock state when given (else the stored one
    stays), and its next clock deadline indexed (what a rules replica arms its timers from)."""
    if clock_state_json is None:
        row = await tx.fetchrow("SELECT clock_state FROM matches WHERE id = ?", match_id)
        deadline = next_deadline_ms(clock, row["clock_state"] if row is not None else None)
        await tx.execute("UPDATE matches SET status = 'running', next_deadline_ms = ? WHERE id = ?", deadline, match_id)
        return
    await tx.execute(
        "UPDATE matches SET status = 'running', clock_state = ?, next_deadline_ms = ? WHERE id = ?",
        clock_state_json,
        next_deadline_ms(clock, clock_state_json),
        match_id,
    )


async def is_full(tx: Tx, match_id: str) -> bool:
    """Every seat of the match is held by a person or a bot (none open, none only reserved)."""
    row = await tx.fetchrow(
        "SELECT COUNT(*) AS n FROM seats WHERE match_id = ? AND kind NOT IN ('human', 'bot')", match_id
    )
    return row is not None and int(row["n"]) == 0


__all__ = ["is_full", "mark_running"]
