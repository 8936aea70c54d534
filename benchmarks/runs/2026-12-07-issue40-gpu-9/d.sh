#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Issue 40: gemv_stream1 beside the default at batch 1 (alternating), then the transformers check
# with gemv_stream1 at 4 blocks an SM.
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out" target
t0=$SECONDS
tar xzf .gpu-llm/pack.tgz
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $name"
case "$name" in *H200*) bw=4.8 ;; *) bw=3.35 ;; esac
M=/tmp/llama-bench-bf16
[ -f $M/expected.json ] || (timeout 150 python3 -B llm/reference/make_checkpoint.py --out $M --dtype bfloat16 --new-tokens 8 > "$out/mk.log" 2>&1) &
wait; echo "checkpoint ($((SECONDS - t0)) s)"
ab() { # name, then JVM flags
  local n=$1; shift
  timeout 40 .gpu-llm/java -Dcuda.graph.provider=cuda "$@" cuda.graph.llm.bench.LlmBench \
    --model $M --mode decode --batches 1,8 --rounds 3 --bandwidth-tbs $bw --limit-s 10 > "$out/ab-$n.log" 2>&1
  echo "ab $n ($*): exit $? ($((SECONDS - t0)) s) $(grep -aE '^decode' "$out/ab-$n.log" | grep -oE 'batch=[0-9]+|tok_s=[0-9.]+|min=[0-9.]+|max=[0-9.]+' | paste -sd' ')"
}
for r in 1 2; do
  for one in 0 4 6 8; do ab "$r-$one" -Dcuda.graph.llm.gemvOneBlocksPerSm=$one; done
done
JAVA_OPTS="-Dcuda.graph.llm.gemvOneBlocksPerSm=${CHECK_ONE:-4}" LLM_CHECK_DTYPES="float32 bfloat16" scripts/gpu-run.sh llm-check
echo "total $((SECONDS - t0)) s"
cd "$out" && tar czf logs.tgz *.log 2>/dev/null; ls
