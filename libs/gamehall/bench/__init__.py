"""`make bench`: speed rows reported as ratios to baselines measured in the same run.

Our machines are two noisy cores, so absolute numbers drift between runs; each row names
the baseline it is divided by: `cpu` (a fixed pure-Python workload) for in-process rows,
`echo` (a gRPC echo through the full service harness) for rows that cross sockets.
"""
