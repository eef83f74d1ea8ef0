"""`make bench`: every performance figure of the project beside its anchor, measured in one run.

Benchmarks are not tests: nothing here fails on a number. The machines are shared and noisy, so
each comparison is measured side by side in the same run, interleaved, and quoted as a median or a
ratio. ``python -m bench`` prints one table and writes ``bench/results.json``.
"""
