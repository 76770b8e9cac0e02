"""Stamps that say when a row last really changed: the base of every stamped model in Muster.

Reference, catalogue and list rows all carry them: a list's revision, the reference's data
version and the "changed since saved" notes are read from them, so the rule of when a stamp
moves lives once, here, rather than in one of the apps that use it.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import models
from django.utils import timezone


class StampedQuerySet(models.QuerySet):
    def update(self, **kwargs: object) -> int:
        """A bulk update (and so ``bulk_update``) moves the rows' stamps too.

        ``updated_at`` always, and each of the model's ``STAMP_GROUPS`` stamps whose fields are
        written (an explicit stamp in ``kwargs`` is kept as given).
        """
        now = timezone.now()
        for stamp in self.model.stamps_for(set(kwargs)):
            kwargs.setdefault(stamp, now)
        return super().update(**kwargs)


class StampedManager(models.Manager.from_queryset(StampedQuerySet)):  # type: ignore[misc]
    pass


class Stamped(models.Model):
    """A row that records when it last really changed, so revisions and versions see every edit.

    ``save`` moves the stamp when a value it writes differs from the stored row (the admin, the
    importers' ``save(update_fields=...)``; a new row always counts as changed), and
    ``updated_at`` alone when it is named in ``update_fields`` (a related row changed); a save
    that changes nothing moves nothing. A queryset's ``update`` always moves it
    (``StampedQuerySet``). ``loaddata`` saves raw, skipping ``save``: ``load_reference_data``
    writes only the rows that differ and stamps them itself.

    ``STAMP_GROUPS`` maps further stamp fields to the fields whose change moves them, so a
    catalogue unit can say whether its points, options or profile changed, not only that it did.
    """

    STAMP_GROUPS: dict[str, tuple[str, ...]] = {}

    updated_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        abstract = True

    @classmethod
    def stamp_fields(cls) -> set[str]:
        return {"updated_at", *cls.STAMP_GROUPS}

    @classmethod
    def stamps_for(cls, changed: set[str] | None) -> list[str]:
        """The stamps that move when ``changed`` fields are written (``None``: not known, all)."""
        stamps = ["updated_at"]
        for stamp, fields in cls.STAMP_GROUPS.items():
            if changed is None or changed.intersection(fields):
                stamps.append(stamp)
        return stamps

    def changed_fields(self, fields: Iterable[str] | None = None, using: str | None = None) -> set[str] | None:
        """Which of ``fields`` (default: all) differ from the stored row; ``None`` when there is none.

        Read from the database at save time (one query of the fields being saved): nothing is
        kept when rows are read, so the pages that read thousands of them pay nothing for it.
        """
        if self._state.adding or self.pk is None:
            return None
        stamps = self.stamp_fields()
        names = fields if fields is not None else [f.name for f in self._meta.concrete_fields]
        attnames = [
            attname
            for attname in (self._meta.get_field(name).attname for name in names)
            if attname not in stamps and attname != self._meta.pk.attname
        ]
        if not attnames:
            return set()
        manager = type(self)._base_manager.using(using or self._state.db)
        stored = manager.filter(pk=self.pk).values(*attnames).first()
        if stored is None:
            return None
        return {attname for attname in attnames if stored[attname] != getattr(self, attname)}

    def save(self, *args: object, **kwargs: object) -> None:
        fields = kwargs.get("update_fields")
        named = None if fields is None else [name for name in fields if name not in self.stamp_fields()]
        changed = self.changed_fields(named, kwargs.get("using"))  # type: ignore[arg-type]
        stamps = [] if changed == set() else self.stamps_for(changed)
        if fields is not None and "updated_at" in fields and not stamps:
            stamps = ["updated_at"]  # asked for by name: a related row changed
        now = timezone.now()
        for stamp in stamps:
            setattr(self, stamp, now)
        if fields:  # an empty list saves nothing, and stays so
            kwargs["update_fields"] = [*fields, *(stamp for stamp in stamps if stamp not in fields)]  # type: ignore[misc]
        super().save(*args, **kwargs)  # type: ignore[arg-type]


class Created(models.Model):
    """A row that keeps when it was made (a season, a league game, a share link, a game's action).

    Unlike ``Stamped``, Django's own ``auto_now_add`` sets it: these rows are the players' and the
    organisers' own, written through forms and views, never loaded from fixtures.
    """

    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True


class Timestamped(Created):
    """A row that keeps when it was made and when it was last saved (a list, a game, an event's rows).

    ``auto_now`` moves ``updated_at`` on every ``save``; a queryset's ``update`` and ``bulk_update``
    skip it, so the code that writes them sets it itself where a page reads it.
    """

    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True
