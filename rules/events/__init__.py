"""Events (club nights, tournaments) as plain data: list legality against an event, pairing, standings."""
