#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Issue 40: the engine at batch 1 beside the decode example on one machine, at the same positions
# (the example decodes from position 0; the engine prefills --context tokens first): positions
# 1-256 against the example's 0-255 (its benchmark), 1-510 against 0-510, and the issue's 512-token
# context.
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out" target
t0=$SECONDS
tar xzf .gpu-llm/pack.tgz
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $name"
case "$name" in *H200*) bw=4.8 ;; *) bw=3.35 ;; esac
M=/tmp/llama-bench-bf16
[ -f $M/expected.json ] || (timeout 150 python3 -B llm/reference/make_checkpoint.py --out $M --dtype bfloat16 --new-tokens 8 > "$out/mk.log" 2>&1) &
cp=$(ls .gpu-llm/cp/*.jar | tr '\n' ':').gpu-llm/decode-classes
dec() { # tokens, log
  timeout 150 .gpu-llm/jre/bin/java --enable-native-access=ALL-UNNAMED -cp "$cp" -Dcuda.graph.provider=cuda \
    cuda.graph.examples.decode.Decode --model llama-3.2-1B --check-steps 1 --tokens "$1" --reps 3 > "$out/$2" 2>&1
  echo "decode example, $1 tokens: exit $? ($((SECONDS - t0)) s)"; grep -aiE "tok/s|mode|check" "$out/$2" | head -14 | cut -c1-300
}
ours() { # context, steps, log
  timeout 90 .gpu-llm/java -Dcuda.graph.provider=cuda cuda.graph.llm.bench.LlmBench --model $M --mode decode \
    --batches 1 --context "$1" --steps "$2" --warmup 8 --rounds 3 --bandwidth-tbs $bw --limit-s 30 > "$out/$3" 2>&1
  echo "ours, context $1, $2 steps: exit $? ($((SECONDS - t0)) s) $(grep -aE '^decode' "$out/$3" | grep -oE 'batch=[0-9]+|tok_s=[0-9.]+|min=[0-9.]+|max=[0-9.]+|step_ms=[0-9.]+' | paste -sd' ')"
}
dec 256 decode-256-a.log
wait; echo "checkpoint ($((SECONDS - t0)) s)"
ours 1 256 ours-1-256-a.log
ours 512 64 ours-512-64-a.log
dec 511 decode-511.log
ours 1 510 ours-1-510.log
ours 1 256 ours-1-256-b.log
dec 256 decode-256-b.log
echo "total $((SECONDS - t0)) s"
cd "$out" && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log; ls
