"""What a release holds, so that people can install it, build it, test it and cite it.

The sdist and the wheel are the real ones (tests/dist.py): the licence is in both with its
copyright holder, the sdist carries the whole test suite, the metadata names the authors,
the project's URLs and a bounded version range for every dependency, and CITATION.cff is
valid Citation File Format 1.2.0 by the CFF project's own schema (cffconvert ships it).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from email.parser import Parser

import pytest

import kingsbreakfast
from dist import ROOT, sdist, wheel

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
HOLDER = "the kingsbreakfast authors"


def test_the_licence_is_mit_with_a_named_copyright_holder() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert re.search(rf"^Copyright \(c\) \d{{4}} {HOLDER}$", text, re.M)
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]


def test_the_wheel_carries_the_licence_and_the_metadata() -> None:
    with zipfile.ZipFile(wheel()) as archive:
        names = archive.namelist()
        (licence,) = [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
        assert archive.read(licence) == (ROOT / "LICENSE").read_bytes()
        (meta,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        metadata = Parser().parsestr(archive.read(meta).decode())
    assert metadata["Name"] == "kingsbreakfast"
    assert metadata["Version"] == kingsbreakfast.__version__
    assert metadata["License-Expression"] == "MIT"
    assert HOLDER in (metadata["Author"] or "")
    urls = dict(entry.split(", ", 1) for entry in metadata.get_all("Project-URL") or [])
    assert {"Homepage", "Source", "Issues", "Changelog"} <= set(urls)
    assert all(url.startswith("https://") for url in urls.values())
    # platformdirs is core: the autosave folder is the same with or without the tui extra
    core = [r for r in metadata.get_all("Requires-Dist") or [] if "extra ==" not in r]
    assert sorted(re.split(r"[<>=!\[ ]", r)[0] for r in core) == ["platformdirs", "rich", "typer"]


def _sdist_names() -> set[str]:
    with tarfile.open(sdist()) as archive:
        top = archive.getnames()[0].split("/")[0]
        return {name.removeprefix(top + "/") for name in archive.getnames()}


def _tracked(folder: str) -> set[str]:
    done = subprocess.run(["git", "ls-files", folder], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:  # an unpacked sdist: no git, the files on disk are the source
        return {str(p.relative_to(ROOT)) for p in (ROOT / folder).rglob("*")
                if p.is_file() and "__pycache__" not in p.parts}
    return set(done.stdout.split())


def test_the_sdist_holds_the_whole_test_suite_and_what_it_needs() -> None:
    names = _sdist_names()
    tests = _tracked("tests")
    assert len(tests) > 100
    assert tests <= names, sorted(tests - names)[:20]
    assert {"LICENSE", "CHANGELOG.md", "CITATION.cff", "README.md", "pyproject.toml",
            "babel.cfg", "scripts/test.sh", "scripts/play.sh", "scripts/venv.sh"} <= names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


def test_twine_accepts_both_files_strictly() -> None:
    pytest.importorskip("twine", reason="twine (the test extra) checks the distributions")
    done = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(sdist()), str(wheel())],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2


def _validate_citation(text: str) -> None:
    cffconvert = pytest.importorskip("cffconvert", reason="cffconvert (the test extra)")
    cffconvert.Citation(cffstr=text).validate()


def test_the_citation_file_is_valid_cff_and_matches_the_package() -> None:
    text = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    _validate_citation(text)
    assert re.search(rf"^version: {re.escape(kingsbreakfast.__version__)}$", text, re.M)
    assert PROJECT["version"] == kingsbreakfast.__version__
    assert f'- name: "{HOLDER}"' in text and "license: MIT" in text
    assert PROJECT["urls"]["Source"] in text


def test_the_citation_check_catches_a_broken_file() -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="cffconvert's validator")
    text = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    without_authors = re.sub(r"^authors:\n(  .*\n)+", "", text, flags=re.M)
    assert without_authors != text
    with pytest.raises(jsonschema.ValidationError):
        _validate_citation(without_authors)
    with pytest.raises(jsonschema.ValidationError):
        _validate_citation(text.replace("type: software", "type: game"))


def test_the_changelog_keeps_a_changelog() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog")
    assert "keepachangelog.com" in text and "semver.org" in text
    assert re.search(r"^## \[Unreleased\]$", text, re.M)
    assert re.search(r"^### Added$", text, re.M)


def _requirements() -> list[str]:
    found = list(PROJECT["dependencies"])
    for extra, requirements in PROJECT["optional-dependencies"].items():
        found += [r for r in requirements if not r.startswith("kingsbreakfast[")]
        assert requirements, extra
    return found


def test_every_dependency_has_an_upper_bound() -> None:
    unbounded = [r for r in _requirements() if "<" not in r and "==" not in r]
    assert not unbounded, unbounded
    assert len(_requirements()) > 30


def test_the_readme_says_how_to_install_today_and_the_pypi_name() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = readme.split("```sh\n", 1)[1].split("```", 1)[0]
    assert "bash scripts/play.sh" in first_block
    assert "not on PyPI yet" in readme and "`pip install kingsbreakfast`" in readme
    assert (ROOT / "docs" / "releasing.md").is_file()
