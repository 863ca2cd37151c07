#!/usr/bin/python3
"""A person's check of the report pages, in a real browser: report.html
(five columns as the main job has: our three designs, one without a line,
StarryOS's D1 log) and the sweep's page (sweep.html of the test sweep),
each written by the report tool as a user runs it, then opened in headless
Chromium (Debian's chromium and chromium-driver, through python3-selenium)
in a 1920x1080 window. On the first screen, without scrolling, must be:
the headline table whole, and its plots side by side under it, each image
loaded and a link to a heading of the page (report.html); the first
frontier table and the sweep's plots (sweep.html).

Where Chromium, its driver or Selenium is missing the check prints
`browser test skipped: <what is missing>` and exits 0 (CTest marks it
skipped). --shots DIR keeps a screenshot of each first screen
(report-first-screen.png, sweep-first-screen.png: docs/img has them)."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import _common

WINDOW = (1920, 1080)
CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
LOGS = [("qemu-virt async", _common.ours("qemu-virt-async-quick.log")),
        ("qemu-virt console", _common.ours("qemu-virt-console-quick.log")),
        ("qemu-virt copier", _common.ours("qemu-virt-copier-quick.log")),
        ("qemu-virt async, no line", _common.ours("qemu-virt-async-nowire-quick.log")),
        ("StarryOS D1 async", _common.starry("d1-async-q31.log"))]
SWEEP = os.path.join(_common.HERE, "data", "sweep")
# What the page shows on its first screen: the table's and the plots'
# boxes, the plots' links and whether each image loaded.
PROBE = """
const box = e => e.getBoundingClientRect();
const table = document.querySelector(arguments[0]);
const glance = document.querySelector('.glance');
const imgs = glance ? [...glance.querySelectorAll('img')] : [];
const links = glance ? [...glance.querySelectorAll('a')].map(a => a.getAttribute('href')) : [];
return {height: window.innerHeight, width: window.innerWidth,
        table: table ? [box(table).top, box(table).bottom, box(table).height] : null,
        glance: glance ? [box(glance).top, box(glance).bottom] : null,
        images: imgs.map(i => [i.complete && i.naturalWidth > 0, box(i).bottom, box(i).height]),
        targets: links.map(h => h && h.startsWith('#') && !!document.getElementById(h.slice(1)))};
"""


def missing():
    """What of Chromium, its driver and Selenium is not there, or None."""
    for path, pkg in ((CHROMIUM, "chromium"), (DRIVER, "chromium-driver")):
        if not os.access(path, os.X_OK):
            return "%s not found (Debian package %s)" % (path, pkg)
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "Python's selenium module not found (Debian package python3-selenium)"
    return None


def write_pages(work):
    """report.html and sweep.html as a user makes them; their paths."""
    args = [p for _, p in LOGS] + [a for lb, _ in LOGS for a in ("--label", lb)]
    for cmd in (args + ["-o", os.path.join(work, "report")],
                ["--sweep", SWEEP, "-o", os.path.join(work, "sweep")]):
        r = subprocess.run([sys.executable, _common.REPORT] + cmd, capture_output=True,
                           text=True)
        if r.returncode != 0:
            raise SystemExit("FAIL: report %s: exit %d: %s" % (" ".join(cmd), r.returncode,
                                                               r.stderr[-500:]))
    return (os.path.join(work, "report", "report.html"),
            os.path.join(work, "sweep", "sweep.html"))


def first_screen(driver, path, table_css, plots, shot):
    """Failures of one page's first screen: table_css's table whole in it,
    the glance's plots images (all loaded, each a link to a heading of the
    page) in it too."""
    driver.get("file://" + path)
    got = driver.execute_script(PROBE, table_css)
    if shot:
        driver.save_screenshot(shot)
    name, bad = os.path.basename(path), []
    if got["table"] is None:
        return ["%s: no table %s" % (name, table_css)]
    top, bottom, height = got["table"]
    if height <= 0 or top < 0 or bottom > got["height"]:
        bad.append("%s: the table spans %.0f..%.0f px, the first screen 0..%d" % (
            name, top, bottom, got["height"]))
    if got["glance"] is None or len(got["images"]) != plots:
        bad.append("%s: %d plots beside the table, expected %d" % (
            name, len(got["images"]), plots))
    for k, (loaded, img_bottom, img_height) in enumerate(got["images"]):
        if not loaded or img_height <= 0:
            bad.append("%s: plot %d not shown" % (name, k + 1))
        elif img_bottom > got["height"]:
            bad.append("%s: plot %d ends at %.0f px, below the first screen (%d px)" % (
                name, k + 1, img_bottom, got["height"]))
    bad += ["%s: plot %d links to no heading of the page" % (name, k + 1)
            for k, ok in enumerate(got["targets"]) if not ok]
    return bad


def main():
    """Both pages; exit 1 on any failure."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shots", help="directory for the first screens' screenshots")
    args = p.parse_args()
    why = missing()
    if why:
        print("browser test skipped: " + why)
        return 0
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    work = tempfile.mkdtemp(prefix="uartreport-browser-")
    try:
        report, sweep = write_pages(work)
        opts = Options()
        opts.binary_location = CHROMIUM
        for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
                  "--window-size=%d,%d" % WINDOW):
            opts.add_argument(a)
        driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
        shot = (lambda n: os.path.join(args.shots, n)) if args.shots else (lambda n: None)
        try:
            bad = first_screen(driver, report, "#the-answer + table", 3,
                               shot("report-first-screen.png"))
            bad += first_screen(driver, sweep, "table", 4, shot("sweep-first-screen.png"))
        finally:
            driver.quit()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for b in bad:
        print("FAIL " + b)
    print("browser: report.html and sweep.html, the headline and its plots on the first "
          "screen (%dx%d)%s" % (WINDOW + ("" if not bad else ": %d failure(s)" % len(bad),)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
