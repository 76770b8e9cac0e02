"""Game day: a played game's state, rebuilt from its log of actions (plain Python, no Django)."""
