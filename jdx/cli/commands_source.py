"""Sources and bodies (spec §7.1, §11) commands: parse flags, one facade call, render."""

from __future__ import annotations
