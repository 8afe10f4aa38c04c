"""The Route-66 tour (RULES.md §9, seed 001): eight stations, each a diner opponent."""
