"""A login with a hash made by weaker argon2 parameters stores a fresh one (Passwords.needs_rehash at work)."""

from __future__ import annotations

import uuid

import argon2
import grpc

from gamehall.auth import Passwords
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.internal.v1 import persistence_pb2_grpc
from gamehall_sdk.v1 import auth_pb2
from tests.e2e.conftest import Running

PASSWORD = "an old but long passphrase"


def test_login_upgrades_a_hash_made_with_weaker_parameters(platform: Running) -> None:
    persistence_address = platform.platform.service("persistence").address  # skips on the container backend
    weak = argon2.PasswordHasher(time_cost=1, memory_cost=8 * 1024, parallelism=1).hash(PASSWORD)
    name = f"old-{uuid.uuid4().hex[:8]}"
    with grpc.insecure_channel(persistence_address) as channel:
        store = persistence_pb2_grpc.PersistenceServiceStub(channel)
        store.CreateAccount(ppb.CreateAccountRequest(username=name, password_hash=weak, role="player"), timeout=20)
        assert Passwords().needs_rehash(weak)
        logged = platform.client().auth.Login(auth_pb2.LoginRequest(username=name, password=PASSWORD), timeout=30)
        assert logged.account.username == name
        stored = store.GetAccount(ppb.GetAccountRequest(username=name), timeout=20).account.password_hash
    assert stored != weak and not Passwords().needs_rehash(stored)
    assert Passwords().verify(stored, PASSWORD)
    again = platform.client().auth.Login(auth_pb2.LoginRequest(username=name, password=PASSWORD), timeout=30)
    assert again.account.id == logged.account.id
