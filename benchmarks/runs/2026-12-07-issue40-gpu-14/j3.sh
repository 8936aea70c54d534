#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Call 3: main's llm module (the split target) with grouped attention's splits at batch 1 as a
# tuning (:sK): the kernel and step tests on the GPU, then LlmBench at batch 1 over 512-token
# contexts and over positions 2-255, the tunings side by side in one process. From the repository
# root with the pack unpacked (scripts/gpu-llm-pack.sh llm).
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out" target
t0=$SECONDS
tar xzf .gpu-llm/pack.tgz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$name" in *H200*) bw=4.8 ;; *) bw=3.35 ;; esac
M=/tmp/llama-bench-bf16
(timeout 200 python3 -B llm/reference/make_checkpoint.py --out $M --dtype bfloat16 --new-tokens 8 > "$out/mk.log" 2>&1) &
mk=$!
timeout 150 .gpu-llm/junit --disable-ansi-colors --select-class=cuda.graph.llm.internal.engine.LlmKernelsGpuTests \
  --select-class=cuda.graph.llm.internal.engine.BatchStepGpuTests > "$out/tests.log" 2>&1
echo "tests exit $? ($((SECONDS - t0)) s)"
grep -aE "tests (successful|failed|aborted)|✘" "$out/tests.log" | head -12 | cut -c1-700
wait $mk; echo "checkpoint exit $? ($((SECONDS - t0)) s)"
T=4:rope,4:rope:s8,4:rope:s4,4:inside,4:inside:s4
timeout 150 .gpu-llm/java -Dcuda.graph.provider=cuda cuda.graph.llm.bench.LlmBench --model $M --mode decode \
  --batches 1 --rounds 3 --bandwidth-tbs $bw --limit-s 30 --tunings $T > "$out/decode.log" 2>&1
echo "decode exit $? ($((SECONDS - t0)) s)"
grep -aE "^decode" "$out/decode.log" | grep -oE "tuning=[0-9a-z:]+|batch=[0-9]+|tok_s=[0-9.]+|min=[0-9.]+|max=[0-9.]+" | paste -d' ' - - - - -
timeout 150 .gpu-llm/java -Dcuda.graph.provider=cuda cuda.graph.llm.bench.LlmBench --model $M --mode decode \
  --batches 1 --context 2 --steps 254 --warmup 1 --rounds 3 --bandwidth-tbs $bw --limit-s 30 --tunings $T > "$out/like.log" 2>&1
echo "like-for-like exit $? ($((SECONDS - t0)) s)"
grep -aE "^decode" "$out/like.log" | grep -oE "tuning=[0-9a-z:]+|batch=[0-9]+|tok_s=[0-9.]+|min=[0-9.]+|max=[0-9.]+" | paste -d' ' - - - - -
grep -aE "Exception|Error" "$out/decode.log" "$out/like.log" | head -5
ls "$out"
