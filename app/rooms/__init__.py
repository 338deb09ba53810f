"""Rooms and games as services: seats and tokens, the running games (one lock each), bots in
seats, and publishing changes to every connection, in this instance or (with Redis) others."""
