"""GrimmoiR content pack: characters.json and its schema."""
