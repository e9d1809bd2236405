"""The docs: a short README, results files that say how they were made, no work-log
references, and a site whose strict build passes (a broken link or a page left out of
the nav fails it)."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from paths import REPO

RESULTS = REPO / "benchmarks" / "results"
WORK_LOG = re.compile(r"session ?[0-9]|issue ?[0-9]|seed 00[0-9]", re.IGNORECASE)


def _doc_files() -> list[Path]:
    """The prose the docs own (the changelog is the one place a 'when' may appear)."""
    files = [REPO / "README.md", REPO / "mkdocs.yml", REPO / "benchmarks" / "README.md"]
    files += sorted((REPO / "docs").rglob("*.md"))
    files += sorted((REPO / "agents" / "models").glob("*.md"))
    files += sorted(RESULTS.glob("*.md"))
    return [f for f in files if f.is_file()]


def test_readme_is_short_and_keeps_both_commands() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    assert "bash scripts/run_main.sh" in text
    assert "bash scripts/run_tests.sh" in text


def test_docs_hold_no_work_log_references() -> None:
    hits = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for path in _doc_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if WORK_LOG.search(line)
    ]
    assert not hits, "\n".join(hits)


def test_code_holds_no_work_log_references() -> None:
    """Code, tests, scripts and settings speak of the project as it is, too."""
    listed = subprocess.run(
        ["git", "ls-files", "*.py", "*.sh", "*.toml", "*.ipynb"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    hits = [
        f"{name}:{number}: {line.strip()}"
        for name in listed.stdout.split()
        if (REPO / name).is_file()
        for number, line in enumerate((REPO / name).read_text(encoding="utf-8").splitlines(), 1)
        if WORK_LOG.search(line)
    ]
    assert not hits, "\n".join(hits)


def test_every_results_file_opens_with_a_heading_and_its_command() -> None:
    files = [f for f in sorted(RESULTS.glob("*.md")) if f.name != "README.md"]
    assert files
    for path in files:
        lines = path.read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("# "), path.name
        assert "```sh" in lines[1:4], path.name
        index = lines.index("```sh")
        assert lines[index + 1].strip(), f"{path.name}: empty command block"


def test_results_files_are_not_named_after_when_they_were_made() -> None:
    names = [f.name for f in RESULTS.iterdir()]
    assert not [n for n in names if "session" in n]


def _build(root: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of the tree at ``root`` (no ``--quiet``: it would also
    silence the warnings that ``--strict`` turns into a failure)."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=600,
    )


needs_mkdocs = pytest.mark.skipif(
    importlib.util.find_spec("mkdocs") is None, reason="mkdocs is not installed"
)


@needs_mkdocs
def test_site_builds_strictly(tmp_path: Path) -> None:
    result = _build(REPO, tmp_path)
    assert result.returncode == 0, result.stderr[-4000:]
    assert (tmp_path / "index.html").is_file()
    assert (tmp_path / "experiments" / "search" / "index.html").is_file()
    assert (tmp_path / "models" / "ppo_expert" / "index.html").is_file()


@needs_mkdocs
def test_a_page_missing_from_the_nav_fails_the_build(tmp_path: Path) -> None:
    """The strict build is only worth running if it fails: copy the site's sources,
    add a page the nav does not list, and expect the build to stop."""
    copy = tmp_path / "tree"
    shutil.copytree(REPO / "docs", copy / "docs", symlinks=True)
    shutil.copytree(RESULTS, copy / "benchmarks" / "results")
    shutil.copy(REPO / "benchmarks" / "README.md", copy / "benchmarks" / "README.md")
    shutil.copytree(REPO / "agents" / "models", copy / "agents" / "models")
    shutil.copy(REPO / "mkdocs.yml", copy / "mkdocs.yml")
    assert _build(copy, tmp_path / "site-ok").returncode == 0
    orphan = copy / "docs" / "orphan.md"
    orphan.write_text("# Orphan\n\n[nowhere](nowhere.md)\n", encoding="utf-8")
    result = _build(copy, tmp_path / "site-bad")
    assert result.returncode != 0
    assert "orphan.md" in result.stderr
