"""The leaderboard (RULES.md §9): points per player from rated table and tour games."""
