"""`rocm-miner report`: one static page per mined library, checked in a real headless browser (Debian's chromium
driven by Playwright): it renders, its search finds an entry, an entry's graph is drawn with live and dead kernels
told apart, nothing is fetched from the network and the console stays clean."""

from __future__ import annotations

import shutil

import pytest
from playwright.sync_api import sync_playwright

from tests.test_cli import run_cli

CHROMIUM = shutil.which("chromium")


@pytest.fixture(scope="module")
def report(tinyblas, tmp_path_factory):
    page = tmp_path_factory.mktemp("report") / "tinyblas.html"
    proc = run_cli("report", str(tinyblas[1]), "--html", str(page), "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    assert "families" in proc.stdout
    return page


@pytest.fixture(scope="module")
def browser():
    assert CHROMIUM, "setup.sh installs chromium: the report is tested in a real browser"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield browser
        browser.close()


def _open(browser, path, problems: list, requests: list):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    page.wait_for_selector("#families li")
    return page


def test_the_page_renders_searches_and_draws_an_entry_without_errors_or_network(browser, report):
    problems, requests = [], []
    page = _open(browser, report, problems, requests)
    assert page.inner_text("#title") == "rocm-miner: tinyblas"
    page.fill("#search", "tinyblas_sgemv")
    visible = page.locator("nav li[data-entry]:visible").all_inner_texts()
    assert "tinyblas_sgemv" in visible and all("gemv" in v for v in visible)
    page.click('nav li[data-entry="tinyblas_sgemv"] a')
    page.wait_for_selector("#graph svg")
    assert page.inner_text("#entry-name").startswith("tinyblas_sgemv")
    assert page.locator("#graph g.node.live").count() >= 2  # gemvn and gemvt run for sgemv
    page.fill("#search", "tinyblas_sscal")
    page.click('nav li[data-entry="tinyblas_sscal"] a')
    page.wait_for_function("document.getElementById('entry-name').textContent.startsWith('tinyblas_sscal')")
    dead = page.eval_on_selector_all("#graph g.node.dead > title", "titles => titles.map(t => t.textContent)")
    assert any("tinyblas_hscal_2_kernel" in t and "dead (type)" in t for t in dead)
    assert page.locator("#graph g.node[id^=x]").count() >= 1  # what the traversal left out, greyed
    region = page.locator("details.region.live").first
    region.locator("summary").click()
    assert "__global__" in region.locator("pre").inner_text() or "KERNEL" in region.locator("pre").inner_text()
    assert problems == []
    assert requests == [report.as_uri()]  # the page itself, and nothing else


def test_a_deep_link_opens_an_entry_and_an_unknown_one_says_so(browser, report):
    problems, requests = [], []
    page = _open(browser, report, problems, requests)
    page.goto(report.as_uri() + "#entry=tinyblas_dgemv")
    page.wait_for_selector("#graph svg")
    page.goto(report.as_uri() + "#entry=no_such_entry")
    page.wait_for_function("document.querySelector('#entry h2').textContent === 'no_such_entry'")
    assert "no such entry point" in page.inner_text("#entry")
    assert problems == []


def test_the_page_loads_nothing_from_elsewhere(report):
    text = report.read_text()
    assert "<script src" not in text and "<link" not in text and "@import" not in text
    assert "http://" not in text.split('<script type="application/json"')[0]  # the page's own markup and styles


def test_a_folder_from_another_tool_is_one_line(tmp_path):
    (tmp_path / "run.json").write_text("{}")
    proc = run_cli("report", str(tmp_path))
    assert proc.returncode == 2 and "not a rocm-miner output folder" in proc.stderr
    assert not (tmp_path / "report.html").exists()
