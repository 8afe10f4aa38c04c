"""The load benchmark's in-process measurement runs whole hands and reports each kind."""

from __future__ import annotations

from tests.bench.bench_http import in_process


def test_in_process_measures_ceiling_view_and_act() -> None:
    said: list[str] = []
    cost = in_process(2, 7, said.append)
    assert set(cost) == {"ceiling", "view", "act"}
    assert all(ms > 0 for ms in cost.values())
    assert len(said) == 1 and "act/ceiling" in said[0]
