"""HTTP/JSON API of the Sixty-Six game server."""
