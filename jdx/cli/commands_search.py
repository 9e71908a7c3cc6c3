"""Search and navigation (spec §7.2) commands: parse flags, one facade call, render."""

from __future__ import annotations
