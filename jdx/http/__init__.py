"""The HTTP adapter (spec §14.4): `jdx serve`, the registry over `/v1` with the standard library."""
