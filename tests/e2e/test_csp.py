"""The Content-Security-Policy: only the page's own origin, and a deal and a lab run break none of it."""

from __future__ import annotations

import re

from e2e_pages import open_in, run_tally

# Every violation the page reports, as the browser words it (securitypolicyviolation events).
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation',
  e => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`));
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
    # worker to load the Pyodide files the page handed it (README, "The sandbox")
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
