"""The relationship graph (spec §7.3) commands: parse flags, one facade call, render."""

from __future__ import annotations
