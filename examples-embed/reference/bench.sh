#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# The embedding benchmark, every column in one command, on a GPU host staged by
# scripts/gpu-embed-stage.sh (run from the repository root):
#
#   bash examples-embed/reference/bench.sh OUTDIR [EmbedBench options]
#
# 1. EmbedBench: ours in fp32 and fp16 (ingestion of the corpus, graphs, graph and eager query
#    latency) and LangChain4j on the host's CPU cores, with the check against LangChain4j;
# 2. TorchExport: the weights as .npy and ours' embeddings of the corpus in both modes;
# 3. minilm_torch.py: BertModel fp32 against ours, sentence-transformers fp16 ingestion, and
#    PyTorch's eager and CUDA-graph query latency.
# Each step's output goes to OUTDIR (embed-bench.log, torch-export.log, minilm-torch.log).
set -euo pipefail
out=${1:?usage: bench.sh OUTDIR [EmbedBench options]}
shift
mkdir -p "$out"
sentences=.gpu-embed/payload/sentences.txt
[ -f "$sentences" ] || { echo "bench.sh: no $sentences: stage with scripts/gpu-embed-stage.sh" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() { .gpu-embed/java -Dcuda.graph.provider=cuda "$@"; }
run cuda.graph.examples.embed.EmbedBench --sentences "$sentences" "$@" 2>&1 | tee "$out/embed-bench.log"
run cuda.graph.examples.embed.TorchExport "$work" --sentences "$sentences" --max 100000 2>&1 \
  | tee "$out/torch-export.log"
python3 examples-embed/reference/minilm_torch.py "$work" 2>&1 | tee "$out/minilm-torch.log"
