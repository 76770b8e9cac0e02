"""The 200 own-unit cap holds when creates race: the red team's parallel posts ended at 202 units.

Each create counted the player's units and then inserted; two at once both counted 199. The
create now locks the player's user row first (``own_units._lock_owner``), so the counts queue.
The clients are real threads, each with its own connection, against a committed database
(``transaction=True``): on PostgreSQL (CI's second run) they race for the row lock; on SQLite,
whose writers queue for the whole database, the same test checks the answers and the count.
"""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connection
from django.test import Client

from armybuilder.catalogue.models import Unit
from rules.army import own_units as own_rules
from tests.catalogue.own_units import load_v3_generic, post_data
from tests.lists.factories import make_user

CLIENTS = 8
ROOM = 3  # units left under the cap when the clients start


@pytest.mark.django_db(transaction=True)
def test_racing_creates_never_pass_the_cap():
    army = load_v3_generic()
    alice = make_user("alice")
    Unit.objects.bulk_create(
        Unit(
            army=army,
            owner=alice,
            slug=f"own-{n}",
            name=f"U{n}",
            unit_type="team",
            slot="other",
            source="t",
            cost_regular=1,
        )
        for n in range(own_rules.OWN_UNITS_MAX - ROOM)
    )
    start = threading.Barrier(CLIENTS)
    statuses: Counter[int] = Counter()
    refusals: list[str] = []
    failures: list[BaseException] = []
    lock = threading.Lock()

    def create(n: int) -> None:
        client = Client()
        client.force_login(alice)
        try:
            start.wait(timeout=30)
            response = client.post("/units/new/v3/", post_data(army, name=f"Racer {n}"))
            with lock:
                statuses[response.status_code] += 1
                if response.status_code == 400:
                    refusals.append(response.content.decode())
        except BaseException as error:  # reported to the main thread below
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=create, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert not failures, failures
    assert Unit.objects.filter(owner=alice).count() == own_rules.OWN_UNITS_MAX
    assert statuses == {302: ROOM, 400: CLIENTS - ROOM}, statuses
    assert all("the most one player can keep" in page for page in refusals)
