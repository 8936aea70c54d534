#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Regenerates the LLM engine's kernels' PTX from their CUDA source (needs nvcc, no GPU). The PTX is
# checked in: builds, the simulator and the GPU host never need nvcc.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# The manifest beside each source ties the PTX to it (CommittedPtxTests checks it, without nvcc).
manifest="$here/../../../../scripts/ptx-manifest.sh"
out="$here/../resources/cuda/graph/llm/internal/engine"
mkdir -p "$out"
nvcc -ptx -O3 -arch=compute_90 -o "$out/llm_kernels.ptx" "$here/llm_kernels.cu"
"$manifest" "$here/llm_kernels.ptx.sha256" "$here/regenerate.sh" "$out/llm_kernels.ptx" "$here/llm_kernels.cu"
