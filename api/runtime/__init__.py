"""Running the service: ``sixtysix serve``, the embedded Redis, a local server, Redis connections
and the gunicorn worker classes."""
