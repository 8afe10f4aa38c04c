"""A player's account as a whole: what the service holds about him (export) and its deletion,
over every store that names him (players, games, tables, tour, standings, the archive)."""
