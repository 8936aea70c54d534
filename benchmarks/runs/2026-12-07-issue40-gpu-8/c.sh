#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Issue 40: gemv_stream_silu on a GPU: kernel and step tests, batch 1 and 8 with and without it
# (alternating), then the transformers check.
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
wait; echo "checkpoints ($((SECONDS - t0)) s)"
ab() { # name, then JVM flags
  local n=$1; shift
  timeout 40 .gpu-llm/java -Dcuda.graph.provider=cuda "$@" cuda.graph.llm.bench.LlmBench \
    --model $M --mode decode --batches 1,8 --rounds 3 --bandwidth-tbs $bw --limit-s 10 > "$out/ab-$n.log" 2>&1
  echo "ab $n ($*): exit $? ($((SECONDS - t0)) s) $(grep -aE '^decode' "$out/ab-$n.log" | grep -oE 'batch=[0-9]+|tok_s=[0-9.]+|min=[0-9.]+|max=[0-9.]+' | paste -sd' ')"
}
ab 1-off -Dcuda.graph.llm.siluInProduct=false
ab 2-on
ab 3-off -Dcuda.graph.llm.siluInProduct=false
ab 4-on
cd "$out" && tar czf logs.tgz *.log 2>/dev/null; ls
