"""The clients of the HTTP API: the typed Python client (:class:`SixtySixClient`, re-exported
here from :mod:`api.clients.client`), the terminal game and its lobby, and the player tokens
they keep."""

from api.clients.client import ApiError, SixtySixClient

__all__ = ["ApiError", "SixtySixClient"]
