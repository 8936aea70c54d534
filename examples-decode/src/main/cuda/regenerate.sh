#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Regenerates the decode kernels' PTX from their CUDA source (needs nvcc, no GPU). The PTX is
# checked in: builds, the simulator and the GPU host never need nvcc.
#   regenerate.sh              the committed PTX
#   regenerate.sh --trace DIR  the PTX with tracing compiled in (-DDECODE_TRACE), written under DIR
#                              as a class-path folder: put DIR first on the class path to run
#                              Decode --trace with it (never committed)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --trace ]; then
  [ -n "${2:-}" ] || { echo "usage: regenerate.sh [--trace DIR]" >&2; exit 2; }
  mkdir -p "$2/cuda/graph/examples/decode"
  nvcc -ptx -O3 -arch=compute_90 -DDECODE_TRACE -o "$2/cuda/graph/examples/decode/decode_kernels.ptx" "$here/decode_kernels.cu"
  exit 0
fi
# The manifest beside each source ties the PTX to it (CommittedPtxTests checks it, without nvcc).
manifest="$here/../../../../scripts/ptx-manifest.sh"
out="$here/../resources/cuda/graph/examples/decode"
mkdir -p "$out"
nvcc -ptx -O3 -arch=compute_90 -o "$out/decode_kernels.ptx" "$here/decode_kernels.cu"
"$manifest" "$here/decode_kernels.ptx.sha256" "$here/regenerate.sh" "$out/decode_kernels.ptx" "$here/decode_kernels.cu"
