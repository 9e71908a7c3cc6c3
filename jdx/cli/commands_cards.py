"""show / outline / signature commands register here."""
