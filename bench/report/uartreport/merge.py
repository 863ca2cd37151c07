"""One report column from several boots of one build at one operating point.

A section that needs a boot of its own (the Linux peer's S32 and S33 each
read the one stream QEMU's far end starts by itself in a boot) runs in a
second log; `report MAIN.log+S32.log+S33.log` makes one column of them:
the main log, with each section a later log ran (not SKIPPED) where the
main log skipped it or did not run it. The logs must agree on what makes
a column (SETTINGS); a later log that does not is left out with a warning.
Called by cli.main; `report --check` checks each boot's log on its own.
"""

from . import parse

# Manifest keys the boots of one column share.
SETTINGS = ("board", "backend", "os", "kernel_release", "engine", "bench_scale", "icount_shift",
            "cpu_hz", "qemu_mode", "line", "line_point", "line_bus_ns", "wire_model", "baud",
            "timebase_hz")
# Keys a boot that ran S32 or S33 brings: the far end its stream came from.
RX_KEYS = ("peer", "far_end_stream", "wire_rx_trigger")
RX_SECTIONS = ("S32", "S33")


def parse_column(arg):
    """The Log of one LOG argument: a file, or files joined by '+'."""
    paths = arg.split("+")
    logs = [parse.parse_file(p) for p in paths]
    return merge(logs) if len(logs) > 1 else logs[0]


def _ran(log, sid):
    """True when sid has a status line in log and it is not SKIPPED."""
    st = log.statuses.get(sid)
    return st is not None and st.get("status") != "SKIPPED"


def merge(logs):
    """The first log with the sections the others ran in its place; the
    first log's label, `merged` naming each later file and its sections."""
    main = logs[0]
    main.merged = []
    for extra in logs[1:]:
        differ = [k for k in SETTINGS if main.manifest.get(k) != extra.manifest.get(k)]
        if differ:
            main.warn(0, "%s left out of the column: its %s differ from %s's" % (
                extra.path, ", ".join(differ), main.path))
            continue
        taken = []
        for sid in extra.order:
            if sid == "S00" or not _ran(extra, sid):
                continue
            if _ran(main, sid):
                main.warn(0, "%s: %s ran in %s too; kept the first" % (extra.path, sid, main.path))
                continue
            main.sections[sid] = extra.sections[sid]
            main.statuses[sid] = extra.statuses[sid]
            main.hists.update({t: h for t, h in extra.hists.items() if h.section == sid})
            main.payloads = [p for p in main.payloads if p.section != sid] + \
                [p for p in extra.payloads if p.section == sid]
            if sid not in main.order:
                main.order.append(sid)
            taken.append(sid)
        if any(sid in RX_SECTIONS for sid in taken):
            for key in RX_KEYS:
                if key in extra.manifest:
                    main.manifest[key] = extra.manifest[key]
        main.merged.append((extra.path, taken))
        main.warnings += [(0, "%s: %s" % (extra.path, m)) for _, m in extra.warnings]
    return main
