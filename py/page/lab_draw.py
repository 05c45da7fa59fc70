"""Drawing one side of the bias lab (main thread, MicroPython): its heat map, verdict, figures and fixed points.

Each function puts what the worker answered on the page and decides nothing: the words and figures come
ready from the worker (``shufflelab.lab``) or from ``lab_model``, and the pixels stay a JavaScript array
all the way to the canvas. Side b is a copy of side a's parts made once, as the lab mounts.
"""

import js
from pyscript import window

from shufflelab.lab.protocol import ExactStatus, Snapshot
from shufflelab.lab.words import lab_card, place_words

from .dom import create, element, set_text, show, svg, svg_text
from .heat_key import draw_legend, place_ticks
from .lab_model import Side, distance_text, model_text

SIDE_PARTS = ("heat-side", "verdict-side", "fixed-side")


REFERENCES = ("for", "aria-describedby", "aria-labelledby", "aria-controls")


def clone_side_b() -> None:
    """Put a hidden copy of each part of side a beside it, every id (and every reference to one) ending in "-b".

    Done once, as the lab mounts, before anything is drawn: the copies start as empty as the originals.
    """
    for part in SIDE_PARTS:
        original = element(part)
        copy = original.cloneNode(True)
        for node in [copy] + list(copy.querySelectorAll("*")):
            if node.id:
                node.id = str(node.id) + "-b"
            for name in REFERENCES:
                value = node.getAttribute(name)
                if value:
                    node.setAttribute(name, " ".join(token + "-b" for token in str(value).split()))
        copy.hidden = True
        original.parentNode.appendChild(copy)


def draw_side(side: Side, snapshot: Snapshot, heat: str, first: bool) -> None:
    """Put one worker snapshot on its side of the page (the running count, rate and legend on the first side only)."""
    side.latest = snapshot
    if first:
        set_text("trials", f"{snapshot.trials:,}")  # as the rate beside it: 688,128
        set_text("rate", f"{round(snapshot.rate):,}" if snapshot.trials else "–")
    if snapshot.memory:
        set_text("worker-memory", "%.1f" % (snapshot.memory / 1e6))
        show("worker-memory-line", True)
    draw_heatmap(side, snapshot)
    summary = snapshot.summary.get("heat_summary", "")
    if snapshot.drawn != heat:
        summary = "No exact matrix here, so this map shows observed ÷ uniform. " + summary
    set_text(side.id("heat-summary"), summary)
    if first:
        draw_legend(snapshot.legend, snapshot.key)
    draw_stats(side, snapshot.summary)
    draw_fixed_points(side, snapshot.summary.get("fixed_points"))


def exact_note(side: Side, status: ExactStatus) -> str:
    """Return what a side's exact-matrix note says: computed, being walked, its cost here, or why there is none."""
    if status.available:
        note = "Exact matrix computed in %.0f ms." % (status.seconds * 1000)
    elif status.goes_on:
        note = "Walking every path of its draws for the exact answers…"
    elif status.pending_seconds:
        note = ("The exact matrix takes about %.0f s more here (timed on its first steps), "
                "and slows the tally meanwhile:" % status.pending_seconds)
    else:
        note = "No exact matrix: " + status.reason
    return note + distance_text(status, side.config) + model_text(status)


def describe_cell(side: Side, row: int, column: int) -> str:
    """Return the tooltip text for one heat-map cell of a side."""
    snapshot = side.latest
    n, trials = snapshot.n, snapshot.trials
    count = snapshot.count_at(row, column)
    observed = count / trials if trials else 0.0
    parts = ["%s ended %s" % (lab_card(row, n), place_words(column, n)), f"count {count:,} of {trials:,}",
             f"observed {observed:.4%}", f"uniform {1 / n:.4%}"]
    if side.matrix is not None and len(side.matrix) == n:
        parts.append(f"exact {side.matrix[row][column]:.4%}")
    return side.prefix(" · ".join(parts))


def draw_heatmap(side: Side, snapshot: Snapshot) -> None:
    """Paint the worker's RGBA pixels, one per cell, onto a side's canvas (they stay a JavaScript array)."""
    n = snapshot.n
    canvas = element(side.id("heatmap"))
    if canvas.getAttribute("data-n") != str(n):  # the first draw too: the canvas starts 52 wide, unlabelled
        canvas.width = n
        canvas.height = n
        canvas.setAttribute("data-n", str(n))
        draw_ticks(side, n)
    pixels = snapshot.pixels
    clamped = js.Uint8ClampedArray.new(pixels.buffer, pixels.byteOffset, pixels.length)
    canvas.getContext("2d").putImageData(window.ImageData.new(clamped, n, n), 0, 0)


def draw_ticks(side: Side, n: int) -> None:
    """Label every 13th position and card (every quarter when n is not 52)."""
    step = 13 if n % 13 == 0 and n >= 26 else max(1, n // 4)
    ticks = [((k + 0.5) / n, str(k)) for k in range(0, n, step)]
    for container_id in ("heat-ticks-x", "heat-ticks-y"):
        place_ticks(side.id(container_id), ticks)


def draw_stats(side: Side, summary: dict) -> None:
    """Show a side's verdict as its plain sentence, and the test's own words and figures one click away (a details
    box, left open or closed as the user left it)."""
    verdict = element(side.id("verdict"))
    verdict.dataset.verdict = summary["verdict"]
    verdict.textContent = summary["sentence"]
    news = side.verdict_news(summary["verdict"], summary["sentence"])
    if news:  # politely, once a change: the sentence itself changes with every count and is not live
        set_text("verdict-said", news)
    set_text(side.id("verdict-detail"), summary.get("detail") or "")
    rows = element(side.id("stats"))
    rows.replaceChildren()
    for label, value in summary["figures"]:
        rows.append(create("dt", label), create("dd", value))
    show(side.id("figures"), bool(summary["figures"]))


def draw_fixed_points(side: Side, histogram) -> None:
    """Draw a side's observed against fair shares of shuffles with k fixed points, k = 0, 1, …"""
    chart = element(side.id("fixed-points"))
    chart.replaceChildren()
    if not histogram or not histogram["labels"]:
        set_text(side.id("fixed-verdict"), "")
        return
    labels, observed, expected = histogram["labels"], histogram["observed"], histogram["expected"]
    top = max(max(observed), max(expected), 0.05)
    width, height, left, bottom = 480, 170, 34, 24
    slot = (width - left) / len(labels)
    chart.append(svg("line", x1=left, y1=height - bottom, x2=width, y2=height - bottom, class_="axis"))
    for k in range(len(labels)):
        x = left + k * slot
        for offset, share, kind in ((0.12, observed[k], "observed"), (0.5, expected[k], "expected")):
            bar_height = (height - bottom - 8) * share / top
            chart.append(svg("rect", x=round(x + offset * slot, 1), y=round(height - bottom - bar_height, 1),
                             width=round(slot * 0.38, 1), height=round(bar_height, 1), class_="bar " + kind))
        chart.append(svg_text(x + slot / 2, height - 8, labels[k], class_="tick", text_anchor="middle"))
    chart.append(svg_text(left - 4, 12, f"{top:.0%}", class_="tick", text_anchor="end"))
    set_text(side.id("fixed-verdict"), histogram["sentence"])
