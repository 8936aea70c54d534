#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Regenerates the encoder kernels' PTX from their CUDA source (needs nvcc, no GPU). The PTX is
# checked in: builds, the simulator and the GPU host never need nvcc.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# The manifest beside each source ties the PTX to it (CommittedPtxTests checks it, without nvcc).
manifest="$here/../../../../scripts/ptx-manifest.sh"
out="$here/../resources/cuda/graph/embeddings/internal/gpu"
mkdir -p "$out"
nvcc -ptx -O3 -arch=compute_90 -o "$out/encoder_kernels.ptx" "$here/encoder_kernels.cu"
"$manifest" "$here/encoder_kernels.ptx.sha256" "$here/regenerate.sh" "$out/encoder_kernels.ptx" "$here/encoder_kernels.cu"
