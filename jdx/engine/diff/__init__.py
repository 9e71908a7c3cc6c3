"""Public-API diff of two sides (spec §7.7): `rules` (ids, severities, flag choices; stdlib only), `surface`
(extracted tables -> API surface), `visibility`, `compare` (types, pairing passes, inheritance walk), `members`
(member rules), `report` (tally, cuts, gate, Arrow table), `extensions` (the Kotlin hook).

Input is the extracted tables (pyarrow) of each side's artifacts; getting them (extraction, shard reuse) is the
command's job, so this package never imports `jdx.loaders`. Submodules are imported by name: the command
registry reads `rules` at CLI start without paying for pyarrow.
"""
