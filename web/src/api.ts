/**
 * The thin typed adapter between the pages and the public API: the only module that imports the generated
 * client (src/gen, from protos/ by protoc-gen-es). Pages see plain UI types (numbers, strings, Dates), so a
 * change of the protos' shapes (timestamps, enums, pagination) is absorbed here, not in every page.
 *
 * Transport: the Connect protocol with binary protobuf, to the web service's bridge on this same origin,
 * which forwards every call unchanged to the gateway. The bearer token is kept in this tab's
 * sessionStorage and sent as the `authorization` header (never a cookie, so no ambient credential).
 */

import { Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import { timestampDate, timestampFromDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { AuthService, Role } from "./gen/gamehall/v1/auth_pb";
import { CatalogService } from "./gen/gamehall/v1/catalog_pb";
import type { Outcome as PbOutcome } from "./gen/gamehall/v1/common_pb";
import { MatchService, MatchStatus, SeatKind, type Match as PbMatch } from "./gen/gamehall/v1/match_pb";
import { MatchmakingService } from "./gen/gamehall/v1/matchmaking_pb";
import {
  ForfeitReason,
  TournamentFormat,
  TournamentService,
  TournamentStatus,
  type Standings as PbStandings,
  type Tournament as PbTournament,
  type TournamentPairing as PbPairing,
} from "./gen/gamehall/v1/tournament_pb";

// ------------------------------------------------------------------ session

export type RoleName = "player" | "operator" | "bot" | "unknown";

export interface Account {
  id: string;
  username: string;
  role: RoleName;
}

const TOKEN_KEY = "gamehall.token";
const ACCOUNT_KEY = "gamehall.account";

export function currentAccount(): Account | null {
  const raw = sessionStorage.getItem(ACCOUNT_KEY);
  return raw && sessionStorage.getItem(TOKEN_KEY) ? (JSON.parse(raw) as Account) : null;
}

/** Forget the tab's token (used when the gateway refused it already). */
export function signOut(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(ACCOUNT_KEY);
}

/** Sign out for real: the gateway revokes the token (every replica refuses it from then on), then the tab
 * forgets it. The token is forgotten even when the gateway cannot be reached; the error is returned. */
export async function logOut(): Promise<unknown> {
  let failure: unknown = null;
  if (sessionStorage.getItem(TOKEN_KEY)) {
    try {
      await auth.logout({});
    } catch (err) {
      failure = err;
    }
  }
  signOut();
  return failure;
}

function remember(token: string, account: Account): void {
  sessionStorage.setItem(TOKEN_KEY, token);
  sessionStorage.setItem(ACCOUNT_KEY, JSON.stringify(account));
}

const bearer: Interceptor = (next) => async (req) => {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) req.header.set("authorization", `Bearer ${token}`);
  return next(req);
};

const transport = createConnectTransport({
  baseUrl: window.location.origin,
  useBinaryFormat: true,
  interceptors: [bearer],
});
const auth = createClient(AuthService, transport);
const catalog = createClient(CatalogService, transport);
const matches = createClient(MatchService, transport);
const tournaments = createClient(TournamentService, transport);
const matchmaking = createClient(MatchmakingService, transport);

export interface LeaderboardEntry {
  rank: number;
  accountId: string;
  username: string;
  /** mu - 3 sigma, what the board is ordered by. */
  ordinal: number;
  mu: number;
  sigma: number;
  matches: number;
}

/** One page of a game mode's leaderboard (no sign-in needed), and the token of the next page ("" at the end). */
export async function leaderboard(game: string, mode: string, pageSize: number, pageToken = ""): Promise<{ entries: LeaderboardEntry[]; next: string }> {
  const reply = await matchmaking.getLeaderboard({ game, mode, pageSize, pageToken });
  return {
    entries: reply.entries.map((e) => ({
      rank: e.rank,
      accountId: e.accountId,
      username: e.username,
      ordinal: e.ordinal,
      mu: e.mu,
      sigma: e.sigma,
      matches: e.matches,
    })),
    next: reply.nextPageToken,
  };
}

function roleName(role: Role): RoleName {
  switch (role) {
    case Role.PLAYER:
      return "player";
    case Role.OPERATOR:
      return "operator";
    case Role.BOT:
      return "bot";
    default:
      return "unknown";
  }
}

export async function signIn(username: string, password: string): Promise<Account> {
  const reply = await auth.login({ username, password });
  const account = toAccount(reply.account);
  remember(reply.token, account);
  return account;
}

export async function createAccount(username: string, password: string): Promise<Account> {
  const reply = await auth.register({ username, password });
  const account = toAccount(reply.account);
  remember(reply.token, account);
  return account;
}

function toAccount(a: { id: string; username: string; role: Role } | undefined): Account {
  return { id: a?.id ?? "", username: a?.username ?? "", role: roleName(a?.role ?? Role.UNSPECIFIED) };
}

// ------------------------------------------------------------------ errors

export interface ApiError {
  /** The gRPC status name, e.g. "PERMISSION_DENIED". */
  status: string;
  message: string;
  /** The gateway's machine-readable reason, e.g. "ERROR_REASON_PERMISSION_DENIED", when it sent one. */
  reason: string;
}

const STATUS_NAMES: Record<number, string> = {
  [Code.Canceled]: "CANCELLED",
  [Code.Unknown]: "UNKNOWN",
  [Code.InvalidArgument]: "INVALID_ARGUMENT",
  [Code.DeadlineExceeded]: "DEADLINE_EXCEEDED",
  [Code.NotFound]: "NOT_FOUND",
  [Code.AlreadyExists]: "ALREADY_EXISTS",
  [Code.PermissionDenied]: "PERMISSION_DENIED",
  [Code.ResourceExhausted]: "RESOURCE_EXHAUSTED",
  [Code.FailedPrecondition]: "FAILED_PRECONDITION",
  [Code.Aborted]: "ABORTED",
  [Code.OutOfRange]: "OUT_OF_RANGE",
  [Code.Unimplemented]: "UNIMPLEMENTED",
  [Code.Internal]: "INTERNAL",
  [Code.Unavailable]: "UNAVAILABLE",
  [Code.DataLoss]: "DATA_LOSS",
  [Code.Unauthenticated]: "UNAUTHENTICATED",
};

export function apiError(err: unknown): ApiError {
  if (err instanceof ConnectError) {
    return { status: STATUS_NAMES[err.code] ?? "UNKNOWN", message: err.rawMessage, reason: errorReason(err) };
  }
  return { status: "UNKNOWN", message: err instanceof Error ? err.message : String(err), reason: "" };
}

/** The machine-readable reason among the error's details: the `reason` (field 1) of the google.rpc.ErrorInfo the
 * gateway attaches to every failure, read from the wire (no googleapis protos needed in the page). */
function errorReason(err: ConnectError): string {
  for (const detail of err.details) {
    if (!("type" in detail) || detail.type !== "google.rpc.ErrorInfo" || !(detail.value instanceof Uint8Array)) continue;
    const reader = new BinaryReader(detail.value);
    try {
      while (reader.pos < reader.len) {
        const [field, wireType] = reader.tag();
        if (field === 1 && wireType === WireType.LengthDelimited) return reader.string();
        reader.skip(wireType);
      }
    } catch {
      continue;
    }
  }
  return "";
}

/** Every item of an AIP-158 paginated list, page after page (bounded: at most `maxPages`). */
async function allPages<T>(
  fetch: (pageToken: string) => Promise<{ items: T[]; next: string }>,
  maxPages = 50,
): Promise<T[]> {
  const items: T[] = [];
  let token = "";
  for (let page = 0; page < maxPages; page++) {
    const reply = await fetch(token);
    items.push(...reply.items);
    if (!reply.next) break;
    token = reply.next;
  }
  return items;
}

const toDate = (t: Timestamp | undefined): Date | null => (t && (t.seconds || t.nanos) ? timestampDate(t) : null);

export function isUnauthenticated(err: unknown): boolean {
  return err instanceof ConnectError && err.code === Code.Unauthenticated;
}

// ------------------------------------------------------------------ catalog

export interface ModeInfo {
  id: string;
  name: string;
  seats: number[];
}

export interface GameInfo {
  id: string;
  name: string;
  modes: ModeInfo[];
}

let gamesCache: Promise<GameInfo[]> | null = null;
const gameNames = new Map<string, string>();

/** A game's display name if the catalog has answered already, else its id (never waits). */
export function knownGameName(id: string): string {
  return gameNames.get(id) ?? id;
}

export function listGames(): Promise<GameInfo[]> {
  gamesCache ??= allPages(async (pageToken) => {
    const r = await catalog.listGames({ pageToken });
    return { items: r.games, next: r.nextPageToken };
  }).then(
    (list) => {
      const games = list.map((g) => ({ id: g.id, name: g.name, modes: g.modes.map((m) => ({ id: m.id, name: m.name, seats: [...m.seats] })) }));
      for (const g of games) gameNames.set(g.id, g.name);
      return games;
    },
    (e) => {
      gamesCache = null;
      throw e;
    },
  );
  return gamesCache;
}

/** A game's display name; its id when the catalog has not answered within `waitMs` (pages never wait on it). */
export async function gameName(id: string, waitMs = 1500): Promise<string> {
  const late = new Promise<null>((resolve) => setTimeout(() => resolve(null), waitMs));
  try {
    const games = await Promise.race([listGames(), late]);
    return games?.find((g) => g.id === id)?.name ?? id;
  } catch {
    return id;
  }
}

// ------------------------------------------------------------------ matches

export type MatchStatusName = "open" | "running" | "finished" | "aborted" | "unknown";

export interface Outcome {
  ranks: number[];
  scores: number[];
  reason: string;
}

export interface SeatInfo {
  seat: number;
  kind: string;
  name: string;
  /** The person's username ("" for a bot, an open seat or an account the server did not name). */
  username: string;
}

/** The people's names by seat number for the table pictures ("" for bots and open seats). */
export function seatUsernames(m: { seatCount: number; seats: SeatInfo[] }): string[] {
  const names = Array.from({ length: m.seatCount }, () => "");
  for (const s of m.seats) if (s.seat < names.length) names[s.seat] = s.username;
  return names;
}

export interface MatchInfo {
  id: string;
  game: string;
  mode: string;
  seatCount: number;
  status: MatchStatusName;
  seats: SeatInfo[];
  version: number;
  toAct: number[];
  outcome: Outcome | null;
  isPublic: boolean;
  created: Date | null;
}

function statusName(status: MatchStatus): MatchStatusName {
  switch (status) {
    case MatchStatus.OPEN:
      return "open";
    case MatchStatus.RUNNING:
      return "running";
    case MatchStatus.FINISHED:
      return "finished";
    case MatchStatus.ABORTED:
      return "aborted";
    default:
      return "unknown";
  }
}

function toOutcome(o: PbOutcome | undefined): Outcome | null {
  return o && o.ranks.length ? { ranks: [...o.ranks], scores: [...o.scores], reason: o.reason } : null;
}

function toMatch(m: PbMatch | undefined): MatchInfo {
  if (!m) throw new Error("the server sent no match");
  return {
    id: m.id,
    game: m.game,
    mode: m.config?.mode ?? "",
    seatCount: m.config?.seats || m.seats.length,
    status: statusName(m.status),
    seats: m.seats.map((s) => ({
      seat: s.seat,
      kind: SeatKind[s.kind]?.toLowerCase() ?? "unspecified",
      name: s.username || (s.botDifficulty ? `Bot (${s.botDifficulty})` : s.kind === SeatKind.OPEN ? "open seat" : `Seat ${s.seat + 1}`),
      username: s.username,
    })),
    version: Number(m.version),
    toAct: [...m.toAct],
    outcome: toOutcome(m.outcome),
    isPublic: m.public,
    created: toDate(m.createTime),
  };
}

export async function getMatch(matchId: string): Promise<MatchInfo> {
  return toMatch((await matches.getMatch({ matchId })).match);
}

/** Running public matches, newest first (one page). */
export async function liveMatches(limit = 50): Promise<MatchInfo[]> {
  const reply = await matches.listMatches({ status: MatchStatus.RUNNING, pageSize: limit });
  return reply.matches.map(toMatch).filter((m) => m.isPublic);
}

export interface GameEventInfo {
  kind: string;
  data: unknown;
}

export interface ViewUpdate {
  version: number;
  /** Set when the caller watches as a seat holder (never for a spectator). */
  seat: number | null;
  view: unknown;
  toAct: number[];
  outcome: Outcome | null;
  events: GameEventInfo[];
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

/** The caller's view after each change (the spectators' with `delay` actions of delay), resumable. */
export async function* watchMatch(
  matchId: string,
  delay: number,
  fromVersion: number,
  signal: AbortSignal,
): AsyncGenerator<ViewUpdate> {
  const stream = matches.watchMatch(
    { matchId, delayActions: delay, fromVersion: BigInt(fromVersion) },
    { signal },
  );
  for await (const m of stream) {
    yield {
      version: Number(m.version),
      seat: m.seat ?? null,
      view: parseJson(m.viewJson),
      toAct: [...m.toAct],
      outcome: toOutcome(m.outcome),
      events: m.events.map((e) => ({ kind: e.kind, data: parseJson(e.dataJson) })),
    };
  }
}

export interface ReplayStepInfo {
  version: number;
  seat: number;
  /** The action's label, or "" when the caller may not see it yet. */
  action: string;
  view: unknown;
}

export interface ReplayInfo {
  match: MatchInfo;
  /** True for a finished match: every seat's view is shown, hands included. */
  complete: boolean;
  initial: unknown;
  steps: ReplayStepInfo[];
}

/** The whole replay: GetReplay is paged (AIP-158), so every page is read and the steps joined in order. */
export async function getReplay(matchId: string): Promise<ReplayInfo> {
  let r = await matches.getReplay({ matchId });
  const initial = parseJson(r.initialViewJson);
  const raw = [...r.steps];
  while (r.nextPageToken) {
    r = await matches.getReplay({ matchId, pageToken: r.nextPageToken });
    raw.push(...r.steps);
  }
  return {
    match: toMatch(r.match),
    complete: r.complete,
    initial,
    steps: raw.map((s) => ({
      version: Number(s.version),
      seat: s.seat,
      action: s.action?.label || s.action?.id || "",
      view: parseJson(s.viewJson),
    })),
  };
}

// ------------------------------------------------------------------ tournaments

export interface Entrant {
  player: string;
  /** The username at registration ("" for a bot entrant). */
  name: string;
  seed: number;
  checkedIn: boolean;
  dropped: boolean;
}

export interface Pairing {
  id: string;
  round: number;
  table: number;
  players: string[];
  matchId: string;
  /** Ranks per seat (1 best) once there is a result; empty before. */
  ranks: number[];
  forfeited: string[];
  forfeitReason: string;
  adjudicated: boolean;
}

export type Format = "swiss" | "single-elimination" | "double-elimination" | "round-robin" | "pods" | string;

export interface Tournament {
  id: string;
  name: string;
  game: string;
  mode: string;
  format: Format;
  /** registration, running, paused, finished or cancelled. */
  status: string;
  round: number;
  roundsPlanned: number;
  seats: number;
  entrants: Entrant[];
  pairings: Pairing[];
  revision: number;
  registrationOpens: Date | null;
  registrationCloses: Date | null;
}

const FORMATS: Record<TournamentFormat, Format> = {
  [TournamentFormat.UNSPECIFIED]: "unspecified",
  [TournamentFormat.SWISS]: "swiss",
  [TournamentFormat.SINGLE_ELIMINATION]: "single-elimination",
  [TournamentFormat.DOUBLE_ELIMINATION]: "double-elimination",
  [TournamentFormat.ROUND_ROBIN]: "round-robin",
  [TournamentFormat.PODS]: "pods",
};

/** A status as the pages name it: registration, running, paused, finished or cancelled. */
function statusOf(status: TournamentStatus): string {
  return status === TournamentStatus.UNSPECIFIED ? "unknown" : TournamentStatus[status].toLowerCase();
}

function toPairing(p: PbPairing): Pairing {
  return {
    id: p.id,
    round: p.round,
    table: p.table,
    players: [...p.players],
    matchId: p.matchId,
    ranks: [...p.ranks],
    forfeited: [...p.forfeited],
    forfeitReason: p.forfeitReason === ForfeitReason.UNSPECIFIED ? "" : ForfeitReason[p.forfeitReason].toLowerCase().replace("_", "-"),
    adjudicated: p.adjudicated,
  };
}

function toTournament(t: PbTournament | undefined, pairings: Pairing[] = []): Tournament {
  if (!t) throw new Error("the server sent no tournament");
  return {
    id: t.id,
    name: t.name,
    game: t.game,
    mode: t.mode,
    format: FORMATS[t.format] ?? "unspecified",
    status: statusOf(t.status),
    round: t.round,
    roundsPlanned: t.roundsPlanned,
    seats: t.seats || 2,
    entrants: t.entrants.map((e) => ({
      player: e.player,
      name: e.displayName,
      seed: e.seed,
      checkedIn: e.checkedIn,
      dropped: e.dropped,
    })),
    pairings,
    revision: Number(t.revision),
    registrationOpens: toDate(t.registrationOpenTime),
    registrationCloses: toDate(t.registrationCloseTime),
  };
}

/** Every pairing of every round (a Tournament no longer carries them: ListPairings, page by page). */
async function pairingsOf(tournamentId: string): Promise<Pairing[]> {
  const list = await allPages(async (pageToken) => {
    const r = await tournaments.listPairings({ tournamentId, pageSize: 500, pageToken });
    return { items: r.pairings, next: r.nextPageToken };
  });
  return list.map(toPairing);
}

/** A tournament with its pairings (two calls). */
async function withPairings(t: PbTournament | undefined): Promise<Tournament> {
  return toTournament(t, t ? await pairingsOf(t.id) : []);
}

/** Tournaments, newest first, without their pairings (a summary per tournament). */
export async function listTournaments(): Promise<Tournament[]> {
  const list = await allPages(async (pageToken) => {
    const r = await tournaments.listTournaments({ pageSize: 200, pageToken });
    return { items: r.tournaments, next: r.nextPageToken };
  }, 5);
  return list.map((t) => toTournament(t));
}

export async function getTournament(tournamentId: string): Promise<Tournament> {
  return withPairings((await tournaments.getTournament({ tournamentId })).tournament);
}

export interface StandingRow {
  rank: number;
  player: string;
  /** The username at registration ("" for a bot entrant). */
  name: string;
  points: number;
  tiebreaks: Record<string, number>;
  games: number;
  wins: number;
  dropped: boolean;
}

export interface Standings {
  status: string;
  round: number;
  roundsPlanned: number;
  revision: number;
  rows: StandingRow[];
  tiebreakOrder: string[];
}

function toStandings(s: PbStandings | undefined): Standings {
  if (!s) throw new Error("the server sent no standings");
  return {
    status: statusOf(s.status),
    round: s.round,
    roundsPlanned: s.roundsPlanned,
    revision: Number(s.revision),
    rows: s.rows.map((r) => ({
      rank: r.rank,
      player: r.player,
      name: r.displayName,
      points: r.points,
      tiebreaks: { ...r.tiebreaks },
      games: r.games,
      wins: r.wins,
      dropped: r.dropped,
    })),
    tiebreakOrder: [...s.tiebreakOrder],
  };
}

/** The standings now, then after each change until the tournament ends. */
export async function* watchStandings(tournamentId: string, signal: AbortSignal): AsyncGenerator<Standings> {
  for await (const reply of tournaments.watchStandings({ tournamentId }, { signal })) {
    yield toStandings(reply.standings);
  }
}

// ------------------------------------------------------------------ operator actions

export interface NewTournament {
  name: string;
  game: string;
  mode: string;
  format: string;
  rounds: number;
  seats: number;
  maxPlayers: number;
  requireCheckIn: boolean;
  /** When registration opens (null: now). */
  registrationOpens: Date | null;
  registrationCloses: Date | null;
  noShowSeconds: number;
  perMoveSeconds: number;
}

const seconds = (n: number) => (n ? { seconds: BigInt(Math.floor(n)), nanos: 0 } : undefined);

export async function createTournament(t: NewTournament): Promise<Tournament> {
  const format = Number(Object.keys(FORMATS).find((k) => FORMATS[Number(k) as TournamentFormat] === t.format) ?? 0);
  const reply = await tournaments.createTournament({
    name: t.name,
    game: t.game,
    mode: t.mode,
    format: format as TournamentFormat,
    rounds: t.rounds,
    seats: t.seats,
    maxPlayers: t.maxPlayers,
    requireCheckIn: t.requireCheckIn,
    registrationOpenTime: t.registrationOpens ? timestampFromDate(t.registrationOpens) : undefined,
    registrationCloseTime: t.registrationCloses ? timestampFromDate(t.registrationCloses) : undefined,
    noShowTimeout: seconds(t.noShowSeconds),
    clock: t.perMoveSeconds ? { perMove: seconds(t.perMoveSeconds) } : undefined,
  });
  return withPairings(reply.tournament);
}

/** Register an entrant: the caller (no argument), an account (operator) or a bot of a difficulty (operator). */
export async function registerEntrant(tournamentId: string, who: { accountId?: string; bot?: string; username?: string }): Promise<string> {
  const reply = await tournaments.registerPlayer({ tournamentId, accountId: who.accountId ?? "", bot: who.bot ?? "", username: who.username ?? "" });
  return reply.player;
}

type TournamentAction = "start" | "pause" | "resume" | "repair";

export async function tournamentAction(action: TournamentAction, tournamentId: string): Promise<Tournament> {
  const reply =
    action === "start"
      ? await tournaments.startTournament({ tournamentId })
      : action === "pause"
        ? await tournaments.pauseTournament({ tournamentId })
        : action === "resume"
          ? await tournaments.resumeTournament({ tournamentId })
          : await tournaments.repairRound({ tournamentId });
  return withPairings(reply.tournament);
}

export async function checkIn(tournamentId: string, player: string): Promise<Tournament> {
  return withPairings((await tournaments.checkIn({ tournamentId, player })).tournament);
}

export async function dropPlayer(tournamentId: string, player: string): Promise<Tournament> {
  return withPairings((await tournaments.dropPlayer({ tournamentId, player })).tournament);
}

export async function adjudicate(tournamentId: string, pairingId: string, ranks: number[]): Promise<Tournament> {
  return withPairings((await tournaments.adjudicatePairing({ tournamentId, pairingId, ranks })).tournament);
}
