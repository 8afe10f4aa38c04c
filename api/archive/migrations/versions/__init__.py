"""The archive's migrations, one module per revision."""
