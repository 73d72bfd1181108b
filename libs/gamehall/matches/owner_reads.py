"""What an owner answers about a live match it holds: a seat's or the spectators' view (now or at a past
version), the legal actions of a seat, the head, and pages of the replay. Reads come from the owner's copy,
fresher than the projection; only history it did not make itself is read from the store.
"""

from __future__ import annotations

import asyncio
from typing import Any

from gamehall.matches.access import Caller, require_seat, require_watch, seat_of
from gamehall.matches.errors import NotYet, Unavailable
from gamehall.matches.live import LiveMatch, LoggedAction, MatchFacts, StepView
from gamehall.matches.owner_cache import PROJECTION_WAIT, MatchCache
from gamehall.matches.replay import HIDDEN, replay_page
from gamehall.wire import event_to_proto, outcome_to_proto, pages
from gamehall.wire.convert import dumps
from gamehall.wire.matches import logged_to_public, outcome_from_json
from gamehall_sdk.v1 import common_pb2, match_pb2


class MatchReads(MatchCache):
    """The reads of the matches an owner holds."""

    def message(self, live: LiveMatch, view: StepView, version: int) -> match_pb2.WatchMatchResponse:
        """One audience's view of the match at `version`, with the seat's choices when it is to act (issue 39)."""
        closed = live.facts.status in ("finished", "aborted")
        message = match_pb2.WatchMatchResponse(
            version=version,
            view_json=dumps(view.view),
            to_act=[] if closed else live.to_act,
            events=[event_to_proto(e) for e in view.events],
        )
        if view.seat is not None:
            message.seat = view.seat
            if not closed and view.seat in message.to_act:
                message.legal_actions.extend(self._legal(live, view.seat))
        outcome = outcome_from_json(dict(live.facts.outcome)) if live.facts.outcome else None
        if outcome is not None:
            message.outcome.CopyFrom(outcome)
        return message

    def _legal(self, live: LiveMatch, seat: int) -> list[common_pb2.LegalAction]:
        found = []
        for action in live.legal(seat):
            the_id, label = live.describe(action)
            found.append(
                common_pb2.LegalAction(id=the_id, label=label, action_json=dumps(self.game.action_to_json(action)))
            )
        return found

    async def view(
        self, match_id: str, caller: Caller, wanted_seat: int | None, at_version: int | None
    ) -> match_pb2.WatchMatchResponse:
        held = await self.settled(match_id)
        live = held.live
        require_watch(live.facts, caller)
        seat = seat_of(live.facts, caller, wanted_seat)
        if at_version is None or at_version == live.version:
            view = StepView(seat, live.view(seat), ())
            if at_version is not None and live.recent:
                last = next(reversed(live.recent.values()))
                if last.version == live.version:
                    view = StepView(seat, view.view, tuple(e for e in last.events() if e.visible_to(seat)))
            return self.message(live, view, live.version)
        if at_version > live.version:
            raise NotYet(f"match {match_id} is at version {live.version}, not {at_version} yet")
        past, last_events = await self._state_at(live, at_version)
        message = match_pb2.WatchMatchResponse(
            version=at_version,
            view_json=dumps(self.game.view(past, seat)),
            to_act=sorted(self.game.to_act(past)),
            events=[event_to_proto(e) for e in last_events if e.visible_to(seat)],
        )
        if seat is not None:
            message.seat = seat
        outcome = self.game.outcome(past)
        if outcome is not None:
            message.outcome.CopyFrom(outcome_to_proto(outcome))
        return message

    async def _state_at(self, live: LiveMatch, version: int) -> tuple[Any, tuple[Any, ...]]:
        """The state at an earlier version and the events of the step that reached it: from memory when this
        replica made that step, else rebuilt in process from the projection."""
        for step in live.recent.values():
            if step.version == version:
                return step.state(self.game), step.events()
        await self.projected(live.facts.id, version)
        loaded = await self.store.load_before(live.facts.id, max(0, version - 1))
        past = LiveMatch.rebuild(self.game, live.facts, loaded.snapshot, loaded.snapshot_version, loaded.actions)
        if version == 0:
            return past.state, ()
        entry = (await self.store.actions(live.facts.id, version, version))[0]
        state, emitted = self.game.apply(past.state, entry.seat, self.game.parse_action(entry.action))
        return state, tuple(emitted)

    async def head(self, match_id: str) -> tuple[MatchFacts, int]:
        """The match's facts and version as this owner holds them (fresher than the projection)."""
        held = await self.settled(match_id)
        return held.live.facts, held.live.version

    async def legal(self, match_id: str, caller: Caller, wanted_seat: int | None) -> match_pb2.ListLegalActionsResponse:
        held = await self.settled(match_id)
        live = held.live
        seat = require_seat(live.facts, caller, wanted_seat)
        response = match_pb2.ListLegalActionsResponse(version=live.version, seat=seat)
        if live.facts.status == "running" and seat in live.to_act:
            response.actions.extend(self._legal(live, seat))
        return response

    async def replay(
        self, match_id: str, caller: Caller, from_version: int = 1, page_size: int = 0
    ) -> tuple[match_pb2.GetReplayResponse, int]:
        """(a page of the match's replay from `from_version`, the version the next page starts at or 0): at most
        `page_size` steps (0: no count limit) and, past the first step, at most REPLAY_PAGE_BYTES of views."""
        held = await self.held(match_id, fresh=True)
        facts = held.live.facts
        require_watch(facts, caller)
        complete = facts.status in ("finished", "aborted")
        seat = None if complete else seat_of(facts, caller, None)
        first = max(1, from_version)
        actions = await self._actions(held.live, held.live.version)
        return await asyncio.to_thread(self._replay_page, facts, actions, seat, complete, first, page_size)

    def _replay_page(
        self,
        facts: MatchFacts,
        actions: list[LoggedAction],
        seat: int | None,
        complete: bool,
        first: int,
        page_size: int,
    ) -> tuple[match_pb2.GetReplayResponse, int]:
        page = replay_page(
            self.game, facts, actions, seat, complete, first, page_size, pages.REPLAY_PAGE_BYTES, encode=dumps
        )
        response = match_pb2.GetReplayResponse(complete=complete, initial_view_json=page.initial_view_json)
        for step, view_json in page.steps:
            response.steps.append(
                match_pb2.ReplayStep(
                    version=step.version,
                    seat=step.seat,
                    action=logged_to_public(step.action) if step.action else common_pb2.LegalAction(label=HIDDEN),
                    view_json=view_json,
                )
            )
        return response, page.next_version

    async def _actions(self, live: LiveMatch, to_version: int) -> list[LoggedAction]:
        """Logged actions 1..`to_version`: the projection's, then this replica's own newest steps for any
        the projection has not written yet (it runs milliseconds behind the log)."""
        mine = {s.version: s for s in live.recent.values()}
        for pause in (0.0, *PROJECTION_WAIT):
            await asyncio.sleep(pause)
            actions = await self.store.actions(live.facts.id, 1, to_version)
            while len(actions) < to_version and len(actions) + 1 in mine:
                actions.append(mine[len(actions) + 1].logged_action())
            if len(actions) == to_version:
                return actions
        raise Unavailable(f"match {live.facts.id}: its history is not projected yet; retry shortly")


__all__ = ["MatchReads"]
