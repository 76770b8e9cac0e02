"""Read-only JSON for a shared list: ``GET /api/lists/<share-token>/``.

The share token is the only key: whoever has the share link may read the list, nobody else.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_safe

from armybuilder.lists import exchange
from armybuilder.lists.access import get_shared_list
from armybuilder.lists.summary import list_summary


@require_safe
def list_detail(request: HttpRequest, token: str) -> HttpResponse:
    try:
        army_list = get_shared_list(token)
    except Http404:
        return JsonResponse({"error": "No list has this share link."}, status=404)
    summary = list_summary(army_list)
    data = {
        "name": army_list.name,
        "edition": army_list.edition.slug,
        "army": army_list.army.slug,
        "points": summary.points,
        "points_limit": summary.points_limit,
        "order_dice": summary.order_dice,
        "officers": [
            {
                "name": officer.name,
                "rank": officer.rank,
                "morale_bonus": officer.morale_bonus,
                "extra_orders": officer.extra_orders,
                "command_range": officer.command_range,
            }
            for officer in summary.officers
        ],
        "problems": [problem.message for problem in summary.problems],
        "units": [
            {
                "name": row.name,
                "unit": row.unit_slug,
                "quality": row.quality,
                "models": row.models,
                "options": {slug: count for slug, _, count in row.options},
                "points": row.points,
            }
            for row in exchange.entry_rows(army_list, summary)
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["X-Robots-Tag"] = "noindex"
    return response
