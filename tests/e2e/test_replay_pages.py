"""GetReplay is paged (AIP-158): a long finished match's replay comes a page at a time, in order, with the
initial view on the first page only; a client that sends no page_size (a v1 client from before paging) gets the
default first page and a token; tokens are bound to their match."""

from __future__ import annotations

import json
import time

import grpc
import pytest
from grpc_status import rpc_status

from gamehall_sdk import Gamehall
from gamehall_sdk.v1 import match_pb2
from tests.e2e.client import Client
from tests.e2e.conftest import Running

DEFAULT_PAGE = 50


def _bots_play_out(platform: Running, creator: Client) -> tuple[str, int]:
    """A public GrimmoiR duel of two random bots, played to its end by the ai; returns its id and last version."""
    seats = [match_pb2.SeatSpec(bot="random"), match_pb2.SeatSpec(bot="random")]
    match = creator.call("CreateMatch", match_pb2.CreateMatchRequest(game="grimmoir", seats=seats, public=True)).match
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        found = creator.match(match.id)
        if found.status == match_pb2.MATCH_STATUS_FINISHED:
            return match.id, int(found.version)
        time.sleep(0.2)
    raise AssertionError(f"match {match.id} did not finish")


@pytest.fixture(scope="module")
def long_match(platform: Running) -> tuple[Client, Client, str, int]:
    alice, bob = platform.player(), platform.player()
    for _ in range(5):  # a random duel of GrimmoiR runs 90-220 steps; make sure it passes one default page
        match_id, last = _bots_play_out(platform, alice)
        if last > DEFAULT_PAGE:
            return alice, bob, match_id, last
    raise AssertionError("no match longer than one default page")


def _get(client: Client, request: match_pb2.GetReplayRequest) -> match_pb2.GetReplayResponse:
    return client.call("GetReplay", request)  # type: ignore[no-any-return]


def test_a_replay_longer_than_a_page_comes_in_order_page_by_page(long_match: tuple[Client, Client, str, int]) -> None:
    alice, _, match_id, last = long_match
    first = _get(alice, match_pb2.GetReplayRequest(match_id=match_id))  # no page_size: an old client
    assert first.complete and len(first.steps) == DEFAULT_PAGE and first.next_page_token
    assert first.initial_view_json and first.match.id == match_id
    assert [s.version for s in first.steps] == list(range(1, DEFAULT_PAGE + 1))

    request = match_pb2.GetReplayRequest(match_id=match_id, page_size=7)
    paged: list[match_pb2.ReplayStep] = []
    count = 0
    while True:
        page = _get(alice, request)
        count += 1
        assert 1 <= len(page.steps) <= 7 and page.complete
        assert bool(page.initial_view_json) == (count == 1)
        paged += page.steps
        if not page.next_page_token:
            break
        request.page_token = page.next_page_token
    assert count == -(-last // 7)
    assert [s.version for s in paged] == list(range(1, last + 1))
    assert [json.loads(s.view_json) for s in paged[:DEFAULT_PAGE]] == [json.loads(s.view_json) for s in first.steps]
    assert all(s.action.id for s in paged)  # a finished match shows every action

    whole = _get(alice, match_pb2.GetReplayRequest(match_id=match_id, page_size=100_000))  # lowered to 500
    assert len(whole.steps) == last and not whole.next_page_token


def test_replay_tokens_are_bound_to_their_match_and_sizes_checked(
    long_match: tuple[Client, Client, str, int], platform: Running
) -> None:
    alice, _, match_id, _ = long_match
    token = _get(alice, match_pb2.GetReplayRequest(match_id=match_id, page_size=2)).next_page_token
    other = alice.create("grimmoir", join_seat=0, public=True).id
    for request in (
        match_pb2.GetReplayRequest(match_id=other, page_token=token),
        match_pb2.GetReplayRequest(match_id=match_id, page_token="bm90LWEtdG9rZW4"),
        match_pb2.GetReplayRequest(match_id=match_id, page_size=-1),
    ):
        with pytest.raises(grpc.RpcError) as refused:
            _get(alice, request)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]
    status = rpc_status.from_call(refused.value)  # type: ignore[arg-type]
    assert status is not None


async def test_the_sdk_joins_every_page_of_a_replay(
    long_match: tuple[Client, Client, str, int], platform: Running
) -> None:
    alice, _, match_id, last = long_match
    async with Gamehall.connect(platform.address) as hall:
        hall.token = alice.token
        joined = await hall.matches.replay(match_id, page_size=9)
        assert joined.complete and joined.initial_view_json and not joined.next_page_token
        assert [s.version for s in joined.steps] == list(range(1, last + 1))
        sizes = [len(p.steps) async for p in hall.matches.replay_pages(match_id)]
        assert sizes[0] == DEFAULT_PAGE and sum(sizes) == last
