"""Shared fixtures: a virtual X display for UI tests, hypothesis profiles, tool paths."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from xvfb_display import XvfbFailed, xvfb  # noqa: E402

# The UI tests draw with Mesa's software renderer (llvmpipe) under Xvfb. Rasterizing on the
# drawing thread, rather than on a helper thread per core, takes a tour about a quarter less CPU
# in the same time alone; the two pytest workers then share the two cores instead of fighting.
os.environ.setdefault("LP_NUM_THREADS", "0")

ARTIFACTS = REPO / "artifacts"
VENV_BIN = Path(sys.executable).parent

# "dev" is quick for local runs; "ci" (CI=true) explores more but keeps make test well under 15 min.
settings.register_profile(
    "dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def venv_tool(name: str) -> str:
    """Path of a console tool installed next to this interpreter (the project's virtualenv)."""
    candidate = VENV_BIN / name
    if candidate.exists():
        return str(candidate)
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed; run `make test` to set up the virtualenv")
    return found


@pytest.fixture(scope="session")
def xvfb_display() -> Iterator[str]:
    """A private Xvfb server for the session; yields its DISPLAY value."""
    if shutil.which("Xvfb") is None:
        pytest.fail("Xvfb is missing: apt-get install xvfb (make test installs it as root)")
    try:
        with xvfb() as display:
            yield display
    except XvfbFailed as exc:
        pytest.fail(str(exc))


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """Where UI tests leave screenshots for a person to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


# The longest tests first, so that pytest-xdist (`make unit`: `--dist loadscope
# --no-loadscope-reorder`, a module at a time in collection order) starts them at once on the two
# workers and the short ones fill in around them: the long UI game, the tours (the one in every
# language first), then the other slow modules. A module's tests stay together (its fixtures are
# made once).
LONGEST_FIRST = (
    "tests/app/test_long_game_ui.py::",
    "tests/app/test_tour_ui.py::test_the_tour_finds_no_layout_problem_in_any_language",
    "tests/app/test_tour_ui.py::test_six_players",
    "tests/app/test_tour_ui.py::",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        for n, prefix in enumerate(LONGEST_FIRST):
            if item.nodeid.startswith(prefix):
                return n
        slow = item.get_closest_marker("slow") is not None
        return len(LONGEST_FIRST) if slow else len(LONGEST_FIRST) + 1

    ranks = {item.nodeid: rank(item) for item in items}
    modules: dict[str, int] = {}
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        modules[module] = min(modules.get(module, len(LONGEST_FIRST) + 1), ranks[item.nodeid])
    order = {module: n for n, module in enumerate(modules)}

    def key(item: pytest.Item) -> tuple[int, int, int]:
        module = item.nodeid.split("::", 1)[0]
        return modules[module], order[module], ranks[item.nodeid]

    items.sort(key=key)
