#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Issue 40, call 2 (the same warm machine): transformers' check of the engine's tokens (llm-check:
# anchors fp32 and bf16, then TransformersCheckGpuTests, the kernel and step tests), then
# transformers' compiled static-cache generate at batches 1-128 on the bench checkpoint.
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out" target
t0=$SECONDS
[ -x .gpu-llm/java ] || tar xzf .gpu-llm/pack.tgz
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $name"
case "$name" in *H200*) bw=4.8 ;; *) bw=3.35 ;; esac
OUT=$out timeout 330 scripts/gpu-run.sh llm-check
echo "llm-check done ($((SECONDS - t0)) s)"
M=/tmp/llama-bench-bf16
[ -f $M/expected.json ] || timeout 150 python3 -B llm/reference/make_checkpoint.py --out $M --dtype bfloat16 --new-tokens 8 > "$out/mk.log" 2>&1
left=$((570 - (SECONDS - t0)))
timeout $left python3 llm/reference/llm_torch.py --model $M --modes compile --limit-s 60 --budget-s $((left - 20)) \
  --bandwidth-tbs $bw > "$out/torch.log" 2>&1
echo "torch exit $? ($((SECONDS - t0)) s)"; grep -aE "^(decode|setup)" "$out/torch.log" | cut -c1-300
cd "$out" && tar czf logs-b.tgz *.log *.txt *.json 2>/dev/null; ls
