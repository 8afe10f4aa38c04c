"""The licence: a LICENSE file, the package metadata and the OpenAPI document say the same."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_licence_is_mit_in_the_file_the_metadata_and_the_openapi_document() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    licence = (ROOT / "LICENSE").read_text()
    openapi = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    assert licence.startswith("MIT License\n")
    assert "Copyright (c)" in licence and "the sixtysix authors" in licence
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    assert openapi["info"]["license"]["identifier"] == "MIT"
