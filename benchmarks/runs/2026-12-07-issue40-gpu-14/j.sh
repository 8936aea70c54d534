#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Issue 40: grouped attention's splits folded inside a thread block cluster (attention_grouped_cC)
# against attention_combine: the CUDA harness, the kernel and step tests on the GPU, then LlmBench
# decode with both folds in one process (--tunings), then the engine over positions 2-255 beside
# the decode example (like for like at batch 1). Run from the repository root with the pack
# unpacked (scripts/gpu-llm-pack.sh llm) and the decode example's classes in .gpu-llm/decode-classes.
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out" target
t0=$SECONDS
here=benchmarks/runs/2026-12-07-issue40-gpu-14
tar xzf .gpu-llm/pack.tgz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$name" in *H200*) bw=4.8 ;; *) bw=3.35 ;; esac
M=/tmp/llama-bench-bf16
(timeout 200 python3 -B llm/reference/make_checkpoint.py --out $M --dtype bfloat16 --new-tokens 8 > "$out/mk.log" 2>&1) &
mk=$!
(cd $here && nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/cluster_bench cluster_bench.cu) > "$out/nvcc.log" 2>&1 &
cc=$!
timeout 150 .gpu-llm/junit --disable-ansi-colors --select-class=cuda.graph.llm.internal.engine.LlmKernelsGpuTests \
  --select-class=cuda.graph.llm.internal.engine.BatchStepGpuTests > "$out/tests.log" 2>&1
echo "tests exit $? ($((SECONDS - t0)) s)"
grep -aE "tests (successful|failed|aborted)|✘" "$out/tests.log" | head -12 | cut -c1-700
wait $cc; echo "nvcc exit $? ($((SECONDS - t0)) s)"; head -5 "$out/nvcc.log"
timeout 90 /tmp/cluster_bench 100 > "$out/cluster.log" 2>&1; echo "harness exit $? ($((SECONDS - t0)) s)"
grep -a time "$out/cluster.log" | cut -c1-120; grep -a check "$out/cluster.log" | grep -v ' 0 outside' | head -4
wait $mk; echo "checkpoint exit $? ($((SECONDS - t0)) s)"
timeout 200 .gpu-llm/java -Dcuda.graph.provider=cuda cuda.graph.llm.bench.LlmBench --model $M --mode decode \
  --batches 1,8,16,32 --rounds 3 --bandwidth-tbs $bw --limit-s 30 \
  --tunings 4:rope:cluster,4:rope:combine > "$out/decode.log" 2>&1
echo "decode exit $? ($((SECONDS - t0)) s)"
grep -aE "^decode" "$out/decode.log" | grep -oE "tuning=[0-9a-z:]+|batch=[0-9]+|tok_s=[0-9.]+|min=[0-9.]+|max=[0-9.]+" | paste -d' ' - - - - -
grep -aE "Exception|Error" "$out/decode.log" | head -5
left=$((570 - (SECONDS - t0)))
if [ $left -gt 100 ]; then
  cp="$(ls .gpu-llm/cp/*.jar | tr '\n' :).gpu-llm/decode-classes"
  timeout 120 .gpu-llm/java -Dcuda.graph.provider=cuda -cp "$cp" cuda.graph.examples.decode.Decode \
    --model llama-3.2-1B --check-steps 1 --tokens 256 --reps 3 > "$out/example.log" 2>&1
  echo "example exit $? ($((SECONDS - t0)) s)"; grep -aE "graph\+pdl|while\+pdl|stream " "$out/example.log"
  timeout 150 .gpu-llm/java -Dcuda.graph.provider=cuda cuda.graph.llm.bench.LlmBench --model $M --mode decode \
    --batches 1 --context 2 --steps 254 --warmup 1 --rounds 3 --bandwidth-tbs $bw --limit-s 30 \
    --tunings 4:rope:cluster,4:inside:cluster > "$out/like.log" 2>&1
  echo "like-for-like exit $? ($((SECONDS - t0)) s)"
  grep -aE "^decode" "$out/like.log" | grep -oE "tuning=[0-9a-z:]+|batch=[0-9]+|tok_s=[0-9.]+|min=[0-9.]+|max=[0-9.]+" | paste -d' ' - - - - -
fi
ls "$out"
