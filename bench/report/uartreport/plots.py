"""PNG plots (1200 x 700 pixels, 100 dpi, matplotlib Agg backend).

write_all(analyses, labels, outdir) returns a list of (title, filename or
None, explanation). A plot with no data is not written; its explanation says
why. Called by report.py.
"""

import functools
import os

from .model import num
from .appendix import buckets
from .tables import s21_sizes

WIDTH_IN, HEIGHT_IN, DPI = 12, 7, 100

# Why no plot is drawn: --no-plots (the reports say so).
NOT_ASKED = "not asked for (--no-plots)"


@functools.cache
def mpl_error():
    """None once matplotlib's Agg backend is loaded, else why it cannot be;
    loaded on the first call, so a report without plots never loads it.
    Called by write_all() and sweep_plots.write_all()."""
    try:
        import matplotlib
        matplotlib.use("Agg")
    except Exception as exc:  # no matplotlib: the report says so
        return "matplotlib is not available (%s)" % exc
    return None


def _figure():
    """A new 1200x700 figure with its own Agg canvas (no pyplot state);
    called by the plots below once mpl_error() is None."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI)
    FigureCanvasAgg(fig)
    return fig


def _save(fig, outdir, name):
    """Write fig as outdir/name at the fixed pixel size; returns name."""
    fig.savefig(os.path.join(outdir, name), dpi=DPI, format="png")
    return name


def _cdf(ax, values, label):
    """Draw an empirical CDF step line of values."""
    vals = sorted(values)
    n = len(vals)
    ax.step(vals, [(i + 1) / n for i in range(n)], where="post", label=label)


def _maybe_log_x(ax, values):
    """Use a log x axis when the values span more than a factor of 20."""
    low = min(v for v in values) if values else 0
    if low > 0 and max(values) / low > 20:
        ax.set_xscale("log")


def cdf_s20(ans, labels, outdir):
    """CDF of the S20 single-byte write+drain latency, raw samples only."""
    have = [(an, lb) for an, lb in zip(ans, labels)
            if an.latency.get("s20-single-byte") and an.latency["s20-single-byte"].samples_ms]
    if not have:
        return None, "no log has raw S20 samples (samples tag=s20-single-byte)"
    fig = _figure()
    ax = fig.add_subplot(1, 1, 1)
    for an, lb in have:
        _cdf(ax, an.latency["s20-single-byte"].samples_ms, lb)
    _maybe_log_x(ax, [v for an, _ in have for v in an.latency["s20-single-byte"].samples_ms])
    ax.set_xlabel("write + drain latency, 1 byte (ms)")
    ax.set_ylabel("fraction of samples")
    ax.set_title("S20 single-byte latency CDF (raw samples)")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower right")
    return _save(fig, outdir, "latency_cdf_s20.png"), "%d log(s)" % len(have)


def cdf_s21(ans, labels, outdir):
    """One CDF panel per S21 size, raw samples only."""
    def series(an, size):
        """S21 raw samples (ms) of one size in a log."""
        lat = an.latency.get("s21-fifo-size-%s" % size)
        return lat.samples_ms if lat else []
    sizes = s21_sizes(ans)[:9]            # a 3 x 3 grid
    if not any(series(an, s) for an in ans for s in sizes):
        return None, "no log has raw S21 samples (samples tag=s21-fifo-size-N)"
    fig = _figure()
    fig.subplots_adjust(hspace=0.5, bottom=0.16, left=0.08, right=0.98)
    for i, size in enumerate(sizes):
        ax = fig.add_subplot(3, 3, i + 1)
        drawn = [series(an, size) for an in ans if series(an, size)]
        for an, lb in zip(ans, labels):
            if series(an, size):
                _cdf(ax, series(an, size), lb)
        if not drawn:
            ax.text(0.5, 0.5, "no raw samples", ha="center", va="center",
                    transform=ax.transAxes, color="grey")
        else:
            _maybe_log_x(ax, [v for d in drawn for v in d])
        ax.set_title("%s B" % size, fontsize=10)
        ax.tick_params(labelsize=9)
        ax.grid(True, alpha=0.3)
    fig.suptitle("S21 write + drain latency CDF by write size (raw samples)")
    fig.supxlabel("write + drain latency (ms; log scale where the samples span decades)",
                  y=0.06)
    fig.supylabel("fraction of samples")
    handles, names = fig.axes[0].get_legend_handles_labels()
    for ax in fig.axes:
        if not handles:
            handles, names = ax.get_legend_handles_labels()
    fig.legend(handles, names, loc="lower center", ncol=max(1, len(names)), fontsize=9)
    return _save(fig, outdir, "latency_cdf_s21.png"), ""


def line_rate(ans, labels, outdir):
    """True line rate (% of baud/10) by payload size for S10, S12 and S14."""
    sids = [s for s in ("S10", "S12", "S14") if any(
        lr.section == s and lr.pct_true is not None for an in ans for lr in an.line_rates)]
    if not sids:
        return None, "no log has S10/S12/S14 throughput records"
    fig = _figure()
    for i, sid in enumerate(sids):
        ax = fig.add_subplot(1, len(sids), i + 1)
        for an, lb in zip(ans, labels):
            pts = sorted((num(lr.size), lr.pct_true) for lr in an.line_rates
                         if lr.section == sid and lr.pct_true is not None and num(lr.size))
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=lb)
        ax.axhline(100.0, color="grey", linestyle=":", linewidth=1)
        pcts = [lr.pct_true for an in ans for lr in an.line_rates
                if lr.section == sid and lr.pct_true]
        if pcts and max(pcts) / min(pcts) > 20:  # an instant UART beside a real line
            ax.set_yscale("log")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("payload size (bytes)")
        ax.set_title(sid)
        ax.grid(True, alpha=0.3)
        if i == 0:
            ax.set_ylabel("line rate (% of baud/10)")
    fig.axes[0].legend(fontsize=8)
    fig.suptitle("TX line rate by payload size")
    return _save(fig, outdir, "line_rate.png"), ""


def fifo_boundary(ans, labels, outdir):
    """S21 P50 (solid) and P99 (dashed) latency by size, one colour per log."""
    rows = []
    for an, lb in zip(ans, labels):
        pts = [(int(s), an.latency.get("s21-fifo-size-%s" % s)) for s in s21_sizes(ans)]
        pts = [(s, l) for s, l in pts if l is not None and "p50" in l.values]
        if pts:
            rows.append((an, lb, pts))
    if not rows:
        return None, "no log has S21 latency summaries"
    fig = _figure()
    ax = fig.add_subplot(1, 1, 1)
    for i, (an, lb, pts) in enumerate(rows):
        colour = "C%d" % (i % 10)
        ax.plot([s for s, _ in pts], [l.values["p50"] for _, l in pts], marker="o",
                color=colour, label=lb + " P50")
        p99 = [(s, l.values["p99"]) for s, l in pts if "p99" in l.values]
        ax.plot([s for s, _ in p99], [v for _, v in p99], marker="x", linestyle="--",
                color=colour, label=lb + " P99")
    depth = _fifo_depth(ans)
    for edge in range(depth, 50, depth):
        ax.axvline(edge + 0.5, color="grey", linestyle=":", linewidth=1)
    ax.set_yscale("log")
    ax.set_xlabel("write size (bytes); dotted lines: FIFO depth %d boundaries" % depth)
    ax.set_ylabel("write + drain latency (ms)")
    ax.set_title("S21 FIFO-boundary latency: P50 (solid) and P99 (dashed)")
    ax.grid(True, alpha=0.3, which="both")
    ax.legend(fontsize=8, ncol=2)
    return _save(fig, outdir, "fifo_boundary.png"), ""


def _fifo_depth(ans):
    """FIFO depth from the first log that states it, else 16."""
    for an in ans:
        for value in (an.log.manifest.get("fifo_depth"), an.log.boot.get("fifo_depth_bytes")):
            if num(value) and num(value) >= 1:
                return int(num(value))
    return 16


def instructions_per_byte(ans, labels, outdir):
    """S41 median instructions per byte, grouped by write size, one bar per log."""
    sizes = sorted({s for an in ans for s in an.s41 if num(s)}, key=num)
    def value(an, size):
        """S41 median instructions per byte of one size (recomputed, else printed)."""
        entry = an.s41.get(size)
        if not entry:
            return None
        got = entry["median"].get("instructions_per_byte")
        return got if got is not None else num(entry["printed"].get("instructions_per_byte"))
    have = [(an, lb) for an, lb in zip(ans, labels) if any(value(an, s) for s in sizes)]
    if not have:
        return None, "no log has S41 instructions per byte"
    fig = _figure()
    ax = fig.add_subplot(1, 1, 1)
    width = 0.8 / len(have)
    for i, (an, lb) in enumerate(have):
        xs = [j + i * width for j in range(len(sizes))]
        ax.bar(xs, [value(an, s) or 0 for s in sizes], width=width, label=lb)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(sizes))])
    ax.set_xticklabels(["%s B" % s for s in sizes])
    ax.set_xlabel("write size (bytes per write)")
    vals = [value(an, s) for an, _ in have for s in sizes if value(an, s)]
    if vals and max(vals) / max(min(vals), 1e-9) > 20:
        ax.set_yscale("log")
    ax.set_ylabel("instructions per byte (median of rounds)")
    ax.set_title("S41 CPU work per byte by log")
    ax.grid(True, axis="y", alpha=0.3)
    fig.subplots_adjust(bottom=0.2)
    ax.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=len(have))
    return _save(fig, outdir, "instructions_per_byte.png"), ""


def s43_hist(ans, labels, outdir):
    """S43 overshoot histograms as cyclictest's: samples per 1 us bucket, one
    panel per log with raw samples, idle vs loaded (and Linux's idle at a timer
    slack of 1 ns), log count axis, log x axis when the buckets span decades;
    called by write_all()."""
    have = [(an, lb) for an, lb in zip(ans, labels)
            if any(l.samples_ms for l in an.s43.values())]
    if not have:
        return None, "no log has raw S43 samples (StarryOS prints 3 of 50 per group)"
    fig = _figure()
    cols = min(len(have), 3 if len(have) > 4 else 4)
    rows = (len(have) + cols - 1) // cols
    fig.subplots_adjust(left=0.08, right=0.98, bottom=0.2 if rows == 1 else 0.14,
                        top=0.88, wspace=0.25, hspace=0.45)
    colours, seen = {}, {}
    for i, (an, lb) in enumerate(have):
        ax = fig.add_subplot(rows, cols, i + 1)
        hists = {p: buckets(l.samples_ms, limit=10 ** 9)[0] for p, l in an.s43.items()
                 if l.samples_ms}
        used = sorted({b for h in hists.values() for b in h})
        logx = (used[-1] + 1) / max(used[0], 1) > 100
        for phase, counts in hists.items():
            colour = colours.setdefault(phase, "C%d" % (len(colours) % 10))
            xs, ys = [], []
            for b in sorted(counts):
                left = b if b or not logx else 0.5
                xs += [left, left, b + 1, b + 1]
                ys += [0.8, counts[b], counts[b], 0.8]
            line, = ax.plot(xs, ys, color=colour, linewidth=1.2, label=phase)
            ax.fill(xs, ys, color=colour, alpha=0.3)
            seen.setdefault(phase, line)
        ax.set_yscale("log")
        ax.set_ylim(0.8, None)
        if logx:
            ax.set_xscale("log")
        ax.set_title(lb, fontsize=10)
        ax.grid(True, alpha=0.3, which="both")
    fig.supxlabel("overshoot past the deadline (us; 1 us buckets; log scale where the "
                  "buckets span decades)", y=0.075)
    fig.supylabel("samples per 1 us bucket (log scale)")
    fig.legend(list(seen.values()), list(seen), loc="lower center", ncol=len(seen),
               bbox_to_anchor=(0.5, 0.0))
    fig.suptitle("S43 timer wake-up overshoot histogram: idle vs while sending (raw samples)")
    return _save(fig, outdir, "s43_overshoot_hist.png"), ""


PLOTS = (("Latency CDF, S20", cdf_s20), ("Latency CDF by size, S21", cdf_s21),
         ("Line rate by payload size", line_rate), ("FIFO-boundary P50/P99", fifo_boundary),
         ("Instructions per byte", instructions_per_byte),
         ("S43 overshoot histograms", s43_hist))


def write_all(ans, labels, outdir, draw=True):
    """Write every plot that has data (none when draw is false: --no-plots);
    returns [(title, filename|None, note)]; called by report.build()."""
    out = []
    for title, func in PLOTS:
        why = mpl_error() if draw else NOT_ASKED
        if why:
            out.append((title, None, why))
            continue
        try:
            name, note = func(ans, labels, outdir)
        except Exception as exc:  # one broken plot must not stop the report
            name, note = None, "plot failed: %r" % (exc,)
        out.append((title, name, note))
    return out
