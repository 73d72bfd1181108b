"""gateway: the only public door (auth, catalog, matches: play, watch, replay), stateless."""
