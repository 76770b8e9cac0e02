"""The revision of a list's pages, for ``armybuilder.http.conditional``: reloads answered 304.

A list's builder, shared page, print preview and PDFs show the list (its row, platoons and
entries: every write to them moves the list's ``updated_at``), its army's catalogue (the army's
``updated_at``, moved by every import and data load) and the rules data (weapons and special
rules: ``reference.version``). The revision is read through the same access rules as the page,
so another visitor's list has none: the view runs and answers its 404.
"""

from __future__ import annotations

from django.http import HttpRequest

from armybuilder.http import Revision, conditional
from armybuilder.lists.access import lists_for_user
from armybuilder.lists.models import ArmyList
from armybuilder.reference.version import data_version

FIELDS = ("pk", "updated_at", "army__updated_at")


def _revision(row: tuple | None) -> Revision | None:
    if row is None:
        return None
    pk, updated_at, army_updated_at = row
    data = data_version()
    stamp = f"{pk}:{updated_at.isoformat()}:{army_updated_at.isoformat()}:{data.stamp}"
    return Revision(stamp, max(updated_at, army_updated_at, data.modified or updated_at))


def owned_list_revision(request: HttpRequest, pk: int, **kwargs: object) -> Revision | None:
    return _revision(lists_for_user(request).active().filter(pk=pk).values_list(*FIELDS).first())


def shared_list_revision(request: HttpRequest, token: str, **kwargs: object) -> Revision | None:
    return _revision(ArmyList.objects.active().filter(share_token=token).values_list(*FIELDS).first())


def list_revision(
    request: HttpRequest, *args: object, pk: int | None = None, token: str | None = None, **kwargs: object
) -> Revision | None:
    """For the views that serve a list both ways (the playsheets): by owner ``pk`` or share ``token``."""
    return shared_list_revision(request, token) if token is not None else owned_list_revision(request, pk or 0)


# The decorators the list pages wear.
owned_list_page = conditional(owned_list_revision)
shared_list_page = conditional(shared_list_revision)
list_page = conditional(list_revision)
