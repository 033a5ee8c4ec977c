"""The docs' browser setup (headless Chromium through selenium, screenshots under
TABLERULES_SCREENSHOTS), shared with the workbench's browser tests."""

from tests.docs.test_browser import browser, shots

__all__ = ["browser", "shots"]
