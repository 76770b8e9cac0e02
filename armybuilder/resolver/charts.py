"""Server-side SVG bar charts for the combat calculator.

The chart is a horizontal bar per value (one row each), so it stays readable on a phone and with many
values. Every bar carries its value and percentage as text and a ``<title>`` with the exact fraction,
so nothing depends on colour or hovering. The page pairs it with a ``<table>`` of the same numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.utils.formats import get_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

# Tails below this share of the total are left out of the picture (never out of the table).
TAIL_CUTOFF = Fraction(1, 2000)

WIDTH = 340
ROW = 24
# Room for the longest percentage, ">99,9 %" (French adds a space before the sign).
PERCENT_WIDTH = 60
TOP = 4
# Roughly the advance of one 13px sans-serif character, to size the label column to its longest label.
CHAR_WIDTH = 7.4


def to_fraction(value: object) -> Fraction:
    """Read a probability given as a Fraction, an int or a "7/12" string."""
    if isinstance(value, Fraction):
        return value
    return Fraction(str(value))


# Languages whose typography puts a space between a number and "%": French, German (DIN 5008) and
# Spanish (the RAE's rule); English, Polish and Italian write "58,3%".
SPACE_BEFORE_PERCENT = frozenset({"fr", "de", "es"})


def _space_before_percent() -> bool:
    return (get_language() or "en").split("-")[0] in SPACE_BEFORE_PERCENT


def _localised(number: str) -> str:
    """A number written with Python's "." in the active language's decimal separator: "58,3" in French."""
    return number.replace(".", get_format("DECIMAL_SEPARATOR"))


def _with_sign(number: str) -> str:
    # "58,3 %" where the language spaces the sign; U+00A0 keeps the two on one line.
    return f"{number}\u00a0%" if _space_before_percent() else f"{number}%"


def percent(value: object) -> str:
    """A probability as a percentage with one decimal, never showing a possible outcome as 0% or 100%.

    In the active language: "58.3%" in English, "58,3 %" (no-break space) in French and German,
    "58,3%" in Polish and Italian.
    """
    p = to_fraction(value)
    if p == 0:
        return _with_sign("0")
    if p == 1:
        return _with_sign("100")
    scaled = round(float(p) * 100, 1)
    if scaled <= 0:
        return "<" + _with_sign(_localised("0.1"))
    if scaled >= 100:
        return ">" + _with_sign(_localised("99.9"))
    return _with_sign(_localised(f"{scaled:.1f}"))


def decimal(value: object, places: int = 2) -> str:
    """A mean (casualties, rounds) as a short decimal: "1.67" in English, "1,67" in French."""
    text = f"{float(to_fraction(value)):.{places}f}"
    return _localised(text.rstrip("0").rstrip(".") if "." in text else text)


@dataclass(frozen=True)
class Bar:
    label: str
    probability: Fraction

    @property
    def percent(self) -> str:
        return percent(self.probability)

    @property
    def exact(self) -> str:
        return str(self.probability)


@dataclass(frozen=True)
class Chart:
    """A titled distribution: ``bars`` has every value, ``shown`` the ones drawn in the SVG."""

    title: str
    bars: tuple[Bar, ...]
    shown: tuple[Bar, ...]
    svg: SafeString

    @property
    def hidden_count(self) -> int:
        return len(self.bars) - len(self.shown)


def bars_from_pmf(pmf: Mapping[object, object], label: Callable[[int], str] = str) -> list[Bar]:
    """Bars for a PMF keyed by counts (ints or digit strings), in count order, gaps filled with zeros."""
    values = {int(str(k)): to_fraction(v) for k, v in pmf.items()}
    if not values:
        return []
    lo, hi = min(0, *values), max(values)
    return [Bar(label(k), values.get(k, Fraction(0))) for k in range(lo, hi + 1)]


def _visible(bars: Sequence[Bar]) -> list[Bar]:
    """Drop the thin tails at both ends so the picture shows where the mass is."""
    keep = [i for i, bar in enumerate(bars) if bar.probability >= TAIL_CUTOFF]
    if not keep:
        return list(bars)
    return list(bars[keep[0] : keep[-1] + 1])


def bar_chart(title: str, bars: Sequence[Bar], *, trim: bool = True) -> Chart:
    """Build the chart. The SVG scales to its container; the text stays legible down to 320px."""
    shown = _visible(bars) if trim else list(bars)
    peak = max((bar.probability for bar in shown), default=Fraction(0)) or Fraction(1)
    label_width = round(max((len(bar.label) for bar in shown), default=4) * CHAR_WIDTH + 14)
    plot = WIDTH - label_width - PERCENT_WIDTH
    height = TOP * 2 + ROW * len(shown)
    rows = []
    for index, bar in enumerate(shown):
        top = TOP + index * ROW
        middle = f"{top + ROW / 2:.1f}"
        width = float(bar.probability / peak) * plot
        # A possible outcome always gets a visible sliver, so 0.04% is not drawn like 0%.
        if bar.probability and width < 1.5:
            width = 1.5
        rows.append(
            (
                f"{bar.label}: {bar.percent} ({bar.exact})",
                label_width - 8,
                middle,
                bar.label,
                label_width,
                top + 3,
                f"{width:.1f}",
                ROW - 6,
                f"{label_width + width + 6:.1f}",
                middle,
                bar.percent,
            )
        )
    body = format_html_join(
        "",
        '<g class="bar"><title>{}</title>'
        '<text class="bar-label" x="{}" y="{}" text-anchor="end" dominant-baseline="central">{}</text>'
        '<rect x="{}" y="{}" width="{}" height="{}" rx="2"></rect>'
        '<text class="bar-value" x="{}" y="{}" dominant-baseline="central">{}</text></g>',
        rows,
    )
    svg = format_html(
        '<svg class="bar-chart" role="img" viewBox="0 0 {} {}" width="{}" height="{}" '
        'preserveAspectRatio="xMinYMin meet" aria-labelledby="{}"><title id="{}">{}</title>'
        '<line class="axis" x1="{}" y1="0" x2="{}" y2="{}"></line>{}</svg>',
        WIDTH,
        height,
        WIDTH,
        height,
        _slug(title),
        _slug(title),
        title,
        label_width,
        label_width,
        height,
        body if rows else mark_safe(""),
    )
    return Chart(title=title, bars=tuple(bars), shown=tuple(shown), svg=svg)


def _slug(title: str) -> str:
    return "chart-" + "".join(c if c.isalnum() else "-" for c in title.lower()).strip("-")
