#!/usr/bin/env bash
# Regenerates the example kernels' PTX from their CUDA source (needs nvcc; no GPU).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
nvcc -ptx -arch=compute_90 -o "$here/../resources/cuda/graph/examples/mlp.ptx" "$here/mlp.cu"
