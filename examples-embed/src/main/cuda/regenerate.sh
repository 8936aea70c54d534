#!/usr/bin/env bash
# Regenerates the encoder kernels' PTX from their CUDA source (needs nvcc, no GPU). The PTX is
# checked in: builds, the simulator and the GPU host never need nvcc.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../resources/cuda/graph/examples/embed"
mkdir -p "$out"
nvcc -ptx -O3 -arch=compute_90 -o "$out/encoder_kernels.ptx" "$here/encoder_kernels.cu"
