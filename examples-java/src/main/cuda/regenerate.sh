#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Regenerates the first program's PTX from its CUDA source (needs nvcc; no GPU): the guide's
# nvcc command, run from this module's folder.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# The manifest beside each source ties the PTX to it (CommittedPtxTests checks it, without nvcc).
manifest="$here/../../../../scripts/ptx-manifest.sh"
ptx="$here/../resources/example/saxpy/saxpy.ptx"
nvcc -ptx -arch=compute_90 -o "$ptx" "$here/saxpy.cu"
"$manifest" "$here/saxpy.ptx.sha256" "$here/regenerate.sh" "$ptx" "$here/saxpy.cu"
