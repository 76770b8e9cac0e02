"""A list as Markdown (Discord, Reddit, GitHub) or BBCode (phpBB and most forums), compact or full.

Both come from the same rows as the plain-text export (``exchange.platoon_groups``), so the three
never disagree about a unit's name, options or points. Names are the player's text: each format's
markup characters in them are escaped, so a list named ``**win**`` or ``[url=…]`` prints as typed and
never turns into markup or a link.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext, ngettext

from armybuilder.lists.exchange import _option_text, _plain, officer_line, platoon_groups
from armybuilder.lists.models import ArmyList
from armybuilder.lists.problems import display_problem
from rules.army.model import ListSummary

STYLES = ("compact", "full")

# What starts emphasis, code, spoilers or a link anywhere in a line. Marks that act only at the start of
# a line (#, -, >) need nothing: a name never starts one here, and angle brackets are already gone.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_~|\[\]])")


def markdown_escape(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", _plain(text))


def bbcode_escape(text: str) -> str:
    # BBCode has no escape character: brackets become their full-width look-alikes, so no tag can start.
    return _plain(text).replace("[", "［").replace("]", "］")


@dataclass(frozen=True)
class Markup:
    """The few pieces of markup a list needs, per format."""

    escape: Callable[[str], str]
    title: str  # each a template around "{text}"
    heading: str
    item: str
    bold: str
    list_start: str = ""  # BBCode wraps items in [list]…[/list]; Markdown needs nothing
    list_end: str = ""

    def __call__(self, template: str, text: str) -> str:
        return template.format(text=text)


MARKDOWN = Markup(escape=markdown_escape, title="## {text}", heading="**{text}**", item="- {text}", bold="**{text}**")
BBCODE = Markup(
    escape=bbcode_escape,
    title="[size=150][b]{text}[/b][/size]",
    heading="[b]{text}[/b]",
    item="[*]{text}",
    bold="[b]{text}[/b]",
    list_start="[list]",
    list_end="[/list]",
)


def _models(count: int) -> str:
    return ngettext("%(n)s model", "%(n)s models", count) % {"n": count}


def _pts(points: object) -> str:
    return gettext("%(points)s pts") % {"points": points}


def _block(markup: Markup, heading: str, items: list[str]) -> list[str]:
    """A blank line, a heading and its items as a list."""
    lines = ["", markup(markup.heading, heading)]
    lines += [markup.list_start] if markup.list_start else []
    lines += [markup(markup.item, item) for item in items]
    lines += [markup.list_end] if markup.list_end else []
    return lines


def render(army_list: ArmyList, summary: ListSummary, *, markup: Markup, style: str = "full") -> str:
    """The list in ``markup``; ``compact`` is one line per unit with its points, ``full`` adds options,
    officers and problems."""
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r}")
    esc = markup.escape
    full = style == "full"
    lines = [
        markup(markup.title, esc(army_list.name)),
        f"{esc(army_list.army.display_name)} · {esc(army_list.edition.display_name)} · "
        + markup(markup.bold, _pts(f"{summary.points} / {summary.points_limit}"))
        + " · "
        + gettext("%(n)s order dice") % {"n": summary.order_dice},
    ]
    for group in platoon_groups(army_list, summary):
        items = []
        for row in group.rows:
            text = f"{esc(row.name)} ({row.quality_label}, {_models(row.models)})"
            if row.own:
                text += " (" + gettext("player's own entry") + ")"  # typed from their book, not checked data
            if full and row.options:
                text += f": {esc(_option_text(row.options))}"
            items.append(f"{text} – {_pts('?' if row.points is None else row.points)}")
        title = esc(group.name) if group.name else gettext("Not in a platoon")
        lines += _block(markup, f"{title} ({_pts(sum(row.points or 0 for row in group.rows))})", items)
    if full and summary.officers:
        officers = [officer_line(officer, esc(officer.name), inch="″") for officer in summary.officers]
        lines += _block(markup, gettext("Officers"), officers)
    if full and summary.problems:
        problems = [esc(str(display_problem(problem))) for problem in summary.problems]
        lines += _block(markup, gettext("Problems"), problems)
    lines += ["", gettext("Built with Muster")]
    return "\n".join(lines) + "\n"
