"""The revision of a list's pages, for ``armybuilder.http.conditional``: reloads answered 304.

A list's builder, shared page, print preview and PDFs show the list (its row, platoons and
entries), its army, the units its entries take with their options, weapons and rules, and the
rules data. ``ArmyListQuerySet.revisions()`` reads the stamps, counts and sums of ids of all the
list's and catalogue rows in one query; ``reference.version`` adds the rules data's version.

What keeps that honest is the stamps themselves (``armybuilder.stamps.Stamped``): every catalogue
row (army, unit, option, weapon, special rule) has one, moved by ``save()`` when a value differs,
by every ``QuerySet.update()``, by a change of the weapons and rules linked to a unit, and by
``load_reference_data`` for the rows it really changes; an added or deleted row moves a count
and a sum of ids. A write that bypasses all of those (raw SQL, ``bulk_create`` of link rows
behind the ORM's back) is the one way to go unseen. The revision is read through the same
access rules as the page, so another visitor's list has none: the view runs and answers its 404.
"""

from __future__ import annotations

import hashlib

from django.http import HttpRequest

from armybuilder.http import Revision, conditional
from armybuilder.lists.access import lists_for_user
from armybuilder.lists.models import ArmyList
from armybuilder.reference.version import data_version


def revision_stamp(row: tuple) -> str:
    """A list's ``ArmyListQuerySet.revisions()`` row as a short text, for ETags and cache keys."""
    text = ":".join(value.isoformat() if hasattr(value, "isoformat") else str(value) for value in row)
    return f"{row[0]}-{hashlib.blake2b(text.encode(), digest_size=10).hexdigest()}"


def list_stamp(pk: int) -> str:
    """The current revision of list ``pk`` (one query), whoever may see it: for keys of kept PDFs."""
    row = ArmyList.objects.filter(pk=pk).revisions().first()
    return revision_stamp(row) if row is not None else f"{pk}:gone"


def _revision(row: tuple | None) -> Revision | None:
    if row is None:
        return None
    data = data_version()
    stamps = [value for value in row[1:] if hasattr(value, "isoformat")]
    if data.modified is not None:
        stamps.append(data.modified)
    return Revision(f"{revision_stamp(row)}:{data.stamp}", max(stamps))


def owned_list_revision(request: HttpRequest, pk: int, **kwargs: object) -> Revision | None:
    return _revision(lists_for_user(request).active().filter(pk=pk).revisions().first())


def shared_list_revision(request: HttpRequest, token: str, **kwargs: object) -> Revision | None:
    return _revision(ArmyList.objects.active().filter(share_token=token).revisions().first())


def list_revision(
    request: HttpRequest, *args: object, pk: int | None = None, token: str | None = None, **kwargs: object
) -> Revision | None:
    """For the views that serve a list both ways (the playsheets): by owner ``pk`` or share ``token``."""
    return shared_list_revision(request, token) if token is not None else owned_list_revision(request, pk or 0)


# The decorators the list pages wear.
owned_list_page = conditional(owned_list_revision)
shared_list_page = conditional(shared_list_revision)
list_page = conditional(list_revision)
