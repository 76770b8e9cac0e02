"""Production guards: rate limits, hostile input refused at the edge, health, headers and deploy checks."""
