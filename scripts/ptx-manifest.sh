#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Writes the manifest that ties a committed PTX file to what made it; every regenerate.sh calls it
# after nvcc, and CommittedPtxTests (architecture-tests) checks it in every build, without nvcc:
#   scripts/ptx-manifest.sh MANIFEST SCRIPT PTX SOURCE...
# MANIFEST gets one sha256sum line per file, with its path relative to MANIFEST's folder: the
# script (so that a change of its nvcc flags counts), each CUDA source and the PTX written from
# them. `sha256sum -c MANIFEST` in that folder checks the same.
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: ptx-manifest.sh MANIFEST SCRIPT PTX SOURCE..." >&2; exit 2; }
manifest=$1 script=$2 ptx=$3
shift 3
dir=$(cd "$(dirname "$manifest")" && pwd)
rel=()
for f in "$script" "$@" "$ptx"; do
  [ -f "$f" ] || { echo "ptx-manifest.sh: no such file: $f" >&2; exit 2; }
  rel+=("$(realpath --relative-to="$dir" "$f")")
done
{
  echo "# SHA-256 of $(basename "$script"), the CUDA sources and the PTX it wrote; checked by CommittedPtxTests."
  (cd "$dir" && sha256sum "${rel[@]}")
} > "$manifest"
