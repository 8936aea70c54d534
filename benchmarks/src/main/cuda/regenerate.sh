#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Regenerates the benchmark kernel's PTX from its CUDA source (needs nvcc; no GPU).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# The manifest beside each source ties the PTX to it (CommittedPtxTests checks it, without nvcc).
manifest="$here/../../../../scripts/ptx-manifest.sh"
ptx="$here/../resources/cuda/graph/benchmarks/inc.ptx"
nvcc -ptx -arch=compute_90 -o "$ptx" "$here/inc.cu"
"$manifest" "$here/inc.ptx.sha256" "$here/regenerate.sh" "$ptx" "$here/inc.cu"
