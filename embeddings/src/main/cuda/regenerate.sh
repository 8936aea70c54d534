#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Regenerates the encoder kernels' PTX from their CUDA source (needs nvcc, no GPU). The PTX is
# checked in: builds, the simulator and the GPU host never need nvcc.
#   regenerate.sh              the committed PTX
#   regenerate.sh --trace DIR  the PTX with the kernel timeline compiled in (-DKERNEL_TRACE), under
#                              DIR at the resource's path, for QueryBreakdown --trace with DIR first
#                              on the class path (never committed)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
include="$here/../../../../testkit/src/main/resources/cuda/graph/testkit"
package=cuda/graph/embeddings/internal/gpu
if [ "${1:-}" = --trace ]; then
  [ -n "${2:-}" ] || { echo "usage: regenerate.sh [--trace DIR]" >&2; exit 2; }
  mkdir -p "$2/$package"
  nvcc -ptx -O3 -arch=compute_90 -DKERNEL_TRACE -I "$include" -o "$2/$package/encoder_kernels.ptx" "$here/encoder_kernels.cu"
  exit 0
fi
# The manifest beside each source ties the PTX to it (CommittedPtxTests checks it, without nvcc).
manifest="$here/../../../../scripts/ptx-manifest.sh"
out="$here/../resources/$package"
mkdir -p "$out"
nvcc -ptx -O3 -arch=compute_90 -I "$include" -o "$out/encoder_kernels.ptx" "$here/encoder_kernels.cu"
"$manifest" "$here/encoder_kernels.ptx.sha256" "$here/regenerate.sh" "$out/encoder_kernels.ptx" "$here/encoder_kernels.cu" "$include/kernel_trace.cuh"
