"""The lab's riffle chart (main thread, MicroPython): three exact distances after k riffles, and their table.

The worker computes every figure and every text (``RiffleReport``); this module draws them as SVG
lines with marks and dashes of their own, so a line is told apart without its colour.
"""

from pyscript import document

from shufflelab.lab.protocol import RiffleReport

from .dom import create, element, set_text, svg, svg_text
from .lab_model import riffle_conclusion, sampling_noise

# the three distances, in the order of their lines, legend and table rows; each line has its own dashes (CSS) and
# marks, so it is told apart without its colour
RIFFLE_LINES = (("tv", "Total variation"), ("separation", "Separation"), ("kl", "KL (bits)"))


def riffle_mark(kind: str, x: float, y: float):
    """Return the mark of one point of a distance's line: a circle (total variation), a triangle (separation) or a
    diamond (Kullback–Leibler), as in the legend."""
    if kind == "tv":
        return svg("circle", cx=round(x, 1), cy=round(y, 1), r=3, class_="dot tv")
    if kind == "separation":
        shape = "M%.1f %.1f L%.1f %.1f L%.1f %.1f Z" % (x, y - 3.5, x + 3.5, y + 3, x - 3.5, y + 3)
    else:
        shape = "M%.1f %.1f L%.1f %.1f L%.1f %.1f L%.1f %.1f Z" % (x, y - 4, x + 4, y, x, y + 4, x - 4, y)
    return svg("path", d=shape, class_="dot " + kind)


def draw_riffle_chart(report: RiffleReport) -> None:
    """Draw total variation, separation and KL divergence (bits) against k on one 0–1 scale, each with its own dashes
    and marks (KL above 1 runs off the top, clipped), say what each means for a bet, and fill the table."""
    chart = element("riffle-chart")
    chart.replaceChildren()
    series = {"tv": report.tv, "separation": report.separation or [], "kl": report.kl or []}
    count = len(report.tv)
    width, height, left, bottom, top = 480, 220, 40, 28, 10
    plot_w, plot_h = width - left - 10, height - bottom - top

    def at(k: int, d: float) -> tuple:
        return left + (k - 1) * plot_w / max(1, count - 1), top + (1 - d) * plot_h

    clip = svg("clipPath", id="riffle-plot")
    clip.appendChild(svg("rect", x=left - 6, y=top - 6, width=plot_w + 12, height=plot_h + 12))
    defs = svg("defs")
    defs.appendChild(clip)
    chart.appendChild(defs)
    for d in (0.0, 0.25, 0.5, 0.75, 1.0):
        _, y = at(1, d)
        chart.append(svg("line", x1=left, y1=round(y, 1), x2=width - 10, y2=round(y, 1), class_="grid"))
        chart.append(svg_text(left - 5, y + 4, f"{d:g}", class_="tick", text_anchor="end"))
    plot = svg("g", clip_path="url(#riffle-plot)")
    for kind, _ in RIFFLE_LINES:
        values = series[kind]
        if not values:
            continue
        points = " ".join("%.1f,%.1f" % at(k, d) for k, d in enumerate(values, 1))  # the clip cuts what is off the scale
        plot.appendChild(svg("polyline", points=points, class_="line " + kind))
        for k, d in enumerate(values, 1):
            if d <= 1.0:  # a mark off the scale would sit on the top line as if it were 1
                plot.appendChild(riffle_mark(kind, *at(k, d)))
    chart.appendChild(plot)
    for k in range(1, count + 1):
        chart.append(svg_text(at(k, 0)[0], height - 10, str(k), class_="tick", text_anchor="middle"))
    for k, d in enumerate(report.measured or (), 1):
        x, y = at(k, d)
        chart.append(svg("rect", x=round(x - 3, 1), y=round(y - 3, 1), width=6, height=6, class_="measured"))
    # top right: the curves start high on the left and end low on the right, so this is clear
    chart.append(svg_text(width - 10, top + 12, "k riffles →", class_="tick", text_anchor="end"))
    chart.dataset.n = str(report.n)
    for key, _name, meaning in report.meanings or ():
        item = document.querySelector('#riffle-legend [data-distance="%s"] .meaning' % key)
        if item is not None:
            item.textContent = ": %s." % meaning
    draw_riffle_table(report)
    set_text("riffle-note", riffle_note(report))


def draw_riffle_table(report: RiffleReport) -> None:
    """Fill the table: a row per number of riffles, a column per distance in the very texts ``riffle-distances``
    prints (each cell marked with its distance), and measured total variation for a small deck. Down, not across: 12
    riffles across took 1,063 px, and the table scrolled sideways even at 1280 px."""
    table = element("riffle-table")
    table.replaceChildren()
    head = create("tr")
    head.appendChild(create("th", "riffles", "corner"))
    columns = list(RIFFLE_LINES) + ([("measured", "TV measured")] if report.measured else [])
    for kind, name in columns:
        cell = create("th", name)
        cell.setAttribute("scope", "col")
        cell.dataset.distance = kind
        head.appendChild(cell)
    table.appendChild(head)
    texts = report.texts or [["%.6f" % d, "", ""] for d in report.tv]
    for k, cells in enumerate(texts, 1):
        row = create("tr", None, "riffle-row")
        label = create("th", "k=%d" % k)
        label.setAttribute("scope", "row")
        row.appendChild(label)
        measured = ["%.3f" % report.measured[k - 1] if k <= len(report.measured) else ""] if report.measured else []
        shown = list(cells[:len(RIFFLE_LINES)]) + measured
        for (kind, _), text in zip(columns, shown):
            cell = create("td", text)
            cell.dataset.distance = kind
            row.appendChild(cell)
        table.appendChild(row)


def riffle_note(report: RiffleReport) -> str:
    """Say the chart's conclusion in a sentence, then what it shows: exact distances, and measured total variation
    where there is any."""
    return riffle_conclusion(report.n, report.tv) + " " + what_the_chart_shows(report)


def what_the_chart_shows(report: RiffleReport) -> str:
    """Say what the chart's lines and squares are."""
    if not report.measured:
        return ("Lines: exact distances for %d cards, the figures python -m shufflelab riffle-distances --cards %d "
                "prints. Measuring them needs far more than the %d! orders in samples, so total variation is measured "
                "only for decks of up to 5 cards." % (report.n, report.n, report.n))
    noise = sampling_noise(report.n, report.measured_trials)
    return (f"Lines and the first three rows: exact. Squares and the last row: total variation measured from "
            f"{report.measured_trials:,} sampled decks per k (sampling noise adds about {noise:.2f}).")
