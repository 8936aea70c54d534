#!/usr/bin/env bash
# Regenerates the conformance kernels' PTX from their CUDA sources (needs nvcc, no GPU).
# The PTX is checked in: builds and the simulator never need nvcc.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../resources/cuda/graph/conformance/kernels"
mkdir -p "$out"
for cu in "$here"/*.cu; do
  nvcc -ptx -arch=compute_90 -o "$out/$(basename "${cu%.cu}").ptx" "$cu"
done
