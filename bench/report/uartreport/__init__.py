"""Host-side report tool of the UART driver benchmark.

Modules: lexer (line tokens), parse and series (log -> model.Log), starry
(log flavour, labels, baud, StarryOS boot figures), settings (what each log
ran at), stats, analysis (the derived figures' classes), recompute with
distrib and work (derived figures and flags), tables, plots, report
(Markdown), json_out with units (report --json), check with check_expect,
check_structure, check_figures,
check_values, check_counters, check_bounds (report --check), cli.
"""
