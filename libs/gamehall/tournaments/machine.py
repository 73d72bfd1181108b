"""The tournament state machine: every transition validates, raises a named error or returns a new Tournament.

    registration --start--> running <--pause/resume--> paused
    running --next_round (last round done / champion known)--> finished
    registration|running|paused --cancel--> cancelled

The service turns `current_pairings` into matches, feeds outcomes back with `record_result` /
`record_forfeit`, and calls `next_round` once `round_complete`. Inputs are never mutated.
"""

from __future__ import annotations

import bisect
import math
from collections import defaultdict
from collections.abc import Sequence

import msgspec

from gamehall.tournaments import elimination, pods, swiss
from gamehall.tournaments.errors import (
    AlreadyRegistered,
    IllegalTransition,
    InvalidConfig,
    InvalidResult,
    NotRegistered,
    RegistrationClosed,
    ResultAlreadyRecorded,
    RoundNotComplete,
    TooFewPlayers,
    TournamentFull,
    UnknownPairing,
)
from gamehall.tournaments.model import (
    BYE,
    Entrant,
    Forfeit,
    Pairing,
    Result,
    Tournament,
    TournamentConfig,
)
from gamehall.tournaments.round_robin import berger_rounds
from gamehall.tournaments.standings import games_of, points_of

_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(Tournament)
ELIMINATION = ("single-elimination", "double-elimination")
MIN_PLAYERS = {"swiss": 2, "round-robin": 2, "single-elimination": 2, "double-elimination": 3, "pods": 2}


def encode(tournament: Tournament) -> bytes:
    """Stable msgpack bytes for persistence."""
    return _ENCODER.encode(tournament)


def decode(data: bytes) -> Tournament:
    return _DECODER.decode(data)


def _copy(tournament: Tournament) -> Tournament:
    return _DECODER.decode(_ENCODER.encode(tournament))


def _require(tournament: Tournament, *statuses: str, action: str) -> None:
    if tournament.status not in statuses:
        raise IllegalTransition(f"cannot {action}: the tournament is {tournament.status}")


# ------------------------------------------------------------------ registration
def create(tournament_id: str, config: TournamentConfig) -> Tournament:
    """A new tournament in registration; raises InvalidConfig."""
    if config.registration_closes < config.registration_opens:
        raise InvalidConfig("registration closes before it opens")
    if config.format == "pods":
        if config.seats < 2:
            raise InvalidConfig("pods need at least 2 seats")
        if len(config.scoring.placement) < config.seats:
            raise InvalidConfig(f"the placement table needs {config.seats} entries")
        if config.min_pod and not 2 <= config.min_pod <= config.seats:
            raise InvalidConfig("min_pod must be between 2 and seats")
    elif config.seats != 2:
        raise InvalidConfig(f"{config.format} is played two seats a match; use the pods format for {config.seats}")
    if config.rounds < 0 or config.max_players < 0:
        raise InvalidConfig("rounds and max_players must not be negative")
    return Tournament(id=tournament_id, config=config)


def _entrant(tournament: Tournament, player: str) -> Entrant:
    for e in tournament.entrants:
        if e.player == player:
            return e
    raise NotRegistered(f"{player!r} is not registered in {tournament.id}")


def register(tournament: Tournament, player: str, rating: float, now: float, name: str = "") -> Tournament:
    """Add a player (`name`: the username shown for it) while registration is open; raises
    RegistrationClosed, TournamentFull, AlreadyRegistered."""
    cfg = tournament.config
    if tournament.status != "registration" or not cfg.registration_opens <= now <= cfg.registration_closes:
        raise RegistrationClosed(f"registration for {tournament.id} is not open")
    if any(e.player == player for e in tournament.entrants):
        raise AlreadyRegistered(f"{player!r} is already registered")
    if cfg.max_players and len(tournament.entrants) >= cfg.max_players:
        raise TournamentFull(f"{tournament.id} is full ({cfg.max_players} players)")
    out = _copy(tournament)
    out.entrants.append(Entrant(player, float(rating), now, name=name))
    return out


def unregister(tournament: Tournament, player: str) -> Tournament:
    """Remove a player before the start; raises NotRegistered or IllegalTransition."""
    _require(tournament, "registration", action="unregister")
    _entrant(tournament, player)
    out = _copy(tournament)
    out.entrants = [e for e in out.entrants if e.player != player]
    return out


def check_in(tournament: Tournament, player: str) -> Tournament:
    """Confirm a registered player will play; raises NotRegistered or IllegalTransition."""
    _require(tournament, "registration", action="check in")
    _entrant(tournament, player)
    out = _copy(tournament)
    _entrant(out, player).checked_in = True
    return out


# ------------------------------------------------------------------ start and rounds
def start(tournament: Tournament, now: float) -> Tournament:
    """Seed the (checked-in) players by rating and pair round 1; raises TooFewPlayers."""
    _require(tournament, "registration", action="start")
    cfg = tournament.config
    out = _copy(tournament)
    playing = [e for e in out.entrants if e.checked_in or not cfg.check_in]
    needed = MIN_PLAYERS[cfg.format] if cfg.format != "pods" else (cfg.min_pod or cfg.seats)
    if len(playing) < needed:
        raise TooFewPlayers(f"{cfg.format} needs {needed} players, {len(playing)} are ready")
    out.entrants = sorted(playing, key=lambda e: (-e.rating, e.registered_at, e.player))
    for k, e in enumerate(out.entrants):
        e.seed = k + 1
    seeded = [e.player for e in out.entrants]
    n = len(seeded)
    if cfg.format == "swiss":
        out.rounds_planned = cfg.rounds or max(1, math.ceil(math.log2(n)))
    elif cfg.format == "pods":
        out.rounds_planned = cfg.rounds or max(1, math.ceil(math.log(n, cfg.seats)) + 1)
    elif cfg.format == "round-robin":
        out.schedule = [[list(pair) for pair in rnd] for rnd in berger_rounds(seeded)]
        out.rounds_planned = len(out.schedule)
    elif cfg.format == "single-elimination":
        out.bracket = elimination.single_elimination(seeded)
    else:
        out.bracket = elimination.double_elimination(seeded)
    out.status = "running"
    _open_round(out)
    return out


def current_pairings(tournament: Tournament) -> list[Pairing]:
    """The current round's pairings still waiting for a result (what the service starts as matches)."""
    return [p for p in tournament.pairings if p.round == tournament.round and p.result is None]


def round_pairings(tournament: Tournament, round_no: int | None = None) -> list[Pairing]:
    """Every pairing of a round (default: the current one), byes included."""
    wanted = tournament.round if round_no is None else round_no
    return [p for p in tournament.pairings if p.round == wanted]


def round_complete(tournament: Tournament) -> bool:
    return tournament.status in ("running", "paused") and not current_pairings(tournament)


def next_round(tournament: Tournament) -> Tournament:
    """Pair the next round once the current one is complete, or finish the tournament."""
    _require(tournament, "running", action="start the next round")
    if current_pairings(tournament):
        raise RoundNotComplete(f"round {tournament.round} still has pairings without a result")
    out = _copy(tournament)
    if _done(out):
        out.status = "finished"
        return out
    _open_round(out)
    if not round_pairings(out) and _done(out):
        out.status = "finished"
    return out


def _done(t: Tournament) -> bool:
    if t.config.format in ELIMINATION:
        return elimination.champion(t.bracket) is not None
    active = [e for e in t.entrants if not e.dropped]
    return t.round >= t.rounds_planned or len(active) < 2


def _open_round(t: Tournament) -> None:
    """Append the next round's pairings to `t` (in place, on a copy)."""
    t.round += 1
    fmt = t.config.format
    if fmt == "swiss":
        _pair_swiss(t)
    elif fmt == "pods":
        _pair_pods(t)
    elif fmt == "round-robin":
        _pair_round_robin(t)
    else:
        _pair_bracket(t)


def _add(t: Tournament, players: list[str], bracket: str = "", result: Result | None = None) -> Pairing:
    # Pairings are appended in round order (a re-pair drops its round first), so this round's are the last
    # ones: found by bisection, not by a scan of every pairing per table (quadratic in a big Swiss).
    table = len(t.pairings) - bisect.bisect_left(t.pairings, t.round, key=lambda p: p.round) + 1
    pairing = Pairing(f"{t.id}:r{t.round}:t{table}", t.round, table, players, bracket, result)
    t.pairings.append(pairing)
    return pairing


def _history(t: Tournament) -> tuple[dict[str, set[str]], set[str], dict[str, list[int]]]:
    opponents: dict[str, set[str]] = defaultdict(set)
    byes: set[str] = set()
    seats: dict[str, list[int]] = defaultdict(list)
    for p in t.pairings:
        if p.is_bye:
            byes.add(p.players[0])
            continue
        for k, player in enumerate(p.players):
            opponents[player].update(x for x in p.players if x != player)
            seats[player].append(k)
    return opponents, byes, seats


def _pair_swiss(t: Tournament) -> None:
    opponents, byes, seats = _history(t)
    points = points_of(games_of(t), (e.player for e in t.entrants))
    players = [
        swiss.SwissPlayer(
            e.player,
            points[e.player],
            e.seed,
            frozenset(opponents[e.player]),
            e.player in byes,
            sum(1 if s == 0 else -1 for s in seats[e.player]),
            seats[e.player][-1] if seats[e.player] else -1,
        )
        for e in t.entrants
        if not e.dropped
    ]
    pairs, bye = swiss.pair_round(players)
    for a, b in pairs:
        _add(t, [a, b])
    if bye is not None:
        _add(t, [bye], result=Result((1,)))


def _pair_pods(t: Tournament) -> None:
    cfg = t.config
    points = points_of(games_of(t), (e.player for e in t.entrants))
    active = sorted((e for e in t.entrants if not e.dropped), key=lambda e: (-points[e.player], e.seed))
    met: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    first_seats: dict[str, int] = defaultdict(int)
    for p in t.pairings:
        if p.is_bye:
            continue
        first_seats[p.players[0]] += 1
        for a in p.players:
            for b in p.players:
                if a != b:
                    met[a][b] += 1
    groups, byes = pods.seat_pods([e.player for e in active], cfg.seats, cfg.min_pod or cfg.seats, met, first_seats)
    for group in groups:
        _add(t, group)
    for player in byes:
        _add(t, [player], result=Result((1,)))


def _pair_round_robin(t: Tournament) -> None:
    dropped = {e.player for e in t.entrants if e.dropped}
    for a, b in t.schedule[t.round - 1]:
        if BYE in (a, b):
            _add(t, [b if a == BYE else a], result=Result((1,)))
            continue
        pairing = _add(t, [a, b])
        out = [p for p in (a, b) if p in dropped]
        if out:
            pairing.result = _forfeit_result(pairing.players, out, "no-show")


def _pair_bracket(t: Tournament) -> None:
    dropped = {e.player for e in t.entrants if e.dropped}
    elimination.resolve_byes(t.bracket, dropped)
    for match in elimination.ready(t.bracket):
        match.released = True
        _add(t, list(match.players), bracket=match.id)


# ------------------------------------------------------------------ results
def _find(t: Tournament, pairing_id: str) -> Pairing:
    for p in t.pairings:
        if p.id == pairing_id:
            return p
    raise UnknownPairing(f"no pairing {pairing_id!r} in {t.id}")


def knockout_ranks(tournament: Tournament, pairing: Pairing, ranks: Sequence[int]) -> list[int]:
    """The ranks to record for a played game: in an elimination format a drawn game sends the better
    seed through (a knockout needs a winner); anything else is recorded as played."""
    checked = [int(r) for r in ranks]
    if tournament.config.format not in ELIMINATION or len(set(checked)) != 1 or len(pairing.players) != 2:
        return checked
    seed = {e.player: e.seed for e in tournament.entrants}
    first, second = pairing.players
    return [1, 2] if seed.get(first, 0) <= seed.get(second, 0) else [2, 1]


def _check_ranks(t: Tournament, pairing: Pairing, ranks: Sequence[int]) -> tuple[int, ...]:
    n = len(pairing.players)
    if pairing.is_bye:
        raise InvalidResult("a bye has no result to report")
    if len(ranks) != n or any(not isinstance(r, int) or not 1 <= r <= n for r in ranks):
        raise InvalidResult(f"{pairing.id} needs {n} ranks between 1 and {n}")
    if t.config.format in ELIMINATION and sorted(ranks) != [1, 2]:
        raise InvalidResult("an elimination match needs a winner")
    return tuple(ranks)


def _forfeit_result(players: Sequence[str], absent: Sequence[str], reason: Forfeit) -> Result:
    if len(absent) == len(players):
        return Result(tuple(len(players) for _ in players), tuple(absent), reason)
    present_rank = 1
    return Result(tuple(len(players) if p in absent else present_rank for p in players), tuple(absent), reason)


def _set_result(t: Tournament, pairing: Pairing, result: Result) -> None:
    pairing.result = result
    if not pairing.bracket:
        return
    by_id = {m.id: m for m in t.bracket}
    match = by_id[pairing.bracket]
    if len(result.forfeited) == len(pairing.players):
        # Both absent: the better seed goes through, the other is out (no empty slot downstream).
        seed = {e.player: e.seed for e in t.entrants}
        winner, loser = sorted(pairing.players, key=lambda p: seed.get(p, 0))
    else:
        k = result.ranks.index(1)
        winner, loser = pairing.players[k], pairing.players[1 - k]
    elimination.set_winner(by_id, match, winner, loser)


def _check_running(t: Tournament, action: str) -> None:
    if t.status == "paused":
        raise IllegalTransition(f"cannot {action}: the tournament is paused")
    _require(t, "running", action=action)


def record_result(tournament: Tournament, pairing_id: str, ranks: Sequence[int]) -> Tournament:
    """The outcome of a played pairing of the current round (ranks per seat, 1 best)."""
    _check_running(tournament, "record a result")
    pairing = _find(tournament, pairing_id)
    if pairing.round != tournament.round:
        raise UnknownPairing(f"{pairing_id} is not in the current round {tournament.round}")
    if pairing.result is not None:
        raise ResultAlreadyRecorded(f"{pairing_id} already has a result")
    checked = _check_ranks(tournament, pairing, ranks)
    out = _copy(tournament)
    _set_result(out, _find(out, pairing_id), Result(checked))
    return out


def record_results(tournament: Tournament, results: Sequence[tuple[str, Sequence[int]]]) -> Tournament:
    """Many `record_result`s in one transition (one copy): all are validated before any is applied."""
    _check_running(tournament, "record results")
    by_id = {p.id: p for p in tournament.pairings if p.round == tournament.round}
    seen: set[str] = set()
    checked = []
    for pairing_id, ranks in results:
        pairing = by_id.get(pairing_id)
        if pairing is None:
            raise UnknownPairing(f"{pairing_id} is not in the current round {tournament.round}")
        if pairing.result is not None or pairing_id in seen:
            raise ResultAlreadyRecorded(f"{pairing_id} already has a result")
        seen.add(pairing_id)
        checked.append((pairing_id, _check_ranks(tournament, pairing, ranks)))
    out = _copy(tournament)
    targets = {p.id: p for p in out.pairings if p.round == out.round}
    for pairing_id, ranks in checked:
        _set_result(out, targets[pairing_id], Result(ranks))
    return out


def record_forfeit(tournament: Tournament, pairing_id: str, absent: Sequence[str], reason: Forfeit) -> Tournament:
    """A pairing lost by forfeit: `absent` did not show or ran out of clock; the others win."""
    _check_running(tournament, "record a forfeit")
    pairing = _find(tournament, pairing_id)
    if pairing.round != tournament.round:
        raise UnknownPairing(f"{pairing_id} is not in the current round {tournament.round}")
    if pairing.result is not None:
        raise ResultAlreadyRecorded(f"{pairing_id} already has a result")
    if not absent or any(p not in pairing.players for p in absent) or reason not in ("no-show", "clock"):
        raise InvalidResult("a forfeit names players of the pairing and a reason (no-show or clock)")
    out = _copy(tournament)
    _set_result(out, _find(out, pairing_id), _forfeit_result(pairing.players, absent, reason))
    return out


def adjudicate(tournament: Tournament, pairing_id: str, ranks: Sequence[int]) -> Tournament:
    """Operator sets or overrides a result. Points formats: any round; elimination: only while the
    winner's next match has not been released."""
    _require(tournament, "running", "paused", action="adjudicate")
    pairing = _find(tournament, pairing_id)
    checked = _check_ranks(tournament, pairing, ranks)
    if pairing.bracket and pairing.result is not None:
        by_id = {m.id: m for m in tournament.bracket}
        match = by_id[pairing.bracket]
        downstream = [by_id[x] for x in (match.win_to, match.lose_to) if x]
        if any(m.released or m.winner for m in downstream) or (
            match.section in ("GF", "GF2") and by_id["GF2"].released
        ):
            raise IllegalTransition(f"{pairing_id}: the next bracket match has started; it cannot change")
    out = _copy(tournament)
    target = _find(out, pairing_id)
    if target.bracket == "GF":
        reset = next(m for m in out.bracket if m.id == "GF2")
        reset.void, reset.players = False, ["", ""]
    _set_result(out, target, Result(checked, adjudicated=True))
    return out


# ------------------------------------------------------------------ operator controls
def pause(tournament: Tournament) -> Tournament:
    _require(tournament, "running", action="pause")
    out = _copy(tournament)
    out.status = "paused"
    return out


def resume(tournament: Tournament) -> Tournament:
    _require(tournament, "paused", action="resume")
    out = _copy(tournament)
    out.status = "running"
    return out


def drop(tournament: Tournament, player: str) -> Tournament:
    """Withdraw a player: never paired again; a pending two-seat pairing of theirs is forfeited (no-show)."""
    if tournament.status == "registration":
        return unregister(tournament, player)
    _require(tournament, "running", "paused", action="drop a player")
    entrant = _entrant(tournament, player)
    if entrant.seed == 0:
        raise NotRegistered(f"{player!r} is not playing in {tournament.id}")
    if entrant.dropped:
        raise IllegalTransition(f"{player!r} has already dropped")
    out = _copy(tournament)
    _entrant(out, player).dropped = True
    for pairing in current_pairings(out):
        if player in pairing.players and len(pairing.players) == 2:
            _set_result(out, pairing, _forfeit_result(pairing.players, [player], "no-show"))
    if out.config.format in ELIMINATION:
        elimination.resolve_byes(out.bracket, {e.player for e in out.entrants if e.dropped})
    return out


def repair(tournament: Tournament) -> Tournament:
    """Re-pair the current round (Swiss, pods) before any of its results, e.g. after drops.

    Forfeits that a drop recorded do not count as results: re-pairing gives the dropped player's
    opponent a new game."""
    _require(tournament, "running", "paused", action="re-pair")
    if tournament.config.format not in ("swiss", "pods"):
        raise IllegalTransition(f"{tournament.config.format} rounds are fixed; they cannot be re-paired")
    dropped = {e.player for e in tournament.entrants if e.dropped}
    played = [
        p
        for p in round_pairings(tournament)
        if p.result is not None and not p.is_bye and not (p.result.forfeited and set(p.result.forfeited) <= dropped)
    ]
    if played:
        raise IllegalTransition(f"round {tournament.round} already has results")
    out = _copy(tournament)
    out.pairings = [p for p in out.pairings if p.round != out.round]
    out.round -= 1
    _open_round(out)
    return out


def finish(tournament: Tournament) -> Tournament:
    """Operator ends the tournament after a complete round (standings stand as they are)."""
    _require(tournament, "running", "paused", action="finish")
    if current_pairings(tournament):
        raise RoundNotComplete(f"round {tournament.round} still has pairings without a result")
    out = _copy(tournament)
    out.status = "finished"
    return out


def cancel(tournament: Tournament) -> Tournament:
    _require(tournament, "registration", "running", "paused", action="cancel")
    out = _copy(tournament)
    out.status = "cancelled"
    return out
