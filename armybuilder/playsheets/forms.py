"""The print options (paper, language, parts), read from the query string of every playsheet URL."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.conf import settings
from django.http import QueryDict
from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import get_language_info
from django.utils.translation import gettext_lazy as _

from armybuilder.playsheets.context import PAPERS, PARTS

# The site's languages, each named in itself as the language switch in base.html names it: a language
# added to the settings is offered for printing too.
LANGUAGES = tuple((code, capfirst(get_language_info(code)["name_local"])) for code, _name in settings.LANGUAGES)
DEFAULT_PARTS = ("roster", "summary", "cards")


@dataclass(frozen=True)
class PrintOptions:
    paper: str
    lang: str
    parts: tuple[str, ...]

    def query(self, **extra: str) -> str:
        """The options as a query string, for the preview's links and its iframe."""
        query = QueryDict(mutable=True)
        query["paper"] = self.paper
        query["lang"] = self.lang
        query.setlist("parts", list(self.parts))
        for key, value in extra.items():
            query[key] = value
        return query.urlencode()


class PrintForm(forms.Form):
    paper = forms.ChoiceField(
        label=_("Paper"), choices=[("a4", "A4"), ("letter", _("US Letter"))], widget=forms.RadioSelect
    )
    lang = forms.ChoiceField(label=_("Language"), choices=LANGUAGES, widget=forms.RadioSelect)
    parts = forms.MultipleChoiceField(
        label=_("Parts"),
        choices=[
            ("roster", _("Roster")),
            ("summary", _("Rules summary (the rules and weapons this list uses)")),
            ("cards", _("Unit cards")),
            ("reference", _("Quick reference sheet")),
        ],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )


def default_language() -> str:
    active = (translation.get_language() or "en").split("-")[0]
    return active if active in dict(LANGUAGES) else "en"


def print_options(data: QueryDict, *, default_parts: tuple[str, ...] = DEFAULT_PARTS) -> tuple[PrintOptions, PrintForm]:
    """The options asked for; an unknown or missing value falls back to its default, never to an error.

    Links are shared and bookmarked, so a stale ``?paper=`` must still print something sensible.
    """
    form = PrintForm(data)
    form.is_valid()
    cleaned: dict[str, Any] = form.cleaned_data
    paper = cleaned.get("paper") or "a4"
    lang = cleaned.get("lang") or default_language()
    parts = tuple(part for part in PARTS if part in (cleaned.get("parts") or ())) or default_parts
    options = PrintOptions(paper=paper if paper in PAPERS else "a4", lang=lang, parts=parts)
    bound = PrintForm(initial={"paper": options.paper, "lang": options.lang, "parts": list(options.parts)})
    return options, bound
