"""The host side of the dice box: finding it, and (later) the protocol v1 link."""
