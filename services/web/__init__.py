"""web: the browser's door, serving the pages and bridging Connect calls to the gateway."""
