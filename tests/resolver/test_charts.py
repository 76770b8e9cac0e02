"""The SVG bar chart and the number formats: pure functions, no database."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.utils import translation

from armybuilder.resolver.charts import Bar, bar_chart, bars_from_pmf, decimal, percent


def test_it_never_shows_a_possible_outcome_as_zero():
    assert percent(Fraction(1, 60466176)) == "<0.1%"
    assert percent("0") == "0%"


def test_it_never_shows_a_possible_failure_as_certain():
    assert percent(Fraction(59999, 60000)) == ">99.9%"
    assert percent("1") == "100%"


def test_it_rounds_to_one_decimal():
    assert percent("7/12") == "58.3%"


@pytest.mark.parametrize(
    ("value", "french"),
    [
        ("1/2", "50,0\u00a0%"),
        ("7/12", "58,3\u00a0%"),
        ("0", "0\u00a0%"),
        ("1", "100\u00a0%"),
        (Fraction(1, 60466176), "<0,1\u00a0%"),
        (Fraction(59999, 60000), ">99,9\u00a0%"),
    ],
)
def test_it_writes_percentages_the_french_way_in_french(value, french):
    with translation.override("fr"):
        assert percent(value) == french


@pytest.mark.parametrize(
    ("value", "english"),
    [("1/2", "50.0%"), ("0", "0%"), (Fraction(1, 60466176), "<0.1%"), (Fraction(59999, 60000), ">99.9%")],
)
def test_it_keeps_english_percentages_with_a_point_and_no_space(value, english):
    with translation.override("en"):
        assert percent(value) == english


def test_it_writes_means_with_a_decimal_comma_in_french():
    with translation.override("fr"):
        assert decimal("5/3") == "1,67"


def test_it_labels_bars_with_french_percentages_in_french():
    with translation.override("fr"):
        chart = bar_chart("Touches", [Bar("0 touche", Fraction(1, 4)), Bar("1 touche", Fraction(3, 4))])
    assert "<title>1 touche: 75,0\u00a0% (3/4)</title>" in chart.svg
    assert ">75,0\u00a0%</text>" in chart.svg


def test_it_shortens_means():
    assert decimal("5/3") == "1.67"
    assert decimal("5") == "5"


def test_it_fills_gaps_in_a_distribution():
    bars = bars_from_pmf({"0": "1/2", "2": "1/2"})
    assert [bar.label for bar in bars] == ["0", "1", "2"]
    assert bars[1].probability == 0


def test_it_labels_every_bar_with_its_value_and_percentage():
    chart = bar_chart("Hits", [Bar("0 hits", Fraction(1, 4)), Bar("1 hit", Fraction(3, 4))])
    assert "<title>1 hit: 75.0% (3/4)</title>" in chart.svg
    assert ">75.0%</text>" in chart.svg
    assert ">1 hit</text>" in chart.svg


def test_it_escapes_labels():
    chart = bar_chart("<b>", [Bar("<script>", Fraction(1))])
    assert "<script>" not in chart.svg


def test_it_leaves_thin_tails_out_of_the_picture_only():
    bars = bars_from_pmf({0: Fraction(1, 10000), 1: Fraction(9999, 10000)})
    chart = bar_chart("Casualties", bars)
    assert chart.hidden_count == 1
    assert len(chart.bars) == 2
