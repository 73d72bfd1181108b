"""Who may call each public RPC: the status each kind of caller gets, one row per RPC (issue 20).

Roles: `anonymous` (no token), `player` (holds seat 0 of the match, owns the ticket), `other` (the
opponent in seat 1, a stranger to the ticket), `spectator` (an account with no seat), `bot` (the ai
service's account) and `operator`. The probes behind each row are in tests/e2e/test_access_matrix.py,
which checks the running platform against this table; change both together, and only on purpose.
"""

from __future__ import annotations

ROLES = ("anonymous", "player", "other", "spectator", "bot", "operator")
OK = "OK"

_UN, _PD, _NF, _FP = "UNAUTHENTICATED", "PERMISSION_DENIED", "NOT_FOUND", "FAILED_PRECONDITION"
_SIGNED_IN = (_UN, OK, OK, OK, OK, OK)
_PUBLIC_READ = (OK, OK, OK, OK, OK, OK)
"""Reads of public things anyone may make without a token (issue 38): the catalog, public matches as a spectator
(the probes read a public match; a private one stays PERMISSION_DENIED to the anonymous caller), tournaments."""
_OPERATOR_ONLY = (_UN, _PD, _PD, _PD, _PD, OK)


def _operator_only(then: str = OK) -> tuple[str, ...]:
    """Refused to all but the operator, who gets `then` (the probe's own outcome past the gate)."""
    return (_UN, _PD, _PD, _PD, _PD, then)


#                                  anonymous  player  other  spectator  bot  operator
ACCESS: dict[str, tuple[str, ...]] = {
    # AuthService: Register and Login need no token (GAMEHALL_REGISTRATION=open here; the probe's login is unknown)
    "Register": (OK, OK, OK, OK, OK, OK),
    "Login": (_UN, _UN, _UN, _UN, _UN, _UN),
    "WhoAmI": _SIGNED_IN,
    "Logout": _SIGNED_IN,  # the probe signs out a second token of the caller's, not the one the matrix uses
    # CatalogService
    "ListGames": _PUBLIC_READ,
    # MatchService, on a running public match: seat 0 the player's, seat 1 the other's
    "CreateMatch": _SIGNED_IN,
    "ListMatches": _PUBLIC_READ,
    "GetMatch": _PUBLIC_READ,
    "JoinMatch": (_UN, OK, OK, _FP, _FP, _FP),  # a seat holder gets its seat back; the match is full
    "LeaveMatch": (_UN, _FP, _FP, _PD, _PD, _PD),  # on a finished match: over for its seats, not others'
    "GetView": _SIGNED_IN,  # the seat's view, or the spectators' for anyone else
    "GetView(seat 0)": (_UN, OK, _PD, _PD, _PD, _PD),
    "ListLegalActions": (_UN, OK, _PD, _PD, _PD, _PD),  # seat 0's
    "SubmitAction": (_UN, "ABORTED", _PD, _PD, _PD, _PD),  # for seat 0, at a stale expected_version
    "WatchMatch": _PUBLIC_READ,
    "PlaySeat": _SIGNED_IN,  # a seat's play stream; without a seat, the spectators' updates (no legal actions)
    "GetReplay": _PUBLIC_READ,  # a public match's replay is public (redacted while running)
    # MatchmakingService, on the player's queued ticket
    "EnqueueTicket(for D)": _OPERATOR_ONLY,  # queueing someone else
    "CancelTicket": (_UN, OK, _NF, _NF, _NF, OK),  # another's ticket does not exist for you
    "GetTicket": (_UN, OK, _NF, _NF, _NF, OK),
    "WatchTickets": _SIGNED_IN,  # the caller's own tickets
    "GetLeaderboard": _PUBLIC_READ,
    "GetRating": _SIGNED_IN,  # ratings are public
    # TournamentService, on a tournament open for registration (too few players to start)
    "CreateTournament": _OPERATOR_ONLY,
    "ListTournaments": _PUBLIC_READ,
    "GetTournament": _PUBLIC_READ,
    "ListPairings": _PUBLIC_READ,
    "RegisterPlayer(D)": _OPERATOR_ONLY,  # registering someone else
    "CheckIn(D)": _OPERATOR_ONLY,
    "UnregisterPlayer(D)": _OPERATOR_ONLY,
    "StartTournament": _operator_only(_FP),
    "GetStandings": _PUBLIC_READ,
    "WatchStandings": _PUBLIC_READ,
    "PauseTournament": _operator_only(_FP),
    "ResumeTournament": _operator_only(_FP),
    "DropPlayer(D)": _operator_only(_NF),  # D left already (UnregisterPlayer)
    "RepairRound": _operator_only(_FP),
    "AdjudicatePairing": _operator_only(_FP),
    # AuditService
    "ListAuditEvents": _OPERATOR_ONLY,
}
