"""The tour notebook in a real JupyterLab, driven by headless Chromium.

JupyterLab runs from this Python environment on a free port, on a temporary copy of
``notebooks/00_tour.ipynb``, writing every table and figure to a scratch folder. The test
opens the notebook (it must not be marked modified), runs all cells, and checks that the
explorer shows as live widgets exactly once, refits when a slider moves, and that the page
logs no severe JavaScript error.

It needs Debian's ``chromium`` and ``chromium-driver`` and the ``selenium`` package (no
browser is downloaded). Without them it is skipped, unless ``RULELAB_REQUIRE_BROWSER=1``
(set by ``.ci/run``), where a missing browser is a failure: CI must not skip it silently.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import data_dir

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "00_tour.ipynb"
MAKEFILE = ROOT / "Makefile"


def _browser_or_reason() -> tuple[str | None, str | None, str | None]:
    """(chromium, chromedriver, None) if the browser test can run, else (.., .., reason)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    missing = [
        name for name, path in [("chromium", chromium), ("chromium-driver", driver)] if path is None
    ]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("the selenium package (pip install -e '.[dev]')")
    if data_dir() is None:
        missing.append("the benchmark data (RULELAB_DATA)")
    reason = None
    if missing:
        reason = (
            "the JupyterLab browser test needs "
            + ", ".join(missing)
            + " (apt-get install chromium chromium-driver)"
        )
    return chromium, driver, reason


def _need_browser():
    chromium, driver, reason = _browser_or_reason()
    if reason is None:
        return chromium, driver
    if os.environ.get("RULELAB_REQUIRE_BROWSER") == "1":
        pytest.fail(reason + "; RULELAB_REQUIRE_BROWSER=1 forbids skipping it")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _write_settings(settings: Path) -> None:
    """JupyterLab settings for a quiet, deterministic page: every cell in the DOM (no
    windowing, so every prompt can be read) and no news or update checks (network calls
    that would fail offline and log errors)."""
    for plugin, values in {
        "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
        "@jupyterlab/apputils-extension/notification": {
            "checkForUpdates": False,
            "fetchNews": "false",
        },
    }.items():
        package, name = plugin.rsplit("/", 1)
        path = settings / package / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on a copy of the tour notebook; yields (url, token, scratch)."""
    _need_browser()
    scratch = tmp_path_factory.mktemp("lab")
    work = scratch / "notebooks"
    work.mkdir()
    shutil.copy(NOTEBOOK, work / NOTEBOOK.name)  # the committed notebook is never opened
    _write_settings(scratch / "settings")
    env = {k: v for k, v in os.environ.items() if k not in ("RULELAB_HEADLESS", "MPLBACKEND")}
    env.update(
        {
            "RULELAB_DATA": str(data_dir()),
            "RULELAB_QUICK": "1",  # the notebook's QUICK settings
            "RULELAB_OUTPUT": str(scratch / "output"),  # its tables and figures go here
            "JUPYTER_RUNTIME_DIR": str(scratch / "runtime"),
            "IPYTHONDIR": str(scratch / "ipython"),
            "OMP_NUM_THREADS": "1",
        }
    )
    port, token = _free_port(), secrets.token_hex(16)
    log = open(scratch / "jupyter.log", "wb")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={token}",
            "--allow-root",  # CI runs as root in a container
            "--LabApp.extension_manager=readonly",  # no PyPI queries from the test
            f"--ServerApp.root_dir={work}",
            f"--LabApp.user_settings_dir={scratch / 'settings'}",
            f"--LabApp.workspaces_dir={scratch / 'workspaces'}",
        ],
        env=env,
        cwd=work,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=5):
                    break
            except OSError as err:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        "JupyterLab did not start:\n"
                        + (scratch / "jupyter.log").read_text()[-3000:]
                    ) from err
                time.sleep(0.5)
        yield url, token, scratch
    finally:
        # The server's own process group: the server and the kernels it started.
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(server.pid, sig)
                server.wait(30)
                break
            except ProcessLookupError:
                break
            except subprocess.TimeoutExpired:
                continue
        log.close()


@pytest.fixture(scope="module")
def browser(lab):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, driver_path = _need_browser()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1400,1000",
        "--no-first-run",
        "--disable-extensions",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


def _wait(driver, condition, timeout: float, what: str):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        return WebDriverWait(
            driver,
            timeout,
            poll_frequency=0.25,
            ignored_exceptions=(StaleElementReferenceException,),
        ).until(lambda d: condition(d))
    except Exception as err:
        raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}") from err


def _css(driver, selector: str):
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, selector)


def _menu(driver, menu: str, command: str) -> None:
    """Open a menu of the menu bar and click the item running ``command``."""
    next(m for m in _css(driver, ".lm-MenuBar-item") if m.text.strip() == menu).click()
    _wait(
        driver,
        lambda d: _css(d, f'.lm-Menu-item[data-command="{command}"]'),
        10,
        f"the {menu} menu",
    )[0].click()


def _kernel_idle(driver) -> bool:
    indicator = _css(
        driver, ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator"
    )
    return bool(indicator) and indicator[0].get_attribute("data-status") == "idle"


def _prompts(driver) -> list[str]:
    return [p.text.strip() for p in _css(driver, ".jp-CodeCell .jp-InputArea-prompt")]


def _explorer_text(driver) -> str:
    areas = _css(driver, ".rulelab-explorer .rulelab-result")
    return areas[0].text if areas else ""


def _explorer_idle(driver) -> bool:
    return bool(_css(driver, ".rulelab-explorer")) and not _css(driver, ".rulelab-busy")


def _enabled(sliders: dict) -> set[str]:
    """The labels of the sliders shown and not disabled (noUiSlider marks its target)."""
    from selenium.webdriver.common.by import By

    return {
        label
        for label, s in sliders.items()
        if s.is_displayed()
        and s.find_element(By.CSS_SELECTOR, ".noUi-target").get_attribute("disabled") is None
    }


# JavaScript console messages that are not errors of the page under test.
UNRELATED = [
    re.compile(r"favicon\.ico"),  # the browser asks for /favicon.ico; JupyterLab serves its own
]


@pytest.mark.slow
@pytest.mark.browser
def test_tour_notebook_runs_in_jupyterlab_with_one_live_explorer(lab, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    url, token, scratch = lab
    driver = browser
    driver.get(f"{url}/lab/tree/{NOTEBOOK.name}?reset&token={token}")
    _wait(driver, lambda d: _css(d, ".jp-NotebookPanel .jp-Cell"), 90, "the notebook to open")
    _wait(driver, _kernel_idle, 90, "the kernel to start")
    time.sleep(2)  # the kernel's start writes its name into the metadata, if they differed
    assert not _css(driver, ".lm-TabBar-tab.jp-mod-dirty"), (
        "opening the notebook marked it modified (does its kernelspec match the kernel's?)"
    )

    # Clear the committed outputs (their execution counts would look like a finished run),
    # then run all cells, both through the menus.
    _menu(driver, "Edit", "editmenu:clear-all")
    _wait(driver, lambda d: all(p == "[ ]:" for p in _prompts(d)), 10, "the outputs to clear")
    _menu(driver, "Run", "runmenu:run-all")
    n_cells = len(_prompts(driver))
    _wait(
        driver,
        lambda d: all(re.fullmatch(r"\[\d+\]:", p) for p in _prompts(d)) and _kernel_idle(d),
        150,
        f"all {n_cells} code cells to run",
    )
    errors = _css(driver, '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
    tracebacks = [e.text for e in errors if "Traceback" in e.text]
    assert not tracebacks, tracebacks

    # The explorer: live widgets, shown once, its first fit done.
    _wait(
        driver,
        lambda d: _explorer_idle(d) and "1Rule on pima" in _explorer_text(d),
        60,
        "the explorer's first fit",
    )
    assert len(_css(driver, ".rulelab-explorer")) == 1
    assert len(_css(driver, ".widget-dropdown")) == 2  # dataset and learner, once
    assert not [
        e.text
        for e in _css(driver, ".jp-OutputArea-output")
        if "Error displaying widget" in e.text or "Loading widget" in e.text
    ]
    sliders = {
        s.find_element(By.CSS_SELECTOR, ".widget-label").get_attribute("textContent"): s
        for s in _css(driver, ".rulelab-explorer .widget-slider")
    }
    assert set(sliders) == {
        "complexity",
        "degree (GRAB)",
        "rules / rounds",
        "clause length (CG)",
        "C (rules-first base)",
    }
    assert _enabled(sliders) == {"complexity"}  # all 1Rule reads, the others hidden

    # Choose RuSC: the rules slider is enabled, then move it with the keyboard.
    learner = _css(driver, ".rulelab-explorer .widget-dropdown select")[1]
    Select(learner).select_by_visible_text("RuSC")
    _wait(
        driver,
        lambda d: _explorer_idle(d) and "RuSC on pima" in _explorer_text(d),
        60,
        "the explorer to refit RuSC",
    )
    before = _explorer_text(driver)
    assert "RuSC on pima (complexity = 0.001, rules = 5): " in before
    assert _enabled(sliders) == {"complexity", "rules / rounds"}
    handle = sliders["rules / rounds"].find_element(By.CSS_SELECTOR, ".noUi-handle")
    handle.click()
    for _ in range(4):  # 5 -> 1 rule, four refits asked
        handle.send_keys(Keys.ARROW_LEFT)
    readout = sliders["rules / rounds"].find_element(By.CSS_SELECTOR, ".widget-readout")
    _wait(driver, lambda d: readout.text.strip() == "1", 10, "the slider to reach 1")
    _wait(
        driver,
        lambda d: _explorer_idle(d) and "rules = 1)" in _explorer_text(d),
        90,
        "the rule to update after the slider moved",
    )
    after = _explorer_text(driver)
    assert after.startswith("RuSC on pima (complexity = 0.001, rules = 1): ")
    assert ", 1 rules," in after and after.count("IF ") == 1

    # No severe JavaScript error on the page.
    severe = [
        entry["message"]
        for entry in driver.get_log("browser")
        if entry["level"] == "SEVERE" and not any(p.search(entry["message"]) for p in UNRELATED)
    ]
    assert severe == []
    # Everything the notebook wrote is in the scratch folder.
    assert (scratch / "output" / "results" / "claims_00_tour.csv").is_file()


def test_notebooks_name_the_kernel_the_makefile_installs():
    """JupyterLab rewrites a notebook's kernelspec to the running kernel's, marking it
    modified on open; so every notebook names the kernel ``make setup`` installs."""
    make = MAKEFILE.read_text()
    name = re.search(r"ipykernel install .*--name (\S+)", make).group(1)
    display = re.search(r'ipykernel install .*--display-name "([^"]+)"', make).group(1)
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        spec = json.loads(nb.read_text())["metadata"]["kernelspec"]
        assert (spec["name"], spec["display_name"], spec["language"]) == (
            name,
            display,
            "python",
        ), nb.name
