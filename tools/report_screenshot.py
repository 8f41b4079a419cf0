"""Open a report page in headless Chromium (Debian's, through Playwright), time it, and take a screenshot of one
entry: how long the page takes to show its index, and to draw the entry's graph.

    python tools/report_screenshot.py REPORT.html ENTRY OUT.png [--runs N]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import time
from pathlib import Path

from playwright.sync_api import sync_playwright


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report", type=Path)
    ap.add_argument("entry")
    ap.add_argument("png", type=Path)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    opened, drawn, problems = [], [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=shutil.which("chromium"), args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        for run in range(args.runs):
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.on("pageerror", lambda e: problems.append(str(e)))
            start = time.perf_counter()
            page.goto(args.report.resolve().as_uri())
            page.wait_for_selector("#families li")
            opened.append(time.perf_counter() - start)
            page.fill("#search", args.entry)
            start = time.perf_counter()
            page.click(f'nav li[data-entry="{args.entry}"] a')
            page.wait_for_selector("#graph svg")
            drawn.append(time.perf_counter() - start)
            if run == args.runs - 1:
                page.screenshot(path=str(args.png))
            page.close()
        browser.close()
    size = args.report.stat().st_size / 1e6
    print(f"{args.report} ({size:.1f} MB): index shown in {statistics.median(opened):.2f} s, {args.entry} drawn in "
          f"{statistics.median(drawn):.2f} s (median of {args.runs}); page errors: {len(problems)}")  # fmt: skip
    return 0 if not problems else 1


if __name__ == "__main__":
    raise SystemExit(main())
