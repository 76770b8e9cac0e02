"""Eight clients duplicating and removing units on one list at once: no deadlock, no 5xx.

Each write to a list locks the list's row first (``services._lock_list``), so two writes on one
list queue behind each other instead of each holding a row the other wants (on PostgreSQL the
red team's run logged ``deadlock detected`` on ``UPDATE lists_armylist SET updated_at`` and
answered 9 × 503 in 204 removes). The clients are real threads, each with its own database
connection, against a committed database (``transaction=True``): on PostgreSQL (CI's second
run) they interleave row locks; on SQLite (whose writers queue for the whole database) the same
test checks that the answers and the final list are right.
"""

from __future__ import annotations

import re
import threading
from collections import Counter

import pytest
from django.db import connection
from django.test import Client

from armybuilder.lists.models import Entry
from tests.lists.factories import make_builder_list, make_user

HX = {"HX-Request": "true"}
CLIENTS = 8
ROUNDS = 6


@pytest.mark.django_db(transaction=True)
def test_eight_clients_duplicating_and_removing_on_one_list_get_no_error():
    alice = make_user("alice")
    army_list = make_builder_list(alice, entries=CLIENTS)
    originals = list(army_list.entries.values_list("pk", flat=True))
    base = f"/lists/{army_list.pk}/entries"
    start = threading.Barrier(CLIENTS)
    statuses: Counter[int] = Counter()
    failures: list[BaseException] = []
    lock = threading.Lock()

    def client_loop(entry_pk: int) -> None:
        client = Client()
        client.force_login(alice)
        try:
            start.wait(timeout=30)
            for _ in range(ROUNDS):
                # Duplicate this client's unit (a new row, the positions after it shifted), then
                # remove the copy, as the red team's clients did.
                duplicated = client.post(f"{base}/{entry_pk}/duplicate/", headers=HX)
                rows = {int(pk) for pk in re.findall(r'id="entry-(\d+)"', duplicated.content.decode())}
                copy = max(rows - {entry_pk}, default=None)
                removed = client.post(f"{base}/{copy}/remove/", headers=HX) if copy else None
                with lock:
                    statuses[duplicated.status_code] += 1
                    statuses[removed.status_code if removed is not None else -1] += 1
        except BaseException as error:  # reported to the main thread below
            failures.append(error)
        finally:
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=client_loop, args=(pk,)) for pk in originals]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert not failures, failures
    assert not any(thread.is_alive() for thread in threads)
    assert statuses == {200: 2 * CLIENTS * ROUNDS}, statuses
    # Every copy was removed; the originals are all there, each at its own position.
    remaining = list(Entry.objects.filter(army_list=army_list).values_list("pk", "position"))
    assert sorted(pk for pk, _position in remaining) == sorted(originals)
    assert len({position for _pk, position in remaining}) == CLIENTS
