"""The browser tests' fixtures (a served app, chromium, pages that fail a test on a script error or a refusal of
the Content-Security-Policy), for every browser test module: they live in test_web_browser.py."""

from tests.web.test_web_browser import browser, open_page, playwright, server

__all__ = ["browser", "open_page", "playwright", "server"]
