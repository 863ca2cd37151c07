"""The section statuses of a whole uartbench-hosted run (check_pty.py and
tests/linux/check_hosted.py): every section PASS, or SKIPPED with the
reason a Linux run documents for it (docs/hosted.md, "Sections")."""

SUITE_SECTIONS = 19
# Every Linux run: the kernel's own primitives, and no modelled far end.
SKIPPED = {"S05": "kernel-only", "S06": "kernel-only", "S50": "kernel-only",
           "S32": "no-wire-model", "S33": "no-wire-model"}


def check_statuses(log, skipped, errors):
    """Append to errors each section of log not PASS, or not SKIPPED with
    its reason in skipped; and a count that is not the suite's."""
    for sid in log.order:
        st = log.statuses.get(sid)
        want = ("SKIPPED", skipped[sid]) if sid in skipped else ("PASS", None)
        got = (st.get("status"), st.get("reason")) if st else (None, None)
        if got != want:
            errors.append(f"{sid}: status={got[0]} reason={got[1]}, expected {want[0]} "
                          f"reason={want[1]}")
    if len(log.order) != SUITE_SECTIONS:
        errors.append(f"{len(log.order)} sections in the log, not the suite's "
                      f"{SUITE_SECTIONS}")
