"""``sixtysix admin ...``: maintenance commands, one module per command."""
