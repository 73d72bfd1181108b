"""The launcher's JetStream cluster: three nats-servers elect leaders, a replicated stream keeps taking
writes when its leader is SIGKILLed, and the node restarts on its store and catches up."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import nats
from nats.js import api

from gamehall.launcher.nats_cluster import NatsCluster, healthz


async def _publish_all(url: str, start: int, count: int) -> None:
    nc = await nats.connect(servers=url.split(","), reconnect_time_wait=0.2)
    try:
        js = nc.jetstream()
        for i in range(start, start + count):
            for _ in range(100):  # a leader election in progress answers no one for a moment
                try:
                    await js.publish("probe.x", str(i).encode(), headers={"Nats-Msg-Id": str(i)}, timeout=1)
                    break
                except Exception:
                    await asyncio.sleep(0.1)
            else:
                raise AssertionError(f"message {i} was never acknowledged")
    finally:
        await nc.close()


async def _stream(url: str, create: bool = False) -> api.StreamInfo:
    nc = await nats.connect(servers=url.split(","))
    try:
        js = nc.jetstream()
        if create:
            await js.add_stream(api.StreamConfig(name="PROBE", subjects=["probe.>"], num_replicas=3))
        return await js.stream_info("PROBE")
    finally:
        await nc.close()


def test_a_replicated_stream_survives_its_leader_killed(tmp_path: Path) -> None:
    cluster = NatsCluster(tmp_path, 3, logs=tmp_path)
    cluster.start()
    try:
        assert len(cluster.url.split(",")) == 3
        info = asyncio.run(_stream(cluster.url, create=True))
        assert info.config.num_replicas == 3
        asyncio.run(_publish_all(cluster.url, 0, 20))
        leader = cluster.leader_of("PROBE")
        assert leader is not None
        cluster.kill(leader)
        assert not cluster.node(leader).child.alive() and cluster.dead() == [f"nats-server-{leader}"]
        asyncio.run(_publish_all(cluster.url, 20, 20))  # two nodes of three still form a quorum
        assert asyncio.run(_stream(cluster.url)).state.messages == 40
        cluster.start_node(leader)  # returns once /healthz says it is current
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and cluster.leader_of("PROBE") is None:
            time.sleep(0.2)
        assert healthz(cluster.node(leader).monitor_port)() and cluster.dead() == []
        info = asyncio.run(_stream(cluster.url))
        assert info.state.messages == 40
        while time.monotonic() < deadline and not all(p.current for p in info.cluster.replicas or []):
            time.sleep(0.2)  # the restarted replica catches up from the leader
            info = asyncio.run(_stream(cluster.url))
        assert info.cluster is not None and len(info.cluster.replicas or []) == 2
        assert all(peer.current for peer in info.cluster.replicas or []), info.cluster
    finally:
        cluster.stop()
