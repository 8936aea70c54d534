#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Regenerates the test kernels' PTX from their CUDA sources (needs nvcc; no GPU).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# The manifest beside each source ties the PTX to it (CommittedPtxTests checks it, without nvcc).
manifest="$here/../../../../scripts/ptx-manifest.sh"
out="$here/../resources/cuda/graph"
for cu in "$here"/*.cu; do
  ptx="$out/$(basename "${cu%.cu}").ptx"
  nvcc -ptx -arch=compute_90 -o "$ptx" "$cu"
  "$manifest" "${cu%.cu}.ptx.sha256" "$here/regenerate.sh" "$ptx" "$cu"
done
