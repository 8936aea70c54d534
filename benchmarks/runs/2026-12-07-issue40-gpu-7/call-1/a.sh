#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Issue 40, call 1: the kernel and step tests (argmax_parts, gemv_stream1, the fold of attention's
# splits, the fused products) on a GPU, then batch 1 and 8 with each change off and on, then every
# batch.
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out" target
t0=$SECONDS
tar xzf .gpu-llm/pack.tgz
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $name"
case "$name" in *H200*) bw=4.8 ;; *) bw=3.35 ;; esac
export LLM_BENCH_BANDWIDTH_TBS=$bw
LLM_SWEEP_ONE="0 6" OUT=$out timeout 300 scripts/gpu-run.sh llm-sweep
echo "sweep done ($((SECONDS - t0)) s)"
ab() { # name, then JVM flags
  local n=$1; shift
  timeout 40 .gpu-llm/java -Dcuda.graph.provider=cuda "$@" cuda.graph.llm.bench.LlmBench \
    --model /tmp/llama-bench-bf16 --mode decode --batches 1,8 --rounds 3 --bandwidth-tbs $bw --limit-s 10 > "$out/ab-$n.log" 2>&1
  echo "ab $n ($*): exit $? ($((SECONDS - t0)) s) $(grep -aE '^decode' "$out/ab-$n.log" | grep -oE 'batch=[0-9]+|tok_s=[0-9.]+|min=[0-9.]+|max=[0-9.]+' | paste -sd' ')"
}
ab 1-none -Dcuda.graph.llm.fuseMaxTokens=0 -Dcuda.graph.llm.foldAttentionSplits=false
ab 2-fold -Dcuda.graph.llm.fuseMaxTokens=0
ab 3-both
ab 4-none -Dcuda.graph.llm.fuseMaxTokens=0 -Dcuda.graph.llm.foldAttentionSplits=false
ab 5-both
timeout 150 .gpu-llm/java -Dcuda.graph.provider=cuda cuda.graph.llm.bench.LlmBench --model /tmp/llama-bench-bf16 \
  --mode decode --bandwidth-tbs $bw --limit-s 40 > "$out/decode-all.log" 2>&1
echo "decode exit $? ($((SECONDS - t0)) s)"; grep -aE "^(setup|decode|graphs),|Exception|Error" "$out/decode-all.log" | head -20 | cut -c1-300
cd "$out" && tar czf logs.tgz *.log *.txt 2>/dev/null; ls
