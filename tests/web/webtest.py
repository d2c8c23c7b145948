"""Shared harness of the browser tests: serves the built site (build/wasm/site) on a free local
port, drives Debian's headless Chromium through chromium-driver with Selenium, collects the
console, and writes screenshots under build/web-screenshots/ (not committed).

Run a test with Debian's Python: /usr/bin/python3 tests/web/test_playground.py
"""

import functools
import http.server
import json
import os
import sys
import tempfile
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SITE = os.environ.get("TOPOPLAN_SITE", os.path.join(ROOT, "build", "wasm", "site"))
SHOTS = os.path.join(ROOT, "build", "web-screenshots")


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript",
                      ".jsonl": "application/x-ndjson", ".toml": "text/plain",
                      ".sas": "text/plain"}

    def log_message(self, *args):  # quiet
        pass


class Browser:
    def __init__(self, width=1400, height=1000):
        if not os.path.exists(os.path.join(SITE, "topoplan_wasm.wasm")):
            sys.exit(f"no site in {SITE}: build it first (cmake --preset wasm && "
                     "cmake --build --preset wasm)")
        handler = functools.partial(_Handler, directory=SITE)
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.profile = tempfile.TemporaryDirectory(prefix="topoplan-chromium-")
        opts = webdriver.ChromeOptions()
        opts.binary_location = "/usr/bin/chromium"
        for a in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", f"--user-data-dir={self.profile.name}",
                  f"--window-size={width},{height}"):
            opts.add_argument(a)
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"),
                                       options=opts)
        self.driver.set_script_timeout(120)
        self.console = []

    def url(self, page):
        return f"http://127.0.0.1:{self.port}/{page}"

    def open(self, page, timeout=60):
        """Opens a page and waits for body[data-ready]; returns seconds until then."""
        t0 = time.monotonic()
        self.driver.get(self.url(page))
        self.wait(lambda d: d.execute_script("return document.body.dataset.ready === '1'"), timeout)
        return time.monotonic() - t0

    def wait(self, condition, timeout=60):
        return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(condition)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def text(self, element_id):
        return self.js("return document.getElementById(arguments[0]).innerText", element_id)

    def logs(self):
        self.console += self.driver.get_log("browser")
        return self.console

    def assert_no_console_error(self):
        errors = [e for e in self.logs() if e["level"] == "SEVERE"]
        check(not errors, "console errors: " + json.dumps(errors, indent=1))

    def screenshot(self, name):
        os.makedirs(SHOTS, exist_ok=True)
        h = self.js("return Math.max(document.documentElement.scrollHeight, 600)")
        w = self.js("return Math.max(document.documentElement.scrollWidth, 1000)")
        self.driver.set_window_size(min(w, 1800), min(h + 140, 4000))
        time.sleep(0.2)
        path = os.path.join(SHOTS, name + ".png")
        self.driver.save_screenshot(path)
        print(f"  screenshot: {os.path.relpath(path, ROOT)}")
        return path

    def close(self):
        try:
            self.driver.quit()
        finally:
            self.server.shutdown()
            self.profile.cleanup()


def check(cond, message):
    if not cond:
        raise AssertionError(message)


def run(test):
    """Runs test(browser); prints PASS / FAIL; exit status 1 on failure."""
    name = os.path.basename(sys.argv[0])
    b = Browser()
    try:
        test(b)
        print(f"PASS {name}")
    except Exception as e:  # noqa: BLE001 - report any failure with the page's console
        print(f"FAIL {name}: {e}")
        try:
            for entry in b.logs():
                print("  console:", entry.get("level"), entry.get("message"))
            b.screenshot(os.path.splitext(name)[0] + "-failure")
        except Exception:  # noqa: BLE001
            pass
        sys.exit(1)
    finally:
        b.close()
