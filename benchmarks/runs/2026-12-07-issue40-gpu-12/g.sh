#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Issue 40: gemv_norm_rope1 (a step of one token doing RoPE and its cache writes inside its QKV product,
# six kernels a layer instead of seven) on a GPU: kernel and step tests, batch 1 with and without
# them (alternating; positions 512-575), then the transformers check with them.
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out" target
t0=$SECONDS
tar xzf .gpu-llm/pack.tgz
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $name"
case "$name" in *H200*) bw=4.8 ;; *) bw=3.35 ;; esac
M=/tmp/llama-bench-bf16
[ -f $M/expected.json ] || (timeout 150 python3 -B llm/reference/make_checkpoint.py --out $M --dtype bfloat16 --new-tokens 8 > "$out/mk.log" 2>&1) &
timeout 120 .gpu-llm/junit --disable-ansi-colors --select-class=cuda.graph.llm.internal.engine.LlmKernelsGpuTests \
  --select-class=cuda.graph.llm.internal.engine.BatchStepGpuTests > "$out/kernel-tests.log" 2>&1
echo "kernel and step tests exit $? ($((SECONDS - t0)) s)"
grep -aE "tests (successful|failed|aborted)|✘" "$out/kernel-tests.log" | head -12 | cut -c1-600
wait; echo "checkpoint ($((SECONDS - t0)) s)"
ab() { # name, context, steps, batches, then JVM flags
  local n=$1 c=$2 st=$3 b=$4; shift 4
  timeout 60 .gpu-llm/java -Dcuda.graph.provider=cuda "$@" cuda.graph.llm.bench.LlmBench --model $M --mode decode \
    --batches "$b" --context "$c" --steps "$st" --rounds 3 --bandwidth-tbs $bw --limit-s 20 > "$out/ab-$n.log" 2>&1
  echo "ab $n ($c, $st steps; $*): exit $? ($((SECONDS - t0)) s) $(grep -aE '^decode' "$out/ab-$n.log" | grep -oE 'batch=[0-9]+|tok_s=[0-9.]+|min=[0-9.]+|max=[0-9.]+' | paste -sd' ')"
}
for r in 1 2; do
  ab "$r-512-apart" 512 64 1,8 -Dcuda.graph.llm.ropeInProductOne=false
  ab "$r-512-fused" 512 64 1,8
done
LLM_CHECK_DTYPES="float32 bfloat16" scripts/gpu-run.sh llm-check
echo "total $((SECONDS - t0)) s"
cd "$out" && tar czf logs.tgz *.log *.json 2>/dev/null; rm -f *.log *.json; ls
