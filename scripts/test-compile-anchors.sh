#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Tests scripts/compile-anchors.sh on anchors made for the purpose: it must fail, naming the file
# and quoting the compiler, on an anchor that calls an undeclared kernel, on a C probe with a type
# error and on an anchor with a warning, and pass on good ones (one of them including cublasLt.h
# and the decode kernels, as the matmul anchor does). One line per case; exits 1 on any failure.
#   bash scripts/test-compile-anchors.sh        (.ci/run runs it before compile-anchors.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/compile-anchors-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0

# expect CASE EXIT TEXT FILE...: compile-anchors.sh on FILE... exits EXIT and prints TEXT.
expect() {
  local name=$1 want=$2 text=$3 got=0 output
  shift 3
  output=$(bash "$root/scripts/compile-anchors.sh" "$@" 2>&1) || got=$?
  if [ "$got" = "$want" ] && grep -qF -- "$text" <<< "$output"; then
    echo "ok: $name"
  else
    echo "FAILED: $name (exit $got, wanted $want and '$text'); it printed:"
    sed 's/^/    /' <<< "$output"
    failures=$((failures + 1))
  fi
}

cat > "$tmp/renamed.cu" <<'EOF'
#include <cuda_runtime.h>
__global__ void scale_rows(float *y, int n) { if ((int)threadIdx.x < n) y[threadIdx.x] *= 2.f; }
int main() { scale(nullptr, 0); return 0; }
EOF
cat > "$tmp/wrong_type.c" <<'EOF'
#include <cuda.h>
int main(void) { CUdevice d; return cuDeviceGet(d, 0); }
EOF
cat > "$tmp/unused.cu" <<'EOF'
int main() { int unused = 1; return 0; }
EOF
cat > "$tmp/good.cu" <<'EOF'
#include <cublasLt.h>
#include "decode_kernels.cu"
int main() {
  cublasLtHandle_t lt;
  if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS) return 1;
  matvec_add<<<1, BLOCK, 2 * TILE_BYTES>>>(nullptr, nullptr, nullptr, 2, 8);
  return cublasLtDestroy(lt) == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}
EOF
cat > "$tmp/good.c" <<'EOF'
#include <cuda.h>
int main(void) { CUdevice d; return cuDeviceGet(&d, 0) == CUDA_SUCCESS ? 0 : 1; }
EOF

expect "a call of a kernel that is not declared fails" 1 'identifier "scale" is undefined' "$tmp/renamed.cu" "$tmp/good.cu"
expect "the failure names the file" 1 "DOES NOT COMPILE: $tmp/renamed.cu" "$tmp/renamed.cu"
expect "a C probe with a wrong argument type fails" 1 "DOES NOT COMPILE: $tmp/wrong_type.c" "$tmp/wrong_type.c"
expect "a warning fails" 1 "DOES NOT COMPILE: $tmp/unused.cu" "$tmp/unused.cu"
expect "good anchors pass, cuBLASLt and the decode kernels included" 0 "all 2 anchors compile" "$tmp/good.cu" "$tmp/good.c"

if [ "$failures" -gt 0 ]; then
  echo "test-compile-anchors.sh: $failures case(s) failed"
  exit 1
fi
echo "test-compile-anchors.sh: all cases passed"
