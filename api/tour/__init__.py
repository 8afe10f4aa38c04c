"""The Route-66 tour (docs/rules.md §9, seed 001): eight stations, each a diner opponent."""
