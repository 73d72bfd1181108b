"""Standings and tie-breakers computed from a tournament's recorded results.

Points: win/draw/loss for two-seat formats, the placement table for pods, `bye` for a bye.
Tie-breakers (in the order each format uses them):
- Buchholz: the sum of the final points of every opponent met (byes add nothing).
- Buchholz cut-1: Buchholz without the lowest-scoring opponent.
- Sonneborn-Berger: the sum over games of (result share x opponent's points): a win counts the
  opponent's points, a draw half of them (pods: share = the fraction of pod-mates beaten).
- Head-to-head: points scored in games among the players tied on points, used only when every
  pair of them has met (otherwise 0 for all of them).
- Wins: games won (pods: first places).
Elimination formats rank by how far a player got instead (see `elimination_order`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import msgspec

from gamehall.tournaments import elimination
from gamehall.tournaments.model import BYE, BracketMatch, Pairing, Tournament
from gamehall.tournaments.pods import placement_points

TIEBREAKS = {
    "swiss": ("buchholz-cut1", "buchholz", "sonneborn-berger", "head-to-head"),
    "round-robin": ("head-to-head", "sonneborn-berger", "wins"),
    "pods": ("buchholz", "wins"),
    "single-elimination": (),
    "double-elimination": (),
}


class Standing(msgspec.Struct, frozen=True):
    """One row of the standings."""

    rank: int
    player: str
    points: float
    tiebreaks: dict[str, float]
    games: int
    wins: int
    dropped: bool


class Game(msgspec.Struct, frozen=True):
    """One player's view of one finished pairing: opponents, points earned, share of them beaten."""

    player: str
    opponents: tuple[str, ...]
    points: float
    share: float
    won: bool


def games_of(tournament: Tournament) -> dict[str, list[Game]]:
    """Every finished pairing, per player (byes have no opponents)."""
    scoring = tournament.config.scoring
    out: dict[str, list[Game]] = defaultdict(list)
    # A round-robin bye is the rest round every player of an odd field gets once: it scores nothing.
    bye = 0.0 if tournament.config.format == "round-robin" else scoring.bye
    for pairing in tournament.pairings:
        for game in pairing_games(pairing, scoring.win, scoring.draw, scoring.loss, bye, scoring.placement):
            out[game.player].append(game)
    return out


def pairing_games(
    pairing: Pairing, win: float, draw: float, loss: float, bye: float, placement: Iterable[float]
) -> list[Game]:
    """The per-player games of one pairing (empty until it has a result)."""
    result = pairing.result
    if result is None:
        return []
    players = pairing.players
    if pairing.is_bye:
        return [Game(players[0], (), bye, 1.0, True)]
    ranks = result.ranks
    all_forfeit = len(result.forfeited) == len(players)
    n = len(players)
    games = []
    table = tuple(placement)
    pod_points = placement_points(ranks, table) if n > 2 else None
    for k, player in enumerate(players):
        others = tuple(p for j, p in enumerate(players) if j != k)
        beaten = sum(1 for j in range(n) if ranks[j] > ranks[k]) + 0.5 * sum(
            1 for j in range(n) if j != k and ranks[j] == ranks[k]
        )
        share = 0.0 if all_forfeit else beaten / (n - 1)
        if all_forfeit:
            points = loss if pod_points is None else 0.0
        elif pod_points is not None:
            points = pod_points[k]
        else:
            points = win if share == 1.0 else draw if share == 0.5 else loss
        won = not all_forfeit and all(ranks[j] > ranks[k] for j in range(n) if j != k)
        games.append(Game(player, others, points, share, won))
    return games


def points_of(games: dict[str, list[Game]], players: Iterable[str]) -> dict[str, float]:
    return {p: sum(g.points for g in games.get(p, [])) for p in players}


def tiebreak_values(
    player: str, games: dict[str, list[Game]], points: dict[str, float], tied: list[str]
) -> dict[str, float]:
    """Every tie-breaker of `player`; `tied` are the players level with it on points."""
    opponent_points = [points.get(o, 0.0) for g in games.get(player, []) for o in g.opponents if o != BYE]
    buchholz = sum(opponent_points)
    cut1 = buchholz - min(opponent_points) if opponent_points else 0.0
    sb = sum(g.share * sum(points.get(o, 0.0) for o in g.opponents) for g in games.get(player, []) if g.opponents)
    return {
        "buchholz": buchholz,
        "buchholz-cut1": cut1,
        "sonneborn-berger": sb,
        "head-to-head": head_to_head(player, games, tied),
        "wins": float(sum(1 for g in games.get(player, []) if g.won and g.opponents)),
    }


def head_to_head(player: str, games: dict[str, list[Game]], tied: list[str]) -> float:
    """Points `player` scored against the others in `tied`, if all of them have met each other."""
    if len(tied) < 2:
        return 0.0
    group = set(tied)
    for p in tied:
        met = {o for g in games.get(p, []) for o in g.opponents}
        if not (group - {p}) <= met:
            return 0.0
    return sum(g.points for g in games.get(player, []) if g.opponents and set(g.opponents) <= group)


def standings(tournament: Tournament) -> list[Standing]:
    """Every participant best first: points, then the format's tie-breakers, then seed."""
    fmt = tournament.config.format
    entrants = [e for e in tournament.entrants if e.seed > 0] or list(tournament.entrants)
    games = games_of(tournament)
    points = points_of(games, (e.player for e in entrants))
    by_points: dict[float, list[str]] = defaultdict(list)
    for e in entrants:
        by_points[points[e.player]].append(e.player)
    rows = []
    for e in entrants:
        values = tiebreak_values(e.player, games, points, by_points[points[e.player]])
        chosen = {name: values[name] for name in TIEBREAKS[fmt]}
        mine = games.get(e.player, [])
        wins = sum(1 for g in mine if g.won)
        rows.append((e, points[e.player], chosen, sum(1 for g in mine if g.opponents), wins))
    if fmt in ("single-elimination", "double-elimination"):
        position = elimination_order(tournament)
        rows.sort(key=lambda row: (position.get(row[0].player, len(position)), row[0].seed, row[0].player))
    else:
        rows.sort(key=lambda row: (-row[1], *(-row[2][name] for name in TIEBREAKS[fmt]), row[0].seed, row[0].player))
    return [
        Standing(k + 1, e.player, pts, chosen, n_games, wins, e.dropped)
        for k, (e, pts, chosen, n_games, wins) in enumerate(rows)
    ]


def elimination_order(tournament: Tournament) -> dict[str, int]:
    """Sort value per player for elimination standings (lower is better): champion, finalist, then
    players by how late they were knocked out; players still alive rank above the eliminated."""
    bracket = tournament.bracket
    double = tournament.config.format == "double-elimination"
    reach: dict[str, int] = {}
    for m in bracket:
        if not m.winner or m.loser in ("", BYE):
            continue
        if (m.section == "W" and not double) or m.section == "L":
            reach[m.loser] = m.round
        elif (m.section == "GF" and _reset_void(bracket)) or m.section == "GF2":
            reach[m.loser] = 10_000
    champ = elimination.champion(bracket)
    out: dict[str, int] = {}
    for e in tournament.entrants:
        if e.player == champ:
            out[e.player] = 0
        elif e.player in reach:
            out[e.player] = 100_000 - reach[e.player]
        else:
            out[e.player] = 1
    return out


def _reset_void(bracket: list[BracketMatch]) -> bool:
    return any(m.id == "GF2" and m.void for m in bracket)
