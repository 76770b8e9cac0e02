"""Read-only JSON for events, for rankings sites and other tools (docs/events.md).

``GET /api/events/<slug>/``, ``/api/events/<slug>/rounds/<n>/`` and ``/api/events/<slug>/standings/``:
public once the organiser publishes the event, a 404 before (for everyone: the API has no sign-in).
A list's contents appear only once the organiser reveals the lists; before, an entrant shows their
army, points and legality, never their units or the hash of their list (a hash of a guessable list
would confirm a guess).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_safe

from armybuilder.events import escalation, services
from armybuilder.events.freshness import api_condition
from armybuilder.events.models import Event, Round

NOT_FOUND = {"error": "No published event has this address."}


def _json(data: dict, status: int = 200) -> JsonResponse:
    response = JsonResponse(data, status=status, json_dumps_params={"ensure_ascii": False})
    # Live data, which also changes when lists are revealed: never kept by a shared cache.
    response["Cache-Control"] = "no-cache"
    return response


def _event(slug: str) -> Event | None:
    return services.event_for_rules(Event.objects.filter(published=True)).filter(slug=slug).first()


def _entrant(entrant) -> dict:
    return {"id": entrant.pk, "name": entrant.name}


@require_safe
@api_condition
def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    if event is None:
        return _json(NOT_FOUND, status=404)
    entrants = []
    for row in services.entrant_rows(event):
        item = _entrant(row.entrant)
        if event.is_team_event:
            # A team event's entrants say their team: their lists, once revealed, read together.
            team = row.entrant.team
            item["team"] = {"id": team.pk, "name": team.name} if team is not None else None
        sub = row.submission
        if sub is not None:
            item.update(
                {
                    "army": sub.army_slug,
                    "points": sub.points,
                    "status": sub.status,
                    "legal": row.legal,
                }
            )
            if event.lists_revealed:
                # Problems name units and platoons: part of the list, hidden with it until revealed.
                item["problems"] = [problem.message for problem in row.problems]
                item["list"] = {"name": sub.list_name, "hash": sub.hash}
        entrants.append(item)
    data = {
        "slug": event.slug,
        "name": event.name,
        "date": event.date.isoformat(),
        "place": event.place,
        "rules": {
            "edition": event.edition.slug,
            "points_limit": event.points_limit,
            "max_order_dice": event.max_order_dice,
            "max_platoons": event.max_platoons,
            "allowed_armies": sorted(army.slug for army in event.allowed_armies.all()),
            # Units of the data and the organiser's own; a ban saved before bans were limited to
            # those names no other player's unit (its slug carries their account's number).
            "banned_units": sorted(
                unit.slug for unit in event.banned_units.all() if unit.owner_id in (None, event.organiser_id)
            ),
            "data_cutoff": event.data_cutoff.isoformat() if event.data_cutoff else None,
            "list_deadline": event.list_deadline.isoformat() if event.list_deadline else None,
            "rounds": event.rounds,
            "scoring": {"win": event.score_win, "draw": event.score_draw, "loss": event.score_loss},
            "tiebreaks": list(event.tiebreak_order),
            "prefer_axis_v_allies": event.prefer_sides,
            # A team event's team size and team tiebreaks (after team points); null for an individual event.
            "team_size": event.team_size,
            "team_tiebreaks": list(event.team_tiebreak_order) if event.is_team_event else None,
        },
        "lists_revealed": event.lists_revealed,
        "entrants": entrants,
    }
    if services.event_has_stages(event):
        escalation.add_to_api(data, event)
    return _json(data)


@require_safe
@api_condition
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _event(slug)
    round_ = None
    if event is not None:
        round_ = (
            Round.objects.filter(event=event, number=number, published=True)
            .prefetch_related("pairings__player_a__user", "pairings__player_b__user", "pairings__result")
            .first()
        )
    if round_ is None:
        return _json({"error": "No published round has this number."}, status=404)
    pairings = []
    for pairing in round_.pairings.all():
        players = [_entrant(pairing.player_a)]
        if pairing.player_b is not None:
            players.append(_entrant(pairing.player_b))
        result = getattr(pairing, "result", None)
        if pairing.is_bye:
            result_data = {"bye": True}
        elif result is None:
            result_data = None
        else:
            first, second = result.outcomes()
            result_data = {
                "outcomes": [first, second],
                "order_dice_destroyed": [result.dice_a, result.dice_b],
                "turns_played": result.turns,
                "points_destroyed": None if result.points_a is None else [result.points_a, result.points_b],
                "confirmed": result.counts,
                "by_organiser": result.by_organiser,
                "mission": result.mission,
            }
        pairings.append({"table": pairing.table, "players": players, "result": result_data})
    data = {"round": round_.number, "mission": round_.mission, "pairings": pairings}
    if event.is_team_event:
        data["team_pairings"] = _team_pairings(round_)
    return _json(data)


def _team_pairings(round_: Round) -> list[dict]:
    """A team round's team pairings: the two teams and, once both line-ups are set (the games are
    made then), each line-up in table order; a captain's line-up alone stays hidden, as on the page."""
    found = []
    for match in round_.team_matches.select_related("team_a", "team_b"):
        teams = [{"id": match.team_a.pk, "name": match.team_a.name}]
        if match.team_b is not None:
            teams.append({"id": match.team_b.pk, "name": match.team_b.name})
        lineups = [match.lineup_a, match.lineup_b] if match.lineups_set else None
        found.append({"teams": teams, "bye": match.is_bye, "lineups": lineups})
    return found


@require_safe
@api_condition
def standings_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    if event is None:
        return _json(NOT_FOUND, status=404)
    if event.standings_hidden:
        # Before the prize-giving: nobody's place, and said so.
        hidden = {"tiebreaks": list(event.tiebreak_order), "hidden": True, "standings": []}
        if event.is_team_event:
            hidden["teams"] = []
        return _json(hidden)
    rows = []
    for item in services.event_standings(event):
        row = {"place": item.row.place, "entrant": _entrant(item.entrant)}
        row["score"] = item.row.score
        for tiebreak in event.tiebreak_order:
            row[tiebreak] = item.row.value(tiebreak)
        row["games"] = item.row.played
        row["dropped"] = item.entrant.dropped
        # Bonus and penalty points, already in the score: the total and each one given.
        row["adjustment"] = item.row.adjustment
        row["adjustments"] = [
            {"category": a.category, "points": a.amount, "round": a.round_number, "reason": a.reason}
            for a in item.adjustments
        ]
        rows.append(row)
    data = {"tiebreaks": list(event.tiebreak_order), "hidden": False, "standings": rows}
    if event.is_team_event:
        data["team_tiebreaks"] = list(event.team_tiebreak_order)
        data["teams"] = _team_rows(event)
    return _json(data)


def _team_rows(event: Event) -> list[dict]:
    """A team event's team standings: each team's place, team points, tiebreaks and players."""
    from armybuilder.events.teams import team_standings

    rows = []
    for item in team_standings(event):
        row = {"place": item.row.place, "team": {"id": item.team.pk, "name": item.team.name}}
        row["team_points"] = item.row.team_points
        for tiebreak in event.team_tiebreak_order:
            row[tiebreak] = item.row.value(tiebreak)
        row["matches"] = item.row.played
        row["captain"] = item.team.captain_id
        row["players"] = [_entrant(member) for member in item.team.members.all()]
        rows.append(row)
    return rows
