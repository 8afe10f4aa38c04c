"""Without Debian's chromium the browser tests skip, but never where CI is set."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web import conftest


def test_a_missing_chromium_skips_outside_ci_and_fails_in_ci(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(conftest, "CHROMIUM", tmp_path / "chromium")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="chromium missing: apt-get install"):
        conftest._require_chromium()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI is set but"):
        conftest._require_chromium()
