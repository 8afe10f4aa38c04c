"""Ratings per player (and computer level) and variant, with OpenSkill's Plackett-Luce model."""
