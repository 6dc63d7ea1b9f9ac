# SPDX-License-Identifier: Apache-2.0
"""The licence is declared where a legal review looks: LICENSE (Apache-2.0) at the root, the
parent POM, an SPDX line near the top of every tracked source file, and a statement in every
generated file that it may be used under any terms (checked on what `make gen` wrote)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from common import paths

REPO = paths.REPO_ROOT
SPDX = "SPDX-License-Identifier: Apache-2.0"
# Sources carry the line; generated test outputs (golden files) and documents do not.
SOURCE_SUFFIXES = (".java", ".py", ".sh", ".ini", ".properties", ".xml")
SOURCE_NAMES = {"Makefile", ".ci/run", "verif/requirements.txt", ".gitignore"}


def _tracked() -> list[str]:
    proc = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip("not a git checkout")
    return proc.stdout.split()


def test_licence_file_and_pom():
    text = (REPO / "LICENSE").read_text()
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    pom = (REPO / "pom.xml").read_text()
    assert "<licenses>" in pom and "<name>Apache-2.0</name>" in pom


def test_every_source_file_has_the_spdx_line():
    missing = [p for p in _tracked()
               if "/golden/" not in p and (p.endswith(SOURCE_SUFFIXES) or p in SOURCE_NAMES)
               and SPDX not in "\n".join((REPO / p).read_text().splitlines()[:3])]
    assert not missing, f"no '{SPDX}' in the first three lines of: {missing}"


def test_generated_files_may_be_used_under_any_terms():
    from common import generate

    design = generate("demo_accumulator")
    for f in (*design.files, design.dir / "demo_accumulator_inst.svh", design.dir / "demo_accumulator.core"):
        assert "may be used, modified and distributed under any terms" in f.read_text(), f.name
