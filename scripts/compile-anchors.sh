#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Compiles the C++ anchors and probes (every .cu and .c file under benchmarks/, or the files
# named) as the GPU host's scripts/gpu-run.sh builds them: nvcc for sm_90 with the decode kernels'
# folder on the include path, gcc against CUDA's headers, warnings as errors. Object files only,
# into target/anchors: CI has nvcc but no GPU, no driver library and no cuBLASLt library, so
# nothing is linked; a name that is undeclared or a call with the wrong arguments fails here as it
# would on the GPU host. cuBLASLt's headers come from scripts/cublaslt-headers.sh. One line a file;
# exits 1, with the compiler's messages, when any file does not compile.
#   bash scripts/compile-anchors.sh [FILE...]      (.ci/run runs it with no arguments)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=$(command -v nvcc || echo "$cuda/bin/nvcc")
[ -x "$nvcc" ] || { echo "compile-anchors.sh: no nvcc on PATH nor at $nvcc (CUDA_HOME): install CUDA's nvcc (it needs no GPU)" >&2; exit 1; }
cc=${CC:-gcc}

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  mapfile -t files < <(cd "$root" && find benchmarks -path '*/target' -prune -o -type f \( -name '*.cu' -o -name '*.c' \) -print | LC_ALL=C sort)
  [ ${#files[@]} -gt 0 ] || { echo "compile-anchors.sh: no .cu or .c file under $root/benchmarks" >&2; exit 1; }
fi

lt=$(bash "$root/scripts/cublaslt-headers.sh")
out=$root/target/anchors
mkdir -p "$out"
failed=0
for f in "${files[@]}"; do
  path=$f; [[ $path == /* ]] || path=$root/$f
  obj=$out/$(basename "$f").o
  case $f in
    *.cu) cmd=("$nvcc" -O2 -arch=sm_90 -Werror all-warnings -I"$root/examples-decode/src/main/cuda" -I"$lt" -c "$path" -o "$obj") ;;
    *.c) cmd=("$cc" -O2 -Wall -Werror -I"$cuda/include" -c "$path" -o "$obj") ;;
    *) echo "compile-anchors.sh: $f is neither .cu nor .c" >&2; exit 2 ;;
  esac
  if messages=$("${cmd[@]}" 2>&1); then
    echo "compiled $f"
  else
    echo "DOES NOT COMPILE: $f"
    echo "$messages" | sed 's/^/    /'
    failed=$((failed + 1))
  fi
done
if [ "$failed" -gt 0 ]; then
  echo "compile-anchors.sh: $failed of ${#files[@]} anchors do not compile ($("$nvcc" --version | tail -1))"
  exit 1
fi
echo "compile-anchors.sh: all ${#files[@]} anchors compile ($("$nvcc" --version | tail -1); cuBLASLt headers from $lt)"
