"""``sixtysix admin ...``: operators' commands on a deployment's stores, one module each (its
``add_arguments`` fills in its parser, its ``run`` runs it)."""

from __future__ import annotations

import argparse
import importlib
from typing import Final

#: (name, line in ``sixtysix admin --help``, module).
SUBCOMMANDS: Final = (
    ("migrate", "move what the Redis-only layout kept into the database, once (sixtysix serve "
                "runs it at its start)", "api.admin.migrate"),
    ("rebuild", "rebuild the Redis caches of ratings, the leaderboard and tour stamps from "
                "the database", "api.admin.rebuild"),
)


def add_admin(p: argparse.ArgumentParser) -> None:
    p.description = "Operators' commands on a deployment's Redis and database."
    sub = p.add_subparsers(dest="admin", required=True, metavar="ADMIN_COMMAND")
    for name, text, module in SUBCOMMANDS:
        found = importlib.import_module(module)
        child = sub.add_parser(name, help=text)
        found.add_arguments(child)
        child.set_defaults(run=found.run)
