"""TX counters add up (the `counters` check of check.check_log()).

What each counter counts (src/drivers/uart/async_ctr.c): user_req /
user_acc bytes asked of and taken by write() since the last reset;
hw_send_bytes bytes stored into THR; ring_pop_bytes is hw_send_bytes
(every byte taken from the ring goes to THR); staged_bytes and ring_empty
the ring's level at the snapshot, queued_at_reset its level at the reset;
hw_send_calls = refills by the kick + THRE entries (tx_irqs); a refill
moves at most hw_send_max_chunk <= FIFO depth bytes in at most two ring
runs. Snapshot and reset are taken with interrupts masked, so at every
snapshot user_acc + queued_at_reset == ring_pop_bytes + staged_bytes
exactly (older logs, without queued_at_reset: R0 = hw_send_bytes +
staged_bytes - user_acc >= 0, the same for every snapshot of one window).
The copier (ours, engine_copier.c, and StarryOS's) keeps bytes between
ring and THR: ring_pop_bytes counts bytes popped into its staging buffer,
staged_bytes those of them not yet sent, so at every snapshot of ours
user_acc + queued_at_reset == hw_send_bytes + staged_bytes + the ring's
bytes (exact when ring_empty=1, else greater), and each fast-retry
exhaustion follows 33 zero-byte sends (the first and 32 retries). StarryOS
logs get the general invariants only.
"""

from . import check_expect as expect
from .model import num

WINDOW = ("hw_send_bytes", "staged_bytes", "user_acc")
MONOTONE = ("user_calls", "user_req", "user_acc", "ring_pop_calls", "ring_pop_bytes",
            "hw_send_calls", "hw_send_bytes", "hw_send_zero", "tx_irqs")


def _sets(ctx):
    """(section, name, {counter: number}) of every TX counter snapshot in the log.

    S40's records are one snapshot: a counter two of them print (queued_at_reset)
    must be the same in both.
    """
    log, out = ctx.log, []
    for rec in log.records("S11", kind="diag", tag="s11-txdbg"):
        out.append(("S11", "s11-txdbg(phase=%s,size=%s)" % (rec.get("phase"), rec.get("size")),
                    {k: num(v) for k, v in rec.kv.items() if num(v) is not None}))
    merged = {}
    for rec in log.records("S40", kind="counter") + log.records("S40", kind="proxy"):
        for key, value in ((k, num(v)) for k, v in rec.kv.items() if rec.tag != "wire-model"):
            if value is not None and merged.setdefault(key, value) != value:
                ctx.fail("S40", "%s.%s" % (rec.tag, key), "%s, but an earlier record of the "
                         "same snapshot says %d" % (rec.get(key), merged[key]))
    if "user_acc" in merged:
        out.append(("S40", "counter", merged))
    return out


def counters(ctx):
    """General invariants for every snapshot, the async backend's exact ones for ours."""
    log = ctx.log
    sets = _sets(ctx)
    if not sets:
        ctx.na("no TX counters in this log (backend %s)" % log.manifest.get("backend", "?"))
        return
    fifo = expect.number(log, "fifo_depth") or num(log.boot.get("fifo_depth_bytes"))
    if not (log.is_d1() or log.line_point() is not None or
            log.manifest.get("backend") == "async"):
        fifo = None  # a per-byte status read on QEMU's instant UART stores a whole chunk
    backend = log.manifest.get("backend") if ctx.ours else None
    exact = {"async": _async, "copier": _copier}.get(backend)
    if not exact:
        ctx.note("counters: only the general invariants apply (backend %s)"
                 % log.manifest.get("backend", expect.flavor(log)))
    # a design that reads the status before each byte (the copier) also
    # fills the idle shifter: one byte more than the FIFO per send
    shifter = 1 if backend == "copier" else 0
    for sid, name, c in sets:
        _general(ctx, sid, name, c, fifo, shifter)
        if exact:
            exact(ctx, sid, name, c)
    if exact:
        _s11_windows(ctx, {n: c for s, n, c in sets if s == "S11"}, backend == "async")
        _s40_window(ctx, dict((n, c) for s, n, c in sets if s == "S40").get("counter"))


def _rule(ctx, sid, name, key, ok, what):
    """Fail the counter key of snapshot name unless ok."""
    if not ok:
        ctx.fail(sid, "%s.%s" % (name, key), what)


def _general(ctx, sid, name, c, fifo, shifter=0):
    """Invariants of any TX design: accepted <= requested, sent <= popped, chunks."""
    g = c.get
    if None not in (g("user_acc"), g("user_req")):
        _rule(ctx, sid, name, "user_acc", g("user_acc") <= g("user_req"),
              "%d bytes accepted of %d requested" % (g("user_acc"), g("user_req")))
    if None not in (g("hw_send_bytes"), g("ring_pop_bytes")):
        held = g("queued_at_reset") or 0     # bytes taken before the reset, sent after
        _rule(ctx, sid, name, "hw_send_bytes", g("hw_send_bytes") <= g("ring_pop_bytes") + held,
              "%d bytes sent but only %d taken from the ring (%d queued at the reset)"
              % (g("hw_send_bytes"), g("ring_pop_bytes"), held))
    if fifo and g("hw_send_max_chunk") is not None:
        _rule(ctx, sid, name, "hw_send_max_chunk", g("hw_send_max_chunk") <= fifo + shifter,
              "%d bytes in one refill, the FIFO holds %d%s" % (
                  g("hw_send_max_chunk"), fifo, " and the idle shifter 1" if shifter else ""))
    if None not in (g("hw_send_bytes"), g("hw_send_max_chunk"), g("hw_send_calls"),
                    g("hw_send_zero")):
        cap = g("hw_send_max_chunk") * (g("hw_send_calls") - g("hw_send_zero"))
        _rule(ctx, sid, name, "hw_send_bytes", g("hw_send_bytes") <= cap,
              "%d bytes, more than %d non-empty refills of at most %d" % (
                  g("hw_send_bytes"), g("hw_send_calls") - g("hw_send_zero"),
                  g("hw_send_max_chunk")))
    if None not in (g("ring_pop_calls"), g("ring_pop_bytes")):
        _rule(ctx, sid, name, "ring_pop_calls", g("ring_pop_calls") <= g("ring_pop_bytes"),
              "%d ring reads for %d bytes" % (g("ring_pop_calls"), g("ring_pop_bytes")))


def _async(ctx, sid, name, c):
    """The async backend's identities (async.c: uart_be_counters)."""
    g = c.get
    need = ("user_acc", "ring_pop_bytes", "hw_send_bytes", "hw_send_calls", "hw_send_zero",
            "ring_pop_calls", "staged_bytes", "ring_empty", "tx_irqs")
    if None in [g(k) for k in need]:
        ctx.fail(sid, name, "counters missing: %s" % ", ".join(k for k in need if g(k) is None))
        return
    _rule(ctx, sid, name, "ring_pop_bytes", g("ring_pop_bytes") == g("hw_send_bytes"),
          "%d, but every byte taken goes to THR: hw_send_bytes=%d" % (g("ring_pop_bytes"),
                                                                     g("hw_send_bytes")))
    _rule(ctx, sid, name, "ring_empty", g("ring_empty") == (g("staged_bytes") == 0),
          "%d with staged_bytes=%d" % (g("ring_empty"), g("staged_bytes")))
    _rule(ctx, sid, name, "hw_send_calls", g("hw_send_calls") >= g("tx_irqs"),
          "%d refills, fewer than the %d THRE entries (each refills)" % (g("hw_send_calls"),
                                                                        g("tx_irqs")))
    _rule(ctx, sid, name, "ring_pop_calls",
          g("ring_pop_calls") <= 2 * (g("hw_send_calls") - g("hw_send_zero")),
          "%d ring runs, more than two per non-empty refill" % g("ring_pop_calls"))
    before = g("hw_send_bytes") + g("staged_bytes") - g("user_acc")
    if g("queued_at_reset") is None:  # older logs: the ring's level at the reset not printed
        _rule(ctx, sid, name, "staged_bytes", before >= 0,
              "hw_send_bytes + staged_bytes = %d < user_acc = %d: bytes left the ring that "
              "were never written" % (g("hw_send_bytes") + g("staged_bytes"), g("user_acc")))
    else:
        _rule(ctx, sid, name, "queued_at_reset",
              g("user_acc") + g("queued_at_reset") == g("ring_pop_bytes") + g("staged_bytes"),
              "user_acc + queued_at_reset = %d + %d, but ring_pop_bytes + staged_bytes = %d + "
              "%d: the TX ring's bytes do not add up" % (g("user_acc"), g("queued_at_reset"),
                                                         g("ring_pop_bytes"), g("staged_bytes")))
    if g("tx_irqs") and g("bytes_per_tx_irq") is not None:  # printed x.yyy, truncated
        value = g("hw_send_bytes") / g("tx_irqs")
        _rule(ctx, sid, name, "bytes_per_tx_irq", abs(value - g("bytes_per_tx_irq")) < 0.0011,
              "%g, hw_send_bytes / tx_irqs = %.3f" % (g("bytes_per_tx_irq"), value))
    if g("hw_send_bytes") and g("hw_send_zero_per_kb") is not None:
        value = g("hw_send_zero") * 1024 // g("hw_send_bytes")
        _rule(ctx, sid, name, "hw_send_zero_per_kb", g("hw_send_zero_per_kb") == value,
              "%d, hw_send_zero x 1024 / hw_send_bytes = %d" % (g("hw_send_zero_per_kb"), value))


def _copier(ctx, sid, name, c):
    """The copier's identities (engine_copier.c: send_bytes, the retry ladder)."""
    g = c.get
    need = ("user_acc", "queued_at_reset", "hw_send_bytes", "hw_send_calls", "hw_send_zero",
            "staged_bytes", "ring_empty", "no_progress_budget", "slow_poll_exh", "yield_exh")
    if None in [g(k) for k in need]:
        ctx.fail(sid, name, "counters missing: %s" % ", ".join(k for k in need if g(k) is None))
        return
    left = g("user_acc") + g("queued_at_reset") - g("hw_send_bytes") - g("staged_bytes")
    _rule(ctx, sid, name, "queued_at_reset", left == 0 if g("ring_empty") else left > 0,
          "user_acc + queued_at_reset - hw_send_bytes - staged_bytes = %d with ring_empty=%d: "
          "the bytes do not add up" % (left, g("ring_empty")))
    _rule(ctx, sid, name, "hw_send_zero", g("hw_send_zero") <= g("hw_send_calls"),
          "%d zero-byte sends of %d" % (g("hw_send_zero"), g("hw_send_calls")))
    _rule(ctx, sid, name, "no_progress_budget", 33 * g("no_progress_budget") <= g("hw_send_zero"),
          "%d fast-retry exhaustions need %d zero-byte sends, %d counted"
          % (g("no_progress_budget"), 33 * g("no_progress_budget"), g("hw_send_zero")))
    _rule(ctx, sid, name, "slow_poll_exh", g("yield_exh") <= g("slow_poll_exh") <=
          g("no_progress_budget"), "yield_exh %d <= slow_poll_exh %d <= no_progress_budget %d "
          "does not hold" % (g("yield_exh"), g("slow_poll_exh"), g("no_progress_budget")))


def _s11_windows(ctx, snaps, ring_staged=True):
    """S11 per size: both snapshots of one reset window agree; the witness left.
    ring_staged: staged_bytes is the ring's level (async), so each snapshot
    tells the ring's level at the reset."""
    log = ctx.log
    for rec in log.records("S11", kind="policy"):
        size = rec.get("size")
        enq = snaps.get("s11-txdbg(phase=enqueue,size=%s)" % size)
        fin = snaps.get("s11-txdbg(phase=final-drain,size=%s)" % size)
        if enq is None or fin is None or any(k not in enq or k not in fin for k in WINDOW):
            continue  # a snapshot missing counters is a finding of _async already
        name = "s11-txdbg(phase=final-drain,size=%s)" % size
        for key in MONOTONE:
            if None not in (enq.get(key), fin.get(key)) and fin[key] < enq[key]:
                ctx.fail("S11", "%s.%s" % (name, key), "%d, less than %d at the enqueue "
                         "snapshot of the same window" % (fin[key], enq[key]))
        r_enq = enq["hw_send_bytes"] + enq["staged_bytes"] - enq["user_acc"]
        r_fin = fin["hw_send_bytes"] + fin["staged_bytes"] - fin["user_acc"]
        if ring_staged and r_enq != r_fin:
            ctx.fail("S11", name + ".staged_bytes", "the ring held %d bytes at the reset by this "
                     "snapshot, %d by the enqueue one (hw_send_bytes + staged_bytes - user_acc)"
                     % (r_fin, r_enq))
        sent = rec.num("bytes") or 0
        if enq["user_acc"] < sent:
            ctx.fail("S11", "s11-txdbg(phase=enqueue,size=%s).user_acc" % size,
                     "%d, less than the %d payload bytes written" % (enq["user_acc"], sent))
        if fin["hw_send_bytes"] < max(sent, r_enq + enq["user_acc"]):
            ctx.fail("S11", name + ".hw_send_bytes", "%d after the drain, but %d bytes were "
                     "queued before it (%d payload)" % (fin["hw_send_bytes"],
                                                        r_enq + enq["user_acc"], sent))


def _s40_window(ctx, c):
    """S40: the bytes the last counter reset's section wrote were accepted and sent."""
    if c is None:
        return
    last = None
    for sid in ctx.log.order:
        if sid == "S40":
            break
        for rec in ctx.log.sections[sid].records:
            if rec.get("reset_rc") == "0" and (rec.num("burst_written") or rec.num("completed")):
                last = rec
    if last is None:
        ctx.note("counters: no reset before S40 found, its window is not known")
        return
    wrote = last.num("burst_written") or last.num("completed")
    for key in ("user_acc", "hw_send_bytes"):
        if c.get(key) is not None and c[key] < wrote:
            ctx.fail("S40", "counter." + key, "%d, less than the %d bytes %s wrote since the "
                     "last reset" % (c[key], wrote, last.tag))
