"""Two algorithms side by side in the lab, driven as a user does: from a link, from the menu, and with your own code.

- A comparison link shows both heat maps over one legend, both verdicts and statistics, and on a
  small deck both exact distances to uniform, equal to the CLI's.
- "Compare with" and its parameters go into the link, refused values are named and kept out,
  and "nothing" takes the second side away again.
- Your own shuffle, once run, is compared with a built-in; the deal menu then still keeps its code.
"""

from __future__ import annotations

import json
from pathlib import Path

from e2e_pages import STEP_TIMEOUT_MS, WORKER_TIMEOUT_MS, open_in, problems, run_cli, url_params
from test_custom_page import VERDICT_TIMEOUT_MS, lab_opened, press_run, wait_for_worker

from shufflelab.codelink import unpack_code


def exact_distance(*args: str) -> dict:
    """The CLI's exact report (`exact … --json`): the distance the page must show."""
    return json.loads(run_cli("exact", *args, "--json"))


def shown_distance(report: dict) -> str:
    """The words the page uses for an exact distance (lab_view.distance_text)."""
    value, fraction = report["total_variation_float"], report["total_variation"]
    if fraction == "0/1":
        return "Exact distance to uniform (total variation): 0, every order equally likely."
    return "Exact distance to uniform (total variation): %.4f (%s)." % (value, fraction)


def wait_for_note(page, element_id: str, words: str) -> str:
    """Wait until a side's exact note says ``words`` (the distance of the configuration it should be showing)."""
    page.wait_for_function("([id, words]) => document.getElementById(id).textContent.includes(words)",
                           arg=[element_id, words], timeout=WORKER_TIMEOUT_MS)
    return page.text_content("#" + element_id)


def wait_for_verdicts(page, wanted: dict) -> None:
    """Wait until each verdict element (by id) says what it should (data-verdict)."""
    page.wait_for_function(
        "wanted => Object.entries(wanted).every(([id, v]) => document.getElementById(id).dataset.verdict === v)",
        arg=wanted, timeout=VERDICT_TIMEOUT_MS)


def shuffles(page, stats_id: str) -> int:
    """The "Shuffles" figure of a side's statistics."""
    text = page.evaluate("id => document.getElementById(id).querySelector('dd').textContent", stats_id)
    return int(text.replace(",", ""))


def test_a_comparison_link_shows_both_sides_on_one_scale_with_verdicts_and_exact_distances(browser, site_url, visit):
    context = browser.new_context()
    try:
        opened = open_in(context, f"{site_url}?view=lab&algo=swap-any&n=4&vs=fisher-yates&tseed=compare", visit,
                         "test_compare: link")
        page = opened.page
        wait_for_worker(page)
        swap_any = exact_distance("--algo", "swap-any", "--cards", "4")
        fisher_yates = exact_distance("--algo", "fisher-yates", "--cards", "4")
        assert wait_for_note(page, "exact-note", shown_distance(swap_any)).startswith("Exact matrix computed")
        assert wait_for_note(page, "exact-note-b", shown_distance(fisher_yates)).startswith("Exact matrix computed")
        for part in ("heat-side", "verdict-side", "fixed-side"):
            assert page.is_visible(f"#{part}-b")
            assert page.text_content(f"#{part} .side-title") == "A · Swap with any position"
            assert page.text_content(f"#{part}-b .side-title") == "B · Fisher–Yates (Durstenfeld)"
        assert page.locator(".heat-legend").count() == 1  # one scale for both maps
        page.click("#lab-start")
        wait_for_verdicts(page, {"verdict": "biased", "verdict-b": "no-bias"})
        page.click("#lab-pause")
        page.wait_for_function("() => document.getElementById('lab-status').textContent === 'Paused.'",
                               timeout=STEP_TIMEOUT_MS)
        a, b = shuffles(page, "stats"), shuffles(page, "stats-b")
        # the side behind catches up to the other's count, after Pause too: both verdicts rest on as many shuffles
        assert a == b
        for canvas in ("heatmap", "heatmap-b"):
            assert page.get_attribute("#" + canvas, "data-n") == "4"
        page.focus("#heatmap-b")  # the second map reads its cells too, named as side B
        page.keyboard.press("ArrowDown")
        assert page.text_content("#heat-cell-b").startswith("B: the card that started on top ended on top")
        ids = page.evaluate("[...document.querySelectorAll('[id]')].map(e => e.id)")
        assert len(ids) == len(set(ids))  # the copied side renamed every id
        assert problems(opened) == []
    finally:
        context.close()


def test_compare_with_goes_into_the_link_refuses_bad_parameters_and_can_be_taken_away(browser, site_url, visit):
    context = browser.new_context()
    try:
        opened = open_in(context, f"{site_url}?view=lab&algo=riffle-gsr&n=5", visit, "test_compare: menu")
        page = opened.page
        wait_for_worker(page)
        assert not page.is_visible("#heat-side-b") and not page.is_visible("#heat-side .side-title")
        page.select_option("#vs", "riffle-gsr")
        page.fill("#vs-param-passes", "1.5")
        page.press("#vs-param-passes", "Enter")
        page.wait_for_function("() => document.getElementById('lab-status').textContent.includes('1.5')",
                               timeout=STEP_TIMEOUT_MS)
        assert page.text_content("#lab-status") == "Passes (compared) '1.5' is not a whole number from 1 to 50; kept 7."
        assert page.input_value("#vs-param-passes") == "7" and url_params(page.url)["vs"] == "riffle-gsr"
        page.fill("#vs-param-passes", "1")
        page.press("#vs-param-passes", "Enter")
        page.wait_for_function("() => location.search.includes('vs-passes=1')", timeout=STEP_TIMEOUT_MS)
        assert page.text_content("#verdict-side-b .side-title") == "B · Riffle (Gilbert–Shannon–Reeds) (passes 1)"
        one_pass = exact_distance("--algo", "riffle-gsr", "--cards", "5", "--passes", "1")
        wait_for_note(page, "exact-note-b", shown_distance(one_pass))
        page.goto(page.url)  # the link alone brings the comparison back
        wait_for_worker(page)
        assert page.input_value("#vs") == "riffle-gsr" and page.input_value("#vs-param-passes") == "1"
        assert page.is_visible("#heat-side-b")
        page.select_option("#vs", "")
        page.wait_for_function("() => !location.search.includes('vs=')", timeout=STEP_TIMEOUT_MS)
        assert not page.is_visible("#heat-side-b") and not page.is_visible("#vs-param-passes")
        assert page.text_content("#heat-side .side-title") == ""
        assert problems(opened) == []
    finally:
        context.close()


def test_your_shuffle_is_compared_with_a_built_in_and_the_deal_menu_keeps_its_code(browser, site_url, visit, tmp_path: Path):
    with lab_opened(browser, site_url, visit, "n=5&vs=fisher-yates", "test_compare: yours") as opened:
        page = opened.page
        example = page.input_value("#custom-code")
        press_run(page)
        page.wait_for_function("() => document.getElementById('heat-side').querySelector('.side-title').textContent"
                               " === 'A · your shuffle'", timeout=WORKER_TIMEOUT_MS)
        mine = tmp_path / "my_shuffle.py"
        mine.write_text(example, encoding="utf-8")
        wait_for_note(page, "exact-note", shown_distance(exact_distance("--file", str(mine), "--cards", "5")))
        wait_for_verdicts(page, {"verdict": "biased", "verdict-b": "no-bias"})
        assert unpack_code(url_params(page.url)["code"]) == example and url_params(page.url)["vs"] == "fisher-yates"
        # choosing from the deal menu goes back to a built-in; the link keeps the code, with no notice
        page.select_option("#algorithm", "splice")
        page.wait_for_function("() => location.search.includes('algo=splice')", timeout=STEP_TIMEOUT_MS)
        assert unpack_code(url_params(page.url)["code"]) == example
        assert page.text_content("#notices") == ""
        assert page.text_content("#heat-side .side-title") == "A · Fisher–Yates by splicing"
        assert problems(opened) == []
