"""The figures of ``deploy/loadtest_events.py`` (the load test itself is a command, run by
``make loadtest-events``, never part of the suite): percentiles, errors, the report and lost results."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "deploy" / "loadtest_events.py"
spec = importlib.util.spec_from_file_location("loadtest_events", SCRIPT)
loadtest = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = loadtest  # dataclasses look their module up
spec.loader.exec_module(loadtest)


def test_percentiles_are_nearest_rank():
    values = [float(n) for n in range(1, 101)]  # 1..100, shuffled order must not matter
    values.reverse()
    assert loadtest.percentile(values, 0.5) == 50.0
    assert loadtest.percentile(values, 0.99) == 99.0
    assert loadtest.percentile(values, 1.0) == 100.0
    assert loadtest.percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert loadtest.percentile([7.0], 0.99) == 7.0
    assert math.isnan(loadtest.percentile([], 0.5))


def test_an_unexpected_status_counts_as_an_error_and_a_304_does_not():
    figures = loadtest.PhaseFigures()
    for status in (200, 304, 304, 502, 0):
        figures.add("phone-round", 0.1, status)
    figures.add("enter", 0.2, 302)
    figures.add("enter", 0.2, 200)  # the form shown again: the result was refused
    assert figures.errors("phone-round") == 2
    assert figures.errors("enter") == 1
    assert figures.requests() == 7


def test_the_phase_table_gives_counts_percentiles_ratios_to_ping_and_cpu_per_request():
    figures = loadtest.PhaseFigures(seconds=10.0, machine_busy=0.5)
    for ms in (10, 20, 30, 40):
        figures.add("ping", ms / 1000, 200)
    for ms in (100, 200, 300, 400):
        figures.add("phone-standings", ms / 1000, 304, copy=ms > 100)
    figures.cpu = {"gunicorn": 0.8}
    lines = loadtest.phase_table("quiet", figures)
    assert lines[0].startswith("quiet: 10 s, 8 requests (0.8/s), 0 errors; machine 50% busy")
    standings = next(line for line in lines if "phone-standings" in line).split()
    # kind, count, req/s, statuses, answered from nginx's copy, errors, p50, p99, p50/ping, p99/ping
    assert standings == ["phone-standings", "4", "0.4", "304:4", "75%", "0", "200.0", "400.0", "10.0", "10.0"]
    assert "CPU gunicorn: 0.8 s, 100.0 ms per request (8 requests, /ping/ included)" in lines[-1]


def test_a_result_is_lost_when_the_database_lacks_it_or_holds_another():
    told = {1: ("a", 3, 2), 2: ("draw", 0, 0), 3: ("b", 1, 5), 4: ("a", 2, 2)}
    stored = {
        1: ("a", 3, 2, True),  # as told
        2: ("draw", 0, 0, False),  # not confirmed
        3: ("b", 5, 1, True),  # other dice
    }  # 4: missing
    assert loadtest.lost_results(told, stored) == [2, 3, 4]
    assert loadtest.lost_results({}, stored) == []


def test_each_visitor_has_its_own_loopback_address():
    addresses = {loadtest.address(1, n) for n in range(2000)}
    assert len(addresses) == 2000
    assert all(a.startswith("127.1.") and not a.endswith((".0", ".255")) for a in addresses)
