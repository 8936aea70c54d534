#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# The embedding benchmark, every column in one command, on a GPU host staged by
# scripts/gpu-embed-stage.sh (run from the repository root):
#
#   bash examples-embed/reference/bench.sh OUTDIR [EmbedBench options]
#
# 1. EmbedBench: for each of the three models, ours in fp32 and fp16 through the module and each
#    adapter (ingestion of the corpus, one query's p50/p99) and LangChain4j on the host's CPU cores,
#    with the check against LangChain4j;
# 2. TorchExport (a measurement tool of the embeddings module's tests): all-MiniLM-L6-v2's weights
#    as .npy and ours' embeddings of the corpus in both modes;
# 3. embeddings/reference/minilm_torch.py: BertModel fp32 against ours, sentence-transformers fp16
#    ingestion, and PyTorch's eager and CUDA-graph query latency (the lines of old logs); then
#    issue 39's anchors: sentence-transformers at batch 32 to 1024, the corpus' token-length
#    histogram, the best-effort fp16 BertModel pipeline (SDPA, the Rust batch tokenizer, sorted
#    batches of 256 to 1024, torch.compile with a time limit) and one query of EmbedBench's, eager
#    and as a CUDA graph per length bucket, fp16 and fp32, with and without tokenization (about
#    6 minutes on an H100; its limits are in its docstring).
# Each step's output goes to OUTDIR (embed-bench.log, torch-export.log, minilm-torch.log); steps 2
# and 3 run with EMBED_TORCH=1.
set -euo pipefail
out=${1:?usage: bench.sh OUTDIR [EmbedBench options]}
shift
mkdir -p "$out"
sentences=.gpu-embed/payload/sentences.txt
[ -f "$sentences" ] || { echo "bench.sh: no $sentences: stage with scripts/gpu-embed-stage.sh" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# RUST_FLAVOR: LangChain4j's models load DJL's tokenizer themselves, and on a GPU host DJL would try
# to download its CUDA build; the library asks for the CPU one.
run() { .gpu-embed/java -Dcuda.graph.provider=cuda -DRUST_FLAVOR=cpu "$@"; }
run cuda.graph.examples.embed.measure.EmbedBench --sentences "$sentences" "$@" 2>&1 | tee "$out/embed-bench.log"
# The PyTorch anchor (steps 2 and 3) only when asked for: EMBED_TORCH=1.
[ "${EMBED_TORCH:-0}" = 1 ] || exit 0
run cuda.graph.embeddings.internal.gpu.TorchExport "$work" --sentences "$sentences" --max 100000 2>&1 \
  | tee "$out/torch-export.log"
python3 embeddings/reference/minilm_torch.py "$work" 2>&1 | tee "$out/minilm-torch.log"
