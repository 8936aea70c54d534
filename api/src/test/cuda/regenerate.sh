#!/usr/bin/env bash
# Regenerates the test kernels' PTX from their CUDA sources (needs nvcc; no GPU).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../resources/cuda/graph"
for cu in "$here"/*.cu; do
  nvcc -ptx -arch=compute_90 -o "$out/$(basename "${cu%.cu}").ptx" "$cu"
done
