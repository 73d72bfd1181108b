"""AIP-158 page tokens: opaque, bound to their list and filters, refused with INVALID_PAGE_TOKEN otherwise."""

from __future__ import annotations

import base64
import json

import grpc
import pytest

from gamehall.runtime.errors import ClientError
from gamehall.wire import pages
from gamehall_sdk.v1 import common_pb2

FILTERS = {"game": "grimmoir", "status": 2, "mine": False}


def test_a_list_is_walked_page_by_page_to_the_end() -> None:
    items, token, seen = list(range(23)), "", []
    while True:
        page, token = pages.offset_page(items, 10, token, "things", FILTERS)
        seen.append(page)
        if not token:
            break
    assert [len(p) for p in seen] == [10, 10, 3] and [x for p in seen for x in p] == items


def test_an_exact_last_page_has_no_next_token() -> None:
    assert pages.offset_page(list(range(10)), 10, "", "things", FILTERS) == (list(range(10)), "")


def test_a_token_reused_with_other_filters_or_another_list_is_refused() -> None:
    _, token = pages.offset_page(list(range(30)), 10, "", "things", FILTERS)
    for list_name, filters in (("things", {**FILTERS, "game": "grimslingers"}), ("other", FILTERS)):
        with pytest.raises(ClientError) as caught:
            pages.offset_page(list(range(30)), 10, token, list_name, filters)
        error = caught.value
        assert error.code == grpc.StatusCode.INVALID_ARGUMENT
        assert (error.reason, error.field) == (common_pb2.ERROR_REASON_INVALID_PAGE_TOKEN, "page_token")


@pytest.mark.parametrize(
    "token",
    [
        "not base64 at all!",
        base64.urlsafe_b64encode(b"[1, 2]").decode(),
        base64.urlsafe_b64encode(json.dumps({"c": -4, "f": "x"}).encode()).decode(),
    ],
)
def test_a_forged_or_garbled_token_is_refused(token: str) -> None:
    with pytest.raises(ClientError) as caught:
        pages.offset_page(list(range(30)), 10, token, "things", FILTERS)
    assert caught.value.reason == common_pb2.ERROR_REASON_INVALID_PAGE_TOKEN


def test_a_forged_offset_with_the_right_digest_is_still_an_int_cursor_only() -> None:
    """A store cursor (a string) in a token of an offset list is refused, not used as an offset."""
    token = pages.encode_token("2026-01-01:abc", "things", FILTERS)
    assert pages.decode_token(token, "things", FILTERS) == "2026-01-01:abc"
    with pytest.raises(ClientError):
        pages.offset_page(list(range(30)), 10, token, "things", FILTERS)


def test_page_sizes_default_cap_and_refuse_negatives() -> None:
    spec = pages.PageSpec(default=50, maximum=200)
    assert (pages.page_size(0, spec), pages.page_size(7, spec), pages.page_size(10_000, spec)) == (50, 7, 200)
    with pytest.raises(ClientError) as caught:
        pages.page_size(-1, spec)
    assert caught.value.field == "page_size"


def test_tokens_are_opaque_url_safe_text() -> None:
    token = pages.encode_token(120, "matches", FILTERS)
    assert token.isascii() and "=" not in token and " " not in token and len(token) < 200


def _refused_reason(token: str, filters: dict[str, object] = FILTERS) -> int:
    with pytest.raises(ClientError) as caught:
        pages.offset_page(list(range(300)), 10, token, "things", filters)
    assert (caught.value.code, caught.value.field) == (grpc.StatusCode.INVALID_ARGUMENT, "page_token")
    return caught.value.reason


def test_an_edited_token_is_refused() -> None:
    """Issue 39: tokens were unsigned base64 JSON, so an edited offset was accepted. Now the offset is under an
    HMAC: re-encoding another offset with the right digest, or changing any character, is INVALID_ARGUMENT."""
    _, token = pages.offset_page(list(range(300)), 10, "", "things", FILTERS)
    body, _, mac = token.partition(".")
    data = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    assert data["c"] == 10 and mac
    data["c"] = 250
    edited = base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).decode().rstrip("=")
    for forged in (f"{edited}.{mac}", edited, f"{body}.{mac[:-1]}{'A' if mac[-1] != 'A' else 'B'}", body):
        assert _refused_reason(forged) == common_pb2.ERROR_REASON_INVALID_PAGE_TOKEN


def test_a_token_is_bound_to_the_caller_and_to_the_platform_key() -> None:
    mine = {**FILTERS, "caller": "acc-1"}
    _, token = pages.offset_page(list(range(300)), 10, "", "things", mine)
    assert _refused_reason(token, {**FILTERS, "caller": "acc-2"}) == common_pb2.ERROR_REASON_INVALID_PAGE_TOKEN
    saved = pages._key
    try:
        pages.use_key("the platform's token signing key, shared by every replica")
        _, shared = pages.offset_page(list(range(300)), 10, "", "things", mine)
        pages.use_key("the platform's token signing key, shared by every replica")  # another replica, same key
        assert pages.offset_page(list(range(300)), 10, shared, "things", mine)[0] == list(range(10, 20))
        pages.use_key("another platform's key")
        assert _refused_reason(shared, mine) == common_pb2.ERROR_REASON_INVALID_PAGE_TOKEN
    finally:
        pages._key = saved
