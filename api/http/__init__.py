"""The HTTP layer: errors, schemas, resources (one Blueprint each), limits, security, observability
and the OpenAPI document's extras."""
