"""Leagues across events: season points, ratings and team events (no Django)."""
