"""`gamehall backup` / `gamehall restore` of the embedded store (issue 20): a backup of a store with finished
and running matches restores into a fresh data dir where the matches are whole (verify passes, the running one
plays on); restore checks the backup and refuses to replace a store that a running process holds open."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from gamehall.cli.main import app
from gamehall.engine import get_game
from gamehall.matches.live import LiveMatch, LoggedAction, MatchFacts, SeatFacts
from gamehall.store import open_store
from gamehall.store.audit import audit_in
from gamehall.store.backup import BackupError, check_backup, restore, write_backup
from gamehall.store.migrations import latest_version
from tests.integration.store.helpers import log_action
from tests.integration.store.played import played_match

GAME = "grimslingers"
NO_NATS = "nats://127.0.0.1:1"
runner = CliRunner()


async def _cli(*args: str) -> Result:
    """The CLI (which runs its own event loop) from a thread of this async test."""
    return await asyncio.to_thread(runner.invoke, app, list(args))


async def _populated(data_dir: Path) -> tuple[str, str]:
    """(finished match id, running match id) in the SQLite store of `data_dir`."""
    store = await open_store(f"sqlite://{data_dir / 'gamehall.db'}")
    try:
        finished = await played_match(store, seed=1, game_id=GAME)
        running = await played_match(store, seed=3, moves=40, game_id=GAME)
        async with store._write() as tx:  # as if projected from a match log: a restore into a fresh log resets it
            await tx.execute("UPDATE matches SET log_seq = 77")
        assert (finished.status, running.status) == ("finished", "running")
        return finished.id, running.id
    finally:
        await store.close()


async def test_a_backup_restores_into_a_fresh_data_dir_with_every_match_whole(tmp_path: Path) -> None:
    source, fresh, folder = tmp_path / "live", tmp_path / "fresh", tmp_path / "backup"
    finished_id, running_id = await _populated(source)
    done = await _cli("backup", str(folder), "--data-dir", str(source), "--nats-url", NO_NATS)
    assert done.exit_code == 0, done.output
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["schema_version"] == latest_version() and manifest["matchlog"] == "absent"

    done = await _cli("restore", str(folder), "--data-dir", str(fresh))
    assert done.exit_code == 0, done.output
    store = await open_store(f"sqlite://{fresh / 'gamehall.db'}")
    try:
        assert (await audit_in(store, finished_id)).ok  # verify: seed commitment, every digest, the outcome
        running = await store.get_match(running_id)
        assert running.status == "running" and running.version == 40
        assert await store.log_head(running_id) == 0  # the fresh platform's match log starts empty
        game = get_game(GAME)
        snapshot = await store.latest_snapshot(running_id)
        tail = await store.get_actions(running_id, (snapshot.version if snapshot else 0) + 1)
        live = LiveMatch.rebuild(
            game,
            MatchFacts(running_id, GAME, "running", running.seed, running.config, (SeatFacts(0, "human"),) * 2),
            snapshot.state if snapshot else None,
            snapshot.version if snapshot else 0,
            [LoggedAction(a.version, a.seat, a.action["action"]) for a in tail],
        )
        seat = live.to_act[0]
        step = live.play(seat, live.legal(seat)[0], "after-restore", 0)
        # it plays on from where the backup left it: the fresh match log's first entry is projected at version 41
        appended = await log_action(
            store, running, 41, "after-restore", seat=seat, action=step.logged(), state_digest=step.digest, seq=1
        )
        assert appended.version == 41 and (await store.get_match(running_id)).version == 41
        (event,) = (await store.list_audit_events(action="store.restore")).events
        assert event.outcome == "OK"
    finally:
        await store.close()


async def test_restore_refuses_a_store_held_open_by_a_running_process_unless_forced(tmp_path: Path) -> None:
    source, folder = tmp_path / "live", tmp_path / "backup"
    await _populated(source)
    write_backup(source / "gamehall.db", folder, matchlog="projected")
    target = tmp_path / "running" / "gamehall.db"
    target.parent.mkdir()
    sqlite3.connect(target).execute("CREATE TABLE t (x)").connection.commit()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import sqlite3, time; c = sqlite3.connect({str(target)!r}); print('held', flush=True); time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(BackupError, match="in use by running processes"):
            restore(folder, target, jetstream=tmp_path / "running" / "jetstream")
        manifest, moved = restore(folder, target, jetstream=tmp_path / "running" / "jetstream", force=True)
        assert manifest.matchlog == "projected"
        (aside,) = moved  # the replaced store is kept beside, never deleted
        assert aside.name.startswith("gamehall.db.before-restore-") and aside.exists()
        assert sqlite3.connect(target).execute("SELECT COUNT(*) FROM matches").fetchone() == (2,)
    finally:
        holder.kill()
        holder.wait()


async def test_restore_refuses_a_damaged_backup_and_a_newer_schema(tmp_path: Path) -> None:
    source = tmp_path / "live"
    await _populated(source)
    damaged, newer = tmp_path / "damaged", tmp_path / "newer"
    write_backup(source / "gamehall.db", damaged, matchlog="projected")
    with (damaged / "gamehall.db").open("r+b") as f:
        f.seek(5000)
        f.write(b"\xff" * 64)
    with pytest.raises(BackupError, match="digest"):
        check_backup(damaged)
    write_backup(source / "gamehall.db", newer, matchlog="projected")
    conn = sqlite3.connect(newer / "gamehall.db")
    with conn:
        conn.execute("INSERT INTO schema_migrations VALUES (?, 'from the future', '2099')", (latest_version() + 1,))
    conn.close()
    manifest = json.loads((newer / "manifest.json").read_text())
    from gamehall.store.backup import digest

    manifest["db_sha256"] = digest(newer / "gamehall.db")
    (newer / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(BackupError, match="newer than this code"):
        check_backup(newer)
    done = await _cli("restore", str(newer), "--data-dir", str(tmp_path / "elsewhere"))
    assert done.exit_code == 1 and "newer than this code" in done.output


def test_postgresql_is_pointed_to_pg_dump(tmp_path: Path) -> None:
    done = runner.invoke(
        app, ["backup", str(tmp_path / "b"), "--database-url", "postgresql://x@localhost/db", "--nats-url", NO_NATS]
    )
    assert done.exit_code == 1 and "pg_dump" in done.output


async def test_a_stopped_platforms_backup_carries_its_match_log(tmp_path: Path) -> None:
    """No NATS answering and nobody holding the JetStream folder: its files are at rest and are copied; the
    restore puts them back and keeps each match's log position, so unprojected entries project on start."""
    source, fresh, folder = tmp_path / "live", tmp_path / "fresh", tmp_path / "backup"
    _, running_id = await _populated(source)
    (source / "jetstream" / "jetstream" / "GAMEHALL_MATCHLOG").mkdir(parents=True)
    (source / "jetstream" / "jetstream" / "GAMEHALL_MATCHLOG" / "1.blk").write_bytes(b"entries")
    done = await _cli("backup", str(folder), "--data-dir", str(source), "--nats-url", NO_NATS)
    assert done.exit_code == 0, done.output
    assert json.loads((folder / "manifest.json").read_text())["matchlog"] == "copied"
    done = await _cli("restore", str(folder), "--data-dir", str(fresh))
    assert done.exit_code == 0, done.output
    assert (fresh / "jetstream" / "jetstream" / "GAMEHALL_MATCHLOG" / "1.blk").read_bytes() == b"entries"
    store = await open_store(f"sqlite://{fresh / 'gamehall.db'}")
    try:
        assert await store.log_head(running_id) == 77
    finally:
        await store.close()
