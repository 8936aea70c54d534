#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Issue 40: grouped attention rewritten (K/V tiles staged by cp.async, per-warp pipelines, the
# splits folded by the last one, the first tiles requested before the dependency wait) with
# gemv_norm_rope1 merged: kernel and step tests, the CUDA harness (att_old: main's kernel; att_new:
# this tree's), LlmBench decode at batches 1-128 (4:rope and 4:inside side by side), then
# transformers compiled on the same checkpoint in the time left.
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
(cd .gpu-llm/att && nvcc -O3 -arch=sm_90 -std=c++17 -o att_old att_bench.cu & nvcc -O3 -arch=sm_90 -std=c++17 -DNEW_KERNELS -o att_new att_bench.cu; wait) > "$out/att-nvcc.log" 2>&1 &
cc=$!
timeout 150 .gpu-llm/junit --disable-ansi-colors --select-class=cuda.graph.llm.internal.engine.LlmKernelsGpuTests \
  --select-class=cuda.graph.llm.internal.engine.BatchStepGpuTests > "$out/tests.log" 2>&1
echo "tests exit $? ($((SECONDS - t0)) s)"
grep -aE "tests (successful|failed|aborted)|✘" "$out/tests.log" | head -12 | cut -c1-700
wait $cc; echo "nvcc ($((SECONDS - t0)) s)"
for b in old new; do
  timeout 60 .gpu-llm/att/att_$b 100 > "$out/att-$b.log" 2>&1; echo "att_$b exit $? ($((SECONDS - t0)) s)"
  grep -a time "$out/att-$b.log" | cut -c1-150; grep -a check "$out/att-$b.log" | grep -v ' 0 outside' | head -4
done
wait $mk; echo "checkpoint exit $? ($((SECONDS - t0)) s)"
timeout 200 .gpu-llm/java -Dcuda.graph.provider=cuda cuda.graph.llm.bench.LlmBench --model $M --mode decode \
  --batches 1,8,32,64,128 --rounds 3 --bandwidth-tbs $bw --limit-s 30 --tunings 4:rope,4:inside > "$out/decode.log" 2>&1
echo "decode exit $? ($((SECONDS - t0)) s)"
grep -aE "^decode" "$out/decode.log" | grep -oE "tuning=[0-9a-z:]+|batch=[0-9]+|tok_s=[0-9.]+|min=[0-9.]+|max=[0-9.]+" | paste -d' ' - - - - -
grep -aE "Exception|Error" "$out/decode.log" | head -5
left=$((560 - (SECONDS - t0)))
if [ $left -gt 90 ]; then
  timeout $left python3 llm/reference/llm_torch.py --model $M --modes compile --batches 1,128 --rounds 3 --limit-s 60 \
    --budget-s $((left - 20)) --bandwidth-tbs $bw > "$out/torch.log" 2>&1
  echo "torch exit $? ($((SECONDS - t0)) s)"; grep -aE "^(decode|compile),|Error" "$out/torch.log" | head -8 | cut -c1-300
fi
ls "$out"
