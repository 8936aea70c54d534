#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# The launch-overhead anchors, to run beside your own benchmark in ONE device call, so that ratios
# are taken on the same GPU at the same time. Run it on the GPU machine. It compiles and runs the
# C++ anchor there (nvcc is there). For the raw-FFM Java anchor, compile Bench.java here
# (javac -d DIR Bench.java, JDK 25), put DIR on your bundle's class path, and set JAVA to the
# bundle's `java` launcher. WITH_TORCH=1 adds the PyTorch anchor, WITH_PYOTHERS=1 the CuPy and
# cuda.core ones. (scripts/gpu-run.sh bench runs all of them, and cuda-graph, this way.)
# Prints CSV rows: impl,n,mode,us_per_kernel_submit,us_per_kernel_wall,reps
set -u
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
nvcc -O2 -o /tmp/anchor_cu bench.cu -lcuda && /tmp/anchor_cu inc.ptx
[ -n "${JAVA:-}" ] && "$JAVA" Bench inc.ptx
[ -n "${WITH_TORCH:-}" ] && python3 bench_torch.py
[ -n "${WITH_PYOTHERS:-}" ] && python3 bench_pyothers.py
exit 0
