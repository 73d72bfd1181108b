"""A store's database text never reaches a client through an upstream error (issue 20, finding 9)."""

from __future__ import annotations

import grpc

from gamehall.runtime.errors import ClientError
from gamehall.runtime.upstream import public_message, translate


def test_database_words_are_cut_from_messages() -> None:
    sqlite = "a referenced account or match does not exist (FOREIGN KEY constraint failed)"
    postgres = (
        'a referenced account or match does not exist (Key (account_id)=(u-1) is not present in table "accounts".)'
    )
    assert public_message(sqlite) == public_message(postgres) == "a referenced account or match does not exist"
    assert public_message("already exists (UNIQUE constraint failed: accounts.username)") == "already exists"
    assert public_message("FOREIGN KEY constraint failed") == "the request conflicts with stored data"
    assert public_message("no match 'abc' (it was purged)") == "no match 'abc' (it was purged)"


def test_translate_passes_the_status_with_the_clean_message() -> None:
    upstream = grpc.aio.AioRpcError(
        grpc.StatusCode.NOT_FOUND,
        grpc.aio.Metadata(),
        grpc.aio.Metadata(),
        details="a referenced account or match does not exist (FOREIGN KEY constraint failed)",
    )
    error = translate(upstream)
    assert isinstance(error, ClientError) and error.code == grpc.StatusCode.NOT_FOUND
    assert "FOREIGN" not in error.message
