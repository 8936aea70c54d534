#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Regenerates the example kernels' PTX from their CUDA source (needs nvcc; no GPU).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# The manifest beside each source ties the PTX to it (CommittedPtxTests checks it, without nvcc).
manifest="$here/../../../../scripts/ptx-manifest.sh"
ptx="$here/../resources/cuda/graph/examples/mlp.ptx"
nvcc -ptx -arch=compute_90 -o "$ptx" "$here/mlp.cu"
"$manifest" "$here/mlp.ptx.sha256" "$here/regenerate.sh" "$ptx" "$here/mlp.cu"
