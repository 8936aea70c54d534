#!/usr/bin/env bash
# Regenerates the benchmark kernel's PTX from its CUDA source (needs nvcc; no GPU).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
nvcc -ptx -arch=compute_90 -o "$here/../resources/cuda/graph/benchmarks/inc.ptx" "$here/inc.cu"
