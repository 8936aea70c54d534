#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Regenerates struct_layouts.txt, the table StructLayoutTests checks the Java layouts against, from
# the CUDA headers (CUDA_HOME, default /usr/local/cuda) with the host compiler; no GPU is needed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exe=$(mktemp) && trap 'rm -f "$exe"' EXIT
gcc -std=c11 -Wall -Wextra -Werror -I"${CUDA_HOME:-/usr/local/cuda}/include" -o "$exe" "$here/struct_layouts.c" && "$exe" > "$here/../resources/cuda/graph/driver/internal/struct_layouts.txt"
