"""The host side of the dice box: finding it (discovery), protocol v1 (protocol, session), the
link with its reader thread and reconnects (link), typed events (events), and the glue between a
game and the box (table)."""
