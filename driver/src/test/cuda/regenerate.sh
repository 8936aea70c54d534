#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Regenerates the PTX the GPU tests load, from the .cu sources beside this script.
# compute_90 PTX is JIT-compiled by the driver for the H200 (sm_90) and any newer GPU. The PTX ISA
# version it declares follows the toolkit: PTX from nvcc 13.0 needs a driver that supports
# CUDA 13.0 (an older driver fails the load with CUDA_ERROR_UNSUPPORTED_PTX_VERSION).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# The manifest beside each source ties the PTX to it (CommittedPtxTests checks it, without nvcc).
manifest="$here/../../../../scripts/ptx-manifest.sh"
out="$here/../resources/cuda/graph/driver/internal"
mkdir -p "$out"
nvcc -ptx -arch=compute_90 -o "$out/kernels.ptx" "$here/kernels.cu"
"$manifest" "$here/kernels.ptx.sha256" "$here/regenerate.sh" "$out/kernels.ptx" "$here/kernels.cu"
# cudaGraphSetConditional stays an extern call in the PTX; the driver links it at load time.
nvcc -ptx -arch=compute_90 -o "$out/conditional.ptx" "$here/conditional.cu"
"$manifest" "$here/conditional.ptx.sha256" "$here/regenerate.sh" "$out/conditional.ptx" "$here/conditional.cu"
