"""Read-path commands (members, show, ...) register here."""
