"""One module + kv file per screen."""
