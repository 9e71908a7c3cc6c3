"""Public-API diff of two sides (spec §7.7): `rules` (ids, severities, flag choices; stdlib only), `surface`
(extracted tables -> compact per-artifact form -> API surface), `visibility`, `compare` (types, pairing passes,
inheritance walk), `members` (member rules), `report` (tally, cuts, gate, Arrow table), `extensions` (the Kotlin hook).

Input is each side's artifacts in compact form (plain data, built from the extracted tables); getting them
(extraction, shard and surface-file reuse) is the command's job, so this package never imports `jdx.loaders`, and
pyarrow only to build the compact form or to write `--out`. Submodules are imported by name: the command
registry reads `rules` at CLI start without paying for pyarrow.
"""
