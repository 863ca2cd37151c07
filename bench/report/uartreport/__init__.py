"""Host-side report tool of the UART driver benchmark.

Modules: lexer (line tokens), parse (log -> model.Log), starry (log flavour,
labels, baud, StarryOS boot figures), stats, recompute (derived figures and
checks), tables, plots, report (Markdown), cli.
"""
