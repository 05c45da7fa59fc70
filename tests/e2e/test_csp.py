"""The Content-Security-Policy: only the page's own origin, and a deal and a lab run break none of it."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from e2e_pages import STEP_TIMEOUT_MS, open_in, run_tally

from conftest import ROOT, serve_sub_path

# Every violation the page reports, as the browser words it (securitypolicyviolation events), in the
# document and in every shadow root (the lab's editor lives in one).
RECORD_VIOLATIONS = """
window.__cspViolations = [];
const __recordViolation = e => window.__cspViolations.push(
  `${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber} ${e.sample || ''}`.trim());
document.addEventListener('securitypolicyviolation', __recordViolation);
const __attachShadow = Element.prototype.attachShadow;
Element.prototype.attachShadow = function (init) {
  const root = __attachShadow.call(this, init);
  root.addEventListener('securitypolicyviolation', e => { if (!e.composed) __recordViolation(e); });
  return root;
};
"""


def policy(page) -> dict[str, list[str]]:
    """The page's policy from its <meta http-equiv>, as directive -> sources."""
    text = page.get_attribute("meta[http-equiv='Content-Security-Policy']", "content")
    return {parts[0]: parts[1:] for parts in (d.split() for d in text.split(";") if d.strip())}


def test_the_policy_allows_only_this_origin_and_what_the_runtimes_need(page, site_url):
    page.goto(site_url)
    found = policy(page)
    assert found["default-src"] == ["'self'"]
    # no 'unsafe-inline': the one inline script allowed is the sandbox frame's, by its hash; blob: for the sandbox's
    # worker to load the Pyodide files the page handed it (docs/explanation/sandbox.md)
    assert found["script-src"][:4] == ["'self'", "'unsafe-eval'", "'wasm-unsafe-eval'", "blob:"]
    assert len(found["script-src"]) == 5 and found["script-src"][4].startswith("'sha256-")
    assert found["worker-src"] == ["'self'", "blob:"]
    assert found["connect-src"] == ["'self'", "blob:"] and found["object-src"] == ["'none'"]
    every_source = [source for sources in found.values() for source in sources]
    assert not [s for s in every_source if re.match(r"https?:|\*", s)], "no other origin, no wildcard"


def test_a_deal_and_a_lab_run_break_no_rule(browser, site_url, visit):
    context = browser.new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    try:
        page = open_in(context, f"{site_url}?seed=csp&algo=riffle-gsr&view=lab&n=16", visit, "test_csp: lab").page
        run_tally(page, 1000)
        page.click("#tab-deal")
        page.click("#new-seed")
        page.wait_for_function("() => new URLSearchParams(location.search).get('seed') !== 'csp'")
        assert page.evaluate("window.__cspViolations") == []
    finally:
        context.close()


def test_an_inline_script_would_be_refused(browser, site_url, visit):
    """The policy is in force: a script injected inline does not run (and is reported)."""
    context = browser.new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    try:
        page = open_in(context, f"{site_url}?seed=csp-inline", visit, "test_csp: inline").page
        page.evaluate("""() => { const s = document.createElement('script');
                                 s.textContent = 'window.__ran = true'; document.body.append(s); }""")
        page.wait_for_function("() => window.__cspViolations.length > 0")
        assert page.evaluate("window.__ran") is None
        assert page.evaluate("window.__cspViolations")[0].startswith("script-src-elem inline")
    finally:
        context.close()


# How far the editor's text reaches past its visible width (0: nothing hides to the right).
EDITOR_OVERFLOW = """() => {
  const root = document.querySelector('#mine .code-editor').shadowRoot;
  const scroller = root.querySelector('.cm-scroller');
  const lines = [...root.querySelectorAll('.cm-line')];
  const right = Math.max(...lines.map(line => line.getBoundingClientRect().right));
  return {scrolls: scroller.scrollWidth - scroller.clientWidth,
          past: Math.max(0, right - scroller.getBoundingClientRect().right),
          longest: Math.max(...lines.map(line => line.textContent.length))};
}"""


def test_typing_in_the_editor_breaks_no_rule_and_a_long_line_wraps(browser, site_url, visit):
    """Typing into CodeMirror (in its shadow root) logs no violation; a 300-character line wraps instead of scrolling."""
    context = browser.new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    try:
        opened = open_in(context, f"{site_url}?view=lab&n=8", visit, "test_csp: editor")
        page = opened.page
        page.click("#mine summary")
        page.wait_for_selector("#mine .cm-editor", timeout=STEP_TIMEOUT_MS)
        # focus, not a click: the lab's panel may still move under a pointer (its sandbox starting), and a click that
        # lands beside the editor types nowhere (once in a parallel run: the wait below timed out)
        page.focus("#mine .cm-content")
        page.wait_for_function("""() => document.querySelector('#mine .code-editor').shadowRoot.activeElement
            ?.classList.contains('cm-content')""", timeout=STEP_TIMEOUT_MS)
        page.keyboard.press("Control+End")
        page.keyboard.type("\n# typed: (brackets) [close] {themselves} 'and' \"quotes\"\nx = car", delay=20)
        page.keyboard.press("Escape")  # the completion list, if it opened
        long_line = "\n# " + "wrap " * 59 + "end"  # 300 characters after the line break
        page.keyboard.insert_text(long_line)
        page.wait_for_function("tail => document.getElementById('custom-code').value.endsWith(tail)", arg=long_line[-40:],
                               timeout=STEP_TIMEOUT_MS)
        overflow = page.evaluate(EDITOR_OVERFLOW)
        assert overflow["longest"] >= 300 and overflow["scrolls"] <= 0 and overflow["past"] <= 0.5, overflow
        assert page.evaluate("window.__cspViolations") == []
        assert [e for e in opened.visit.console_errors if "Content Security Policy" in e] == []
    finally:
        context.close()


# What PyScript says once every Python script of a page has run, recorded in every frame of the context
PY_DONE_JS = "addEventListener('py:all-done', () => { window.__pyDone = true; });"
# A page that frames the site's lab, served beside it: at http://localhost:… it is another origin than the site's
# 127.0.0.1 (both on this machine: a public page may not frame a local one at all, Chromium's local network access)
FRAMER = b"""<!doctype html><title>framer</title><iframe width="900" height="700"></iframe><script>
document.querySelector("iframe").src = location.href.replace("localhost", "127.0.0.1").replace("e2e-framer.html", "?view=lab");
</script>"""


@pytest.fixture(scope="module")
def framing_site() -> Iterator[str]:
    """The site under SUB_PATH on 127.0.0.1, with e2e-framer.html beside it."""
    with serve_sub_path(ROOT, {"e2e-framer.html": FRAMER}) as url:
        yield url


def framed_page(page, framer_url: str):
    """Open ``framer_url`` and return the site's frame in it, once its Python ran (or chose not to)."""
    page.add_init_script(PY_DONE_JS)
    page.goto(framer_url)
    frame = page.wait_for_selector("iframe").content_frame()
    frame.wait_for_function("window.__pyDone === true", timeout=STEP_TIMEOUT_MS)
    return frame


def test_in_another_sites_frame_the_page_runs_no_control_and_links_to_itself(page, framing_site):
    """Clickjacking: another origin frames the page. GitHub Pages sends no frame-ancestors, and a <meta> cannot, so
    the page itself refuses: a notice with a link that opens it on its own, its controls hidden, no Python run."""
    frame = framed_page(page, framing_site.replace("127.0.0.1", "localhost") + "e2e-framer.html")
    assert frame.get_attribute("html", "data-ready") == "framed"
    assert frame.text_content("#framed").startswith("Shuffle Lab does not run inside another site's page.")
    link = frame.locator("#framed a")
    assert link.get_attribute("href") == f"{framing_site}?view=lab" and link.get_attribute("target") == "_blank"
    assert frame.is_hidden("main") and frame.evaluate("document.getElementById('controls-fieldset').disabled")


def test_in_a_frame_of_its_own_site_the_page_runs(page, framing_site):
    frame = framed_page(page, framing_site + "e2e-framer.html")
    frame.wait_for_selector('html[data-ready="true"]', state="attached", timeout=STEP_TIMEOUT_MS)
    assert frame.query_selector("#framed") is None
    assert not frame.evaluate("document.getElementById('controls-fieldset').disabled")
