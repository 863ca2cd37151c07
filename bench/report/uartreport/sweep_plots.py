"""The sweep's PNG plots (1200 px wide, 100 dpi, matplotlib's Agg backend).

write_all(points, cells, outdir, drawn) is called by sweep.main() and returns
[(title, file name or None, why not drawn)]: TX line rate, CPU % and RX
loss against baud (a panel per FIFO depth, colour per backend, line style
per CPU clock, one legend per figure) and a heatmap of the frontier.
"""

import math
import os
import textwrap

from .plots import NOT_ASKED, mpl_error
from .sweep import CPU_MAX_PCT, TX_MIN_PCT, clock_text, line_text
from .sweep_frontier import baud_text, clocks_in_order, rows_in_order

DPI, WIDTH_IN = 100, 12
STYLES = ("-", "--", ":", "-.")
MARKERS = ("o", "s", "^", "D", "v")
FILES = (("TX line rate vs baud", "sweep_tx_line_rate.png"),
         ("Driver CPU % vs baud", "sweep_cpu.png"),
         ("RX loss vs baud", "sweep_rx_loss.png"),
         ("Frontier baud", "sweep_frontier.png"))


def _figure(height_in):
    """A new figure 1200 px wide with its own canvas, no pyplot state (_vs_baud, _heatmap)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=(WIDTH_IN, height_in), dpi=DPI)
    FigureCanvasAgg(fig)
    return fig


def _series(points):
    """{(setting, backend, clock): [points by baud]}: one panel's lines (_vs_baud)."""
    out = {}
    for p in points:
        out.setdefault((p.setting, p.backend, (p.cpu_hz, p.shift)), []).append(p)
    return {k: sorted(v, key=lambda p: p.baud) for k, v in sorted(
        out.items(), key=lambda kv: (kv[0][0], kv[0][1], -kv[0][2][0]))}


def _setting_tag(setting, settings):
    """` [full scale]`: what differs between the sweep's settings (_line_name, _heatmap)."""
    names = ("board %s", "%s scale", "peer %s", "rx trigger %s")
    parts = [names[i] % setting[i] if i < len(names) else line_text(setting[i])
             for i in range(len(setting)) if len({s[i] for s in settings}) > 1]
    return " [%s]" % ", ".join(parts) if parts else ""


def _line_name(key, settings):
    """Legend text of a line: backend, CPU clock, setting when several (_vs_baud)."""
    setting, backend, clock = key
    return "%s, %s%s" % (backend, clock_text(*clock), _setting_tag(setting, settings))


def _vs_baud(points, value, ylabel, title, limit, name, outdir, symlog=False):
    """One figure of value(point) against baud, a panel per FIFO depth (write_all)."""
    fifos = sorted({p.fifo for p in points})
    ncols = min(3, len(fifos))
    nrows = math.ceil(len(fifos) / ncols)
    legend_in = 0.25 * math.ceil(len({(p.setting, p.backend, p.cpu_hz) for p in points}) / 3)
    fig = _figure(1.6 + legend_in + 3.4 * nrows)
    backends = sorted({p.backend for p in points})
    clocks = sorted({(p.setting, (p.cpu_hz, p.shift)) for p in points},
                    key=lambda c: (c[0], -c[1][0]))  # a line style per setting and clock
    settings = sorted({p.setting for p in points})
    bauds = sorted({p.baud for p in points})
    handles = {}
    axes = fig.subplots(nrows, ncols, sharex=True, sharey=True, squeeze=False).flatten()
    for ax in axes[len(fifos):]:
        ax.set_visible(False)
    for i, fifo in enumerate(fifos):
        ax = axes[i]
        for key, pts in _series([p for p in points if p.fifo == fifo]).items():
            pts = [p for p in pts if value(p) is not None]
            if not pts:
                continue
            colour = "C%d" % (backends.index(key[1]) % 10)
            style = STYLES[clocks.index((key[0], key[2])) % len(STYLES)]
            marker = MARKERS[clocks.index((key[0], key[2])) % len(MARKERS)]
            line, = ax.plot([p.baud for p in pts], [value(p) for p in pts], color=colour,
                            linestyle=style, marker=marker, markersize=6)
            for p in pts:  # a point that fails: hollow marker
                if not p.passes():
                    ax.plot([p.baud], [value(p)], linestyle="", marker=marker, markersize=7,
                            markerfacecolor="white", markeredgecolor=colour)
            handles.setdefault(_line_name(key, settings), line)
        ax.axhline(limit, color="grey", linestyle=":", linewidth=1)
        ax.set_xscale("log")
        from matplotlib.ticker import FixedLocator, NullLocator
        ax.xaxis.set_major_locator(FixedLocator(bauds))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.set_xticklabels([baud_text(b) for b in bauds], rotation=45, fontsize=8)
        ax.tick_params(labelbottom=True, labelleft=True)
        ax.set_xlim(bauds[0] / 1.4, bauds[-1] * 1.4)
        if symlog:
            ax.set_yscale("symlog", linthresh=0.1)
            ax.set_ylim(-0.01, 150)
        ax.set_xlabel("baud (bit/s, log scale)")
        ax.set_ylabel(ylabel)
        ax.set_title("FIFO depth %d B" % fifo, fontsize=10)
        ax.grid(True, alpha=0.3)
    fig.suptitle("%s (dotted: the criterion's limit, %g %%; hollow marker: the point fails "
                 "a criterion)" % (title, limit), fontsize=11)
    fig.legend(list(handles.values()), list(handles), loc="lower center", fontsize=8,
               ncol=min(3, max(1, len(handles))))
    height = fig.get_figheight()
    fig.subplots_adjust(top=1 - 0.6 / height, hspace=0.6, wspace=0.25,
                        bottom=(1.0 + 0.25 * math.ceil(len(handles) / 3)) / height)
    fig.savefig(os.path.join(outdir, name), dpi=DPI, format="png")
    return name


def _heatmap(cells, name, outdir):
    """The frontier baud per row and CPU clock, colour on a log scale (write_all)."""
    rows = rows_in_order(cells)
    clocks = clocks_in_order(cells)
    settings = sorted({r[0] for r in rows})
    grid, texts = [], []
    for row in rows:
        vals, labels = [], []
        for col in clocks:
            cell = cells[row].get(col)
            got = None if cell is None or cell.frontier is None else math.log10(cell.frontier)
            vals.append(float("nan") if got is None else got)
            labels.append("not run" if cell is None else cell.text())
        grid.append(vals)
        texts.append(labels)
    fig = _figure(max(3.5, 1.6 + 0.7 * len(rows)))
    ax = fig.add_subplot(1, 1, 1)
    import matplotlib
    from matplotlib.patches import Rectangle
    cmap = matplotlib.colormaps["viridis"].copy()
    cmap.set_bad("lightgrey")
    ladder = sorted({b for r in rows for c in cells[r].values() for b in c.ladder})
    image = ax.imshow(grid, cmap=cmap, aspect="auto", vmin=math.log10(ladder[0]),
                      vmax=math.log10(ladder[-1]))
    for i, labels in enumerate(texts):
        for j, text in enumerate(labels):
            if text == "not run":  # white: no point of this row at this clock
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, color="white"))
            dark = math.isnan(grid[i][j]) or grid[i][j] > (math.log10(ladder[0]) +
                                                           math.log10(ladder[-1])) / 2
            ax.text(j, i, "\n".join(textwrap.wrap(text, 28)), ha="center", va="center",
                    fontsize=8, color="black" if dark else "white")
    ax.set_xticks(range(len(clocks)))
    ax.set_xticklabels([clock_text(*c) for c in clocks])
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(["%s, FIFO %d%s" % (r[1], r[2], _setting_tag(r[0], settings))
                        for r in rows])
    ax.set_xlabel("CPU clock (icount shift)")
    ax.set_ylabel("backend, FIFO depth (bytes)")
    bar = fig.colorbar(image, ax=ax)
    bar.set_ticks([math.log10(b) for b in ladder])
    bar.set_ticklabels([baud_text(b) for b in ladder])
    bar.set_label("frontier baud (bit/s, log scale); grey: none, white: not run")
    ax.set_title("Sweep frontier: highest baud with TX >= %g %%, no RX loss, CPU <= %g %%"
                 % (TX_MIN_PCT, CPU_MAX_PCT), fontsize=11)
    fig.subplots_adjust(left=0.22)
    fig.savefig(os.path.join(outdir, name), dpi=DPI, format="png")
    return name


def write_all(points, cells, outdir, drawn=True):
    """Write the four plots (none when drawn is false: --no-plots); returns
    [(title, file name or None, why not)]; called by sweep.main()."""
    def draw(i):
        """The i-th plot of FILES (write_all's loop)."""
        title, name = FILES[i]
        if i == 0:
            return _vs_baud(points, lambda p: p.tx, "TX line rate (% of baud / 10 B/s)",
                            title, TX_MIN_PCT, name, outdir)
        if i == 1:
            return _vs_baud(points, lambda p: p.cpu, "driver CPU (% of the window)",
                            title, CPU_MAX_PCT, name, outdir)
        if i == 2:
            return _vs_baud(points, lambda p: p.loss_pct(), "RX bytes lost (% of sent, "
                            "symlog)", title, 0.0, name, outdir, symlog=True)
        return _heatmap(cells, name, outdir)
    out = []
    for i, (title, _) in enumerate(FILES):
        why = mpl_error() if drawn else NOT_ASKED
        if why:
            out.append((title, None, why))
            continue
        try:
            out.append((title, draw(i), ""))
        except Exception as exc:  # one broken plot must not stop sweep.md
            out.append((title, None, "plot failed: %r" % (exc,)))
    return out
