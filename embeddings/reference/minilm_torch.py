# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
"""The PyTorch anchor of the embedding example, from the same weights.

Reads what TorchExport wrote (the weights as .npy under transformers' BertModel names, the
artifact's tokenizer.json, the sentences and this library's embeddings of them), then
  check: BertModel in fp32 on the GPU with mean pooling and L2 normalisation, as
         all-MiniLM-L6-v2 defines them; every sentence's cosine to ours in the fp32 mode (at least
         0.99999) and in the fp16 mode (at least 0.9995), and the norm of ours 1 within 1e-5;
         NaN fails (floor_check.py);
  bench: sentence-transformers built from those modules (Transformer, Pooling mean, Normalize) in
         fp16, encode() with its default batching: sentences per second, tokenization included;
         and the latency of one sentence of 8 to 32 tokens: PyTorch eager fp16, and a CUDA graph
         of the same model at that sentence's padded shape.

Run: python3 minilm_torch.py DIR   (on the GPU host; nothing is downloaded)
"""
import json
import os
import statistics
import sys
import tempfile
import time

import numpy as np
import torch
from tokenizers import Tokenizer
from transformers import BertConfig, BertModel

from floor_check import FloorCheck, worst  # beside this script

dev = "cuda"


def load_model(d):
    config = BertConfig(vocab_size=30522, hidden_size=384, num_hidden_layers=6,
                        num_attention_heads=12, intermediate_size=1536,
                        max_position_embeddings=512, type_vocab_size=2, layer_norm_eps=1e-12,
                        hidden_act="gelu", add_pooling_layer=False)
    model = BertModel(config, add_pooling_layer=False)
    state = {}
    for name in model.state_dict():
        path = os.path.join(d, name + ".npy")
        if os.path.exists(path):
            state[name] = torch.from_numpy(np.load(path))
    missing = [n for n in model.state_dict() if n not in state and "position_ids" not in n]
    if missing:
        raise SystemExit(f"weights missing from {d}: {missing[:5]}")
    model.load_state_dict(state, strict=False)
    return config, model.to(dev).eval()


def embed(model, tokenizer, texts, dtype):
    enc = tokenizer.encode_batch(texts)
    width = max(len(e.ids) for e in enc)
    ids = torch.zeros(len(texts), width, dtype=torch.long)
    mask = torch.zeros(len(texts), width, dtype=torch.long)
    for i, e in enumerate(enc):
        ids[i, : len(e.ids)] = torch.tensor(e.ids)
        mask[i, : len(e.ids)] = 1
    ids, mask = ids.to(dev), mask.to(dev)
    with torch.no_grad(), torch.autocast("cuda", dtype=dtype, enabled=dtype != torch.float32):
        out = model(input_ids=ids, attention_mask=mask, token_type_ids=torch.zeros_like(ids))
        h = out.last_hidden_state.float()
        m = mask.unsqueeze(-1).float()
        pooled = (h * m).sum(1) / m.sum(1).clamp(min=1e-9)
        return torch.nn.functional.normalize(pooled, dim=1)


def main():
    d = sys.argv[1]
    sentences = open(os.path.join(d, "sentences.txt"), encoding="utf-8").read().split("\n")
    sentences = [s for s in sentences if s]
    ours = torch.from_numpy(np.load(os.path.join(d, "ours.npy"))).to(dev)
    tokenizer = Tokenizer.from_file(os.path.join(d, "tokenizer.json"))
    # The file pads every text to 128; LangChain4j (and ours) turn that off and pad per batch.
    tokenizer.no_padding()
    config, model = load_model(d)
    print(f"# torch {torch.__version__} on {torch.cuda.get_device_name()}: {len(sentences)} sentences")

    # check, fp32 BertModel against our fp32 and fp16 modes, batches of 64: the worst cosine and
    # the worst norm of ours, NaN failing both (floor_check.py; `if m < worst` passed NaN)
    ours_fp16_path = os.path.join(d, "ours_fp16.npy")
    ours16 = torch.from_numpy(np.load(ours_fp16_path)).to(dev) if os.path.exists(ours_fp16_path) else None
    checks = {"fp32": FloorCheck(0.99999), "fp16": FloorCheck(0.9995)}
    for i in range(0, len(sentences), 64):
        e = embed(model, tokenizer, sentences[i : i + 64], torch.float32)
        for mode, mine in (("fp32", ours), ("fp16", ours16)):
            if mine is None:
                continue
            m = mine[i : i + 64]
            cos = torch.nn.functional.cosine_similarity(e, m, dim=1)
            checks[mode].add(cos.tolist(), m.norm(dim=1).tolist(), offset=i)
    for mode in ("fp32", "fp16"):
        if mode == "fp16" and ours16 is None:
            continue
        print(f"check,bertmodel_fp32_vs_ours_{mode},sentences,{len(sentences)},{checks[mode].columns()}")

    # sentence-transformers, fp16, its default batching
    try:
        from sentence_transformers import SentenceTransformer, models
        with tempfile.TemporaryDirectory() as tmp:
            model.save_pretrained(tmp)
            tok = json.load(open(os.path.join(d, "tokenizer.json")))
            with open(os.path.join(tmp, "tokenizer.json"), "w") as f:
                json.dump(tok, f)
            with open(os.path.join(tmp, "tokenizer_config.json"), "w") as f:
                json.dump({"tokenizer_class": "BertTokenizerFast", "do_lower_case": True,
                           "model_max_length": 128}, f)
            word = models.Transformer(tmp, max_seq_length=128)
            st = SentenceTransformer(modules=[word, models.Pooling(384, "mean"), models.Normalize()],
                                     device=dev)
            st.half()
            st.encode(sentences[:256])
            torch.cuda.synchronize()
            t = time.perf_counter()
            e = st.encode(sentences, convert_to_tensor=True)
            torch.cuda.synchronize()
            secs = time.perf_counter() - t
            cos, _ = worst(torch.nn.functional.cosine_similarity(e.float(), ours, dim=1).tolist())
            print(f"ingestion,sentence_transformers_fp16,{len(sentences)},sentences,{secs:.3f},s,"
                  f"{len(sentences) / secs:.1f},sentences_per_s,worst_cosine_to_ours,{cos:.6f}")
    except Exception as ex:  # reported, not hidden: the row says why it is missing
        print(f"ingestion,sentence_transformers_fp16,failed,{type(ex).__name__}: {ex}")

    # query latency, one sentence of 8 to 32 tokens
    queries = [s for s in sentences if 8 <= len(tokenizer.encode(s).ids) <= 32][:200]
    half = model.half()
    def timed(fn, n=2000):
        for k in range(100):
            fn(queries[k % len(queries)])
        us = []
        for k in range(n):
            t = time.perf_counter()
            fn(queries[k % len(queries)])
            us.append((time.perf_counter() - t) * 1e6)
        us.sort()
        return us[len(us) // 2], us[int(0.99 * (len(us) - 1))]

    def eager(s):
        embed(half, tokenizer, [s], torch.float32).cpu()
    p50, p99 = timed(eager)
    print(f"query_latency_us,torch_eager_fp16,p50,{p50:.1f},p99,{p99:.1f}")

    # a CUDA graph of the fp16 model at a 32-token padded shape
    static_ids = torch.zeros(1, 32, dtype=torch.long, device=dev)
    static_mask = torch.zeros(1, 32, dtype=torch.long, device=dev)
    static_types = torch.zeros_like(static_ids)
    def forward():
        h = half(input_ids=static_ids, attention_mask=static_mask,
                 token_type_ids=static_types).last_hidden_state.float()
        m = static_mask.unsqueeze(-1).float()
        return torch.nn.functional.normalize((h * m).sum(1) / m.sum(1).clamp(min=1e-9), dim=1)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s), torch.no_grad():
        for _ in range(3):
            forward()
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph), torch.no_grad():
        static_out = forward()
    def graphed(text):
        e = tokenizer.encode(text)
        ids = torch.zeros(1, 32, dtype=torch.long)
        mask = torch.zeros(1, 32, dtype=torch.long)
        ids[0, : len(e.ids)] = torch.tensor(e.ids)
        mask[0, : len(e.ids)] = 1
        static_ids.copy_(ids, non_blocking=True)
        static_mask.copy_(mask, non_blocking=True)
        graph.replay()
        static_out.cpu()
    p50, p99 = timed(graphed)
    print(f"query_latency_us,torch_cuda_graph_fp16,p50,{p50:.1f},p99,{p99:.1f}")


if __name__ == "__main__":
    main()
