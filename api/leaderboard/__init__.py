"""The leaderboard (docs/rules.md §9): points per player from rated table, tour and computer
games."""
