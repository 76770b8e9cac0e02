"""A round page's games, as each viewer sees them.

Another viewer's game looks the same to every player and visitor: ``public_rows`` renders each
game that way once per change of that game, and the round page keeps the whole list per version of
the event (``freshness.by_version``); only the viewer's own games, and the organiser's whole page,
are built for the viewer. A 250-game round followed by 500 players' phones renders a game again
only when it changed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Q
from django.template.loader import get_template
from django.utils.translation import get_language

from armybuilder.events.forms import ResultForm
from armybuilder.events.freshness import FRAGMENT_SECONDS
from armybuilder.events.models import Entrant, Event, Pairing, Round
from armybuilder.http import build_stamp


@dataclass(frozen=True)
class SharedGame:
    """Another viewer's game on a round page, as built for every viewer (``public_rows``)."""

    pk: int
    html: str


def round_games(round_: Round):
    return round_.pairings.select_related("player_a__user", "player_b__user", "result")


def own_games(round_: Round, entrant: Entrant | None) -> list[Pairing]:
    if entrant is None:
        return []
    return list(round_games(round_).select_related("game").filter(Q(player_a=entrant) | Q(player_b=entrant)))


def dressed(pairing: Pairing, event: Event, entrant: Entrant | None, is_organiser: bool) -> Pairing:
    """A game with what its viewer sees of it: theirs or not, its lists' links, its forms."""
    pairing.mine = entrant is not None and pairing.seat_of(entrant.pk) is not None
    # Against a walk-in (no account) nobody confirms the player's result: the organiser sets it.
    pairing.against_walk_in = pairing.mine and any(
        player is not None and player.is_walk_in for player in (pairing.player_a, pairing.player_b)
    )
    pairing.res = getattr(pairing, "result", None)
    # A sealed list is linked only where it can be read (``can_see_list``): before the reveal a
    # player sees their own list, not their opponent's (that link answered 404).
    pairing.list_a, pairing.list_b = (
        event.lists_revealed or is_organiser or (entrant is not None and player == entrant.pk)
        for player in (pairing.player_a_id, pairing.player_b_id)
    )
    # The finished game's result, proposed to its two players only: replaying a game costs
    # queries, and another viewer's page must not grow with the games of the round.
    pairing.proposed = pairing.proposed_result() if pairing.mine and pairing.game_id else None
    # A result form only where the page shows one (the viewer's own game, every game for the
    # organiser): a phone following a 250-game round builds none. Ids unique on the page.
    pairing.form = None
    if (pairing.mine or is_organiser) and not pairing.is_bye:
        names = (pairing.player_a.name, pairing.player_b.name)
        pairing.form = ResultForm(
            auto_id=f"p{pairing.pk}-%s", initial=pairing.proposed, names=names, with_points=event.ranks_by_points
        )
    return pairing


def public_rows(event: Event, round_: Round, stage) -> list[SharedGame]:
    """The round's games as a viewer who plays none of them sees them: no form, no per-viewer
    link, rendered without the request (so without a CSRF token), one template for all.

    Each game's rendering is kept under the stamps it is drawn from (the game's, its result's, its
    two players', the round's and the event's: what the event's version is read from), so a result
    entered renders that one game again, not the round's 250.
    """
    around = f"{event.pk}|{event.updated_at}|{round_.updated_at}|{get_language()}|{build_stamp()}"
    stamps = round_.pairings.values_list(
        "pk", "updated_at", "result__updated_at", "player_a__updated_at", "player_b__updated_at"
    )
    keys = {row[0]: _key(around, row) for row in stamps}
    kept = cache.get_many(keys.values())
    missing = [pk for pk, key in keys.items() if key not in kept]
    if missing:
        template = get_template("events/round.html#pairing")
        context = {"event": event, "round": round_, "stage": stage, "is_organiser": False}
        fresh = {
            keys[pairing.pk]: template.render({**context, "p": dressed(pairing, event, None, False)})
            for pairing in round_games(round_).filter(pk__in=missing)
        }
        cache.set_many(fresh, FRAGMENT_SECONDS)
        kept.update(fresh)
    # A game deleted between the two reads (a round paired again) is left out.
    return [SharedGame(pk, kept[key]) for pk, key in keys.items() if key in kept]


def _key(around: str, stamps: tuple) -> str:
    text = "|".join(str(value) for value in (around, *stamps))
    return "events:game:" + hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
