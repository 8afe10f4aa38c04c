"""The clients of the HTTP API: the typed Python client, the terminal game and its lobby, and
the player tokens they keep."""
