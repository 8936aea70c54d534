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
Those lines are as they were (old logs stay comparable). Issue 39's anchors follow, each line
with its settings:
  st_ingestion            sentence-transformers encode() in fp16 at its default batch (32) and at
                          64 to 1024, and the best of them;
  token_length_histogram  the corpus' token lengths (special tokens included, untruncated);
  torch_tokenize          the Rust tokenizer alone: encode_batch (all cores), encode (one thread);
  torch_ingestion         the best-effort pipeline: fp16 BertModel with SDPA attention, the Rust
                          batch tokenizer, sentences sorted by length, batches of 256, 512 and
                          1024, mean pooling and L2 normalisation, embeddings back on the host;
                          three ways of feeding the GPU, and torch.compile (in a child process
                          with a time limit; a failure is reported as such);
  torch_query_us          one query (EmbedBench's: the first 200 sentences of 6 to 24 words),
                          p50/p99 over 2,000 calls after 200 to warm up: eager (unpadded) and a
                          CUDA graph per padded length bucket (16, 32, 64, 128, as GpuEncoder
                          pads), fp16 and fp32, with and without tokenization; and the graph
                          over the latency target's queries alone (8 to 32 tokens).

Run: python3 minilm_torch.py DIR   (on the GPU host; nothing is downloaded)
     python3 minilm_torch.py DIR --random-query   (the query lines only, on random weights of
         the model's sizes, where the model cannot travel: DIR holds tokenizer.json and
         sentences.txt; time depends on the sizes, not the values)
Limits (seconds, environment): TORCH_COMPILE_LIMIT_S (150), ST_SWEEP_LIMIT_S (120); QUERY_CALLS
(2000).
"""
import gc
import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from itertools import chain

HERE = os.path.dirname(os.path.abspath(__file__))
# floor_check.py, FloorCheck.java's twin, lives with examples-embed's reference scripts; this
# script moved here without it (issue 37) and could no longer import it.
sys.path.insert(1, os.path.join(HERE, "..", "..", "examples-embed", "reference"))

import numpy as np  # noqa: E402
import torch  # noqa: E402
from tokenizers import Tokenizer  # noqa: E402
from transformers import BertConfig, BertModel  # noqa: E402

import anchor_plan as plan  # noqa: E402  (beside this script)
from floor_check import FloorCheck, worst  # noqa: E402

dev = "cuda"
HIDDEN = 384
RANDOM = False  # --random-query: the model's sizes with transformers' initialisation
USAGE = ("usage: python3 minilm_torch.py DIR   (DIR: what TorchExport wrote: the weights as .npy, "
         "tokenizer.json, sentences.txt, ours.npy, ours_fp16.npy)")


def load_model(d, attn=None):
    """BertModel of all-MiniLM-L6-v2 from DIR's .npy weights, in fp32 on the GPU; `attn` asks for
    an attention implementation (None: transformers' default, as the check always ran)."""
    kwargs = dict(vocab_size=30522, hidden_size=HIDDEN, num_hidden_layers=6,
                  num_attention_heads=12, intermediate_size=1536,
                  max_position_embeddings=512, type_vocab_size=2, layer_norm_eps=1e-12,
                  hidden_act="gelu", add_pooling_layer=False)
    if attn is not None:
        kwargs["attn_implementation"] = attn
    config = BertConfig(**kwargs)
    if RANDOM:
        torch.manual_seed(39)  # the same weights for each precision's copy
    model = BertModel(config, add_pooling_layer=False)
    if RANDOM:
        return config, model.to(dev).eval()
    if attn is not None and attention_of(model) != attn and hasattr(model, "set_attn_implementation"):
        model.set_attn_implementation(attn)  # transformers versions that ignore the config's
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


def attention_of(model):
    """The attention implementation transformers runs (printed with each line that uses it)."""
    return getattr(model.config, "_attn_implementation", None) or "unknown"


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


def pool(hidden, mask):
    """Mean pooling over the mask and L2 normalisation (sentence-transformers' Pooling "mean" and
    Normalize): the masked sum as one batched product (fp32 accumulation in the GEMM), the rest in
    fp32."""
    summed = torch.bmm(mask.to(hidden.dtype).unsqueeze(1), hidden).squeeze(1).float()
    count = mask.sum(1, keepdim=True).clamp(min=1).float()
    return torch.nn.functional.normalize(summed / count, dim=1)


def cosine_columns(emb, ours, name):
    """worst_cosine_to_NAME,W,at,I: the worst cosine of `emb` (host or device) to ours."""
    if ours is None:
        return f"worst_cosine_to_{name},absent"
    e = torch.as_tensor(emb).to(dev).float()
    cos = torch.nn.functional.cosine_similarity(e, ours[: e.shape[0]], dim=1)
    w, at = worst(cos.tolist())
    return f"worst_cosine_to_{name},{w:.6f},at,{at}"


def old_sections(d, sentences, tokenizer, ours, ours16):
    """The check, sentence-transformers at its default batch (now with the sweep) and the query
    latencies, their lines as before."""
    config, model = load_model(d)
    print(f"# torch {torch.__version__} on {torch.cuda.get_device_name()}: {len(sentences)} sentences")

    # check, fp32 BertModel against our fp32 and fp16 modes, batches of 64: the worst cosine and
    # the worst norm of ours, NaN failing both (floor_check.py; `if m < worst` passed NaN)
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
    section("check")

    # sentence-transformers, fp16, its default batching; then the sweep of batch sizes
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
            try:
                st_sweep(st, sentences, ours, secs, e)
            except Exception as ex:  # the default batch's line above stands
                print(f"st_ingestion,fp16,failed,{type(ex).__name__}: {ex}")
    except Exception as ex:  # reported, not hidden: the row says why it is missing
        print(f"ingestion,sentence_transformers_fp16,failed,{type(ex).__name__}: {ex}")
    section("sentence-transformers")

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
    section("old query latency")


# sentence-transformers ---------------------------------------------------------------------

ST_BATCHES = (64, 128, 256, 512, 1024)


def st_sweep(st, sentences, ours, default_secs, default_emb):
    """encode() in fp16 at its default batch (the measurement above) and at each of ST_BATCHES,
    every one over the whole corpus, within ST_SWEEP_LIMIT_S; then the best."""
    n = len(sentences)
    inner = getattr(st[0], "auto_model", None)
    attn = attention_of(inner) if inner is not None else "unknown"
    tail = f"attn,{attn},convert_to_tensor,true,sorted_by,characters"
    rates = {32: n / default_secs}
    print(f"st_ingestion,fp16,batch,32,{n},sentences,{default_secs:.3f},s,{n / default_secs:.1f},"
          f"sentences_per_s,default_batch,{cosine_columns(default_emb, ours, 'ours_fp32')},{tail}")
    limit = float(os.environ.get("ST_SWEEP_LIMIT_S", "120"))
    started = time.perf_counter()
    for b in ST_BATCHES:
        spent = time.perf_counter() - started
        if spent > limit:
            print(f"st_ingestion,fp16,batch,{b},skipped,the sweep's {limit:.0f} s (ST_SWEEP_LIMIT_S) "
                  f"were spent after {spent:.0f} s")
            continue
        st.encode(sentences[: 2 * b], batch_size=b)  # warm-up at this batch's shapes
        torch.cuda.synchronize()
        t = time.perf_counter()
        e = st.encode(sentences, batch_size=b, convert_to_tensor=True)
        torch.cuda.synchronize()
        secs = time.perf_counter() - t
        rates[b] = n / secs
        print(f"st_ingestion,fp16,batch,{b},{n},sentences,{secs:.3f},s,{n / secs:.1f},sentences_per_s,"
              f"{cosine_columns(e, ours, 'ours_fp32')},{tail}")
        del e
    best = max(rates, key=rates.get)
    print(f"st_ingestion_best,fp16,batch,{best},{rates[best]:.1f},sentences_per_s,"
          f"{rates[best] / rates[32]:.2f},x_default_batch_32,batches_measured,"
          f"{'/'.join(str(b) for b in rates)}")


# the best-effort pipeline -----------------------------------------------------------------

VARIANTS = (
    # every text tokenized up front (encode_batch, all cores), sorted by tokens, one thread
    "tokenize_all_sort_tokens_serial",
    # the same, a thread packing batch n+1 into pinned memory while the GPU runs batch n
    "tokenize_all_sort_tokens_prep_thread",
    # sorted by characters (as sentence-transformers sorts), a thread tokenizing and packing
    # batch n+1 while the GPU runs batch n: tokenization overlapped with the GPU
    "sort_chars_tokenize_thread",
)
PIPELINE_BATCHES = (256, 512, 1024)


def pack(encodings):
    """Pinned [2, B, W] int64: the ids, padded with 0 to the longest, and the attention mask."""
    rows = [e.ids for e in encodings]
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    width = int(lengths.max())
    both = np.zeros((2, len(rows), width), dtype=np.int64)
    mask = np.arange(width) < lengths[:, None]
    both[0][mask] = np.fromiter(chain.from_iterable(rows), dtype=np.int64, count=int(lengths.sum()))
    both[1] = mask
    return torch.from_numpy(both).pin_memory()


def run_pipeline(model, tokenizer, sentences, batch, variant):
    """Embeds every sentence, tokenization and the copy back to the host included; returns
    (seconds, embeddings [n, 384] fp32 in corpus order, order, runs)."""
    threaded = variant != "tokenize_all_sort_tokens_serial"
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    if variant.startswith("tokenize_all"):
        enc = tokenizer.encode_batch(sentences)
        order, runs = plan.sorted_batches([len(e) for e in enc], batch)
        def make(start, end):
            return pack([enc[i] for i in order[start:end]])
    elif variant == "sort_chars_tokenize_thread":
        order, runs = plan.sorted_batches([len(s) for s in sentences], batch)
        def make(start, end):
            return pack(tokenizer.encode_batch([sentences[i] for i in order[start:end]]))
    else:
        raise ValueError(f"run_pipeline: unknown variant {variant}; one of {VARIANTS}")
    out = torch.empty((len(sentences), HIDDEN), dtype=torch.float32, pin_memory=True)
    if threaded:
        ready = queue.Queue(maxsize=3)
        def produce():
            try:
                for start, end in runs:
                    ready.put((start, end, make(start, end)))
            except BaseException as ex:  # the consumer raises it
                ready.put(ex)
        threading.Thread(target=produce, daemon=True).start()
        items = (ready.get() for _ in runs)
    else:
        items = ((start, end, make(start, end)) for start, end in runs)
    with torch.inference_mode():
        for item in items:
            if isinstance(item, BaseException):
                raise item
            start, end, host = item
            both = host.to(dev, non_blocking=True)
            hidden = model(input_ids=both[0], attention_mask=both[1]).last_hidden_state
            out[start:end].copy_(pool(hidden, both[1]), non_blocking=True)
    torch.cuda.synchronize()
    emb = np.empty((len(sentences), HIDDEN), dtype=np.float32)
    emb[np.asarray(order)] = out.numpy()
    return time.perf_counter() - t0, emb, order, runs


def pipeline_line(variant, batch, n, secs, emb, ours16, tok_lengths, order, runs, attn, extra=""):
    padded = plan.padded_tokens(tok_lengths, order, runs)
    real = sum(tok_lengths)
    return (f"torch_ingestion,{variant},{batch},{n},sentences,{secs:.3f},s,{n / secs:.1f},"
            f"sentences_per_s,fp16,attn,{attn},tokenizer,rust_encode_batch,"
            f"padded_tokens,{padded},real_tokens,{real},{cosine_columns(emb, ours16, 'ours_fp16')}"
            f"{extra}")


def pipeline_section(d, sentences, tokenizer, ours16, tok_lengths):
    """Each variant at each batch size after a warm-up pass at that size; then the best."""
    _, model = load_model(d, attn="sdpa")
    model.half()
    attn = attention_of(model)
    n = len(sentences)
    rates = {}
    for batch in PIPELINE_BATCHES:
        run_pipeline(model, tokenizer, sentences, batch, VARIANTS[1])  # warm-up
        for variant in VARIANTS:
            secs, emb, order, runs = run_pipeline(model, tokenizer, sentences, batch, variant)
            rates[(variant, batch)] = n / secs
            print(pipeline_line(variant, batch, n, secs, emb, ours16, tok_lengths, order, runs, attn))
    (variant, batch), rate = max(rates.items(), key=lambda kv: kv[1])
    print(f"torch_ingestion_best,{variant},{batch},{n},sentences,{rate:.1f},sentences_per_s,fp16,"
          f"attn,{attn}")
    section("pipeline")
    return model, variant, batch


def compiled_child(d, batch, variant):
    """In the child process: torch.compile of the fp16 model, a first pass (compilation included,
    reported), then the timed pass."""
    sentences, tokenizer = read_inputs(d)
    ours16 = load_ours(d, "ours_fp16.npy")
    _, model = load_model(d, attn="sdpa")
    model.half()
    attn = attention_of(model)
    t = time.perf_counter()
    compiled = torch.compile(model, dynamic=True)
    run_pipeline(compiled, tokenizer, sentences, batch, variant)
    first = time.perf_counter() - t
    secs, emb, order, runs = run_pipeline(compiled, tokenizer, sentences, batch, variant)
    tok_lengths = truncated_lengths(tokenizer, sentences)
    print(pipeline_line("compiled_" + variant, batch, len(sentences), secs, emb, ours16, tok_lengths,
                        order, runs, attn,
                        f",torch_compile,dynamic,first_pass_with_compilation_s,{first:.1f}"),
          flush=True)


def compiled_section(d, batch, variant):
    """torch.compile in a child process of its own session, killed with its compile workers when
    TORCH_COMPILE_LIMIT_S runs out: a failure or a timeout is a line that says so."""
    limit = float(os.environ.get("TORCH_COMPILE_LIMIT_S", "150"))
    name = "compiled_" + variant
    cmd = [sys.executable, os.path.abspath(__file__), d, "--compiled-ingestion", str(batch), variant]
    child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             start_new_session=True)
    try:
        out, _ = child.communicate(timeout=limit)
        why = None if child.returncode == 0 else f"exit status {child.returncode}"
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        out, _ = child.communicate()
        why = f"not done within {limit:.0f} s (TORCH_COMPILE_LIMIT_S): killed"
    try:
        os.killpg(child.pid, signal.SIGKILL)  # compile workers the child left behind
    except (ProcessLookupError, PermissionError):
        pass
    lines = out.splitlines()
    results = [line for line in lines if line.startswith("torch_ingestion,")]
    for line in results:
        print(line)
    if why is None and not results:
        why = "no result line"
    if why is not None:
        last = next((line for line in reversed(lines) if line.strip()), "no output")
        print(f"torch_ingestion,{name},{batch},failed,{why},last_line,{last.replace(',', ';')}")
        for line in lines[-25:]:
            print(f"# torch.compile child: {line}")
    section("torch.compile")


# one query ---------------------------------------------------------------------------------

class BucketGraph:
    """One CUDA graph of the model at [1, length]: static ids and mask on the device, filled from
    one pinned host buffer by one copy; the pooled, normalised embedding back into pinned memory."""

    def __init__(self, model, length):
        self.length = length
        self.inputs = torch.zeros(2, 1, length, dtype=torch.long, device=dev)
        self.types = torch.zeros(1, length, dtype=torch.long, device=dev)
        self.host = torch.zeros(2, 1, length, dtype=torch.long, pin_memory=True)
        self.host_np = self.host.numpy()
        self.result = torch.empty(1, HIDDEN, dtype=torch.float32, pin_memory=True)
        # Warm up with padding in the mask, so that the masked path capture records is the one
        # that already ran.
        self.inputs[1, 0, : max(1, length // 2)] = 1

        def forward():
            ids, mask = self.inputs[0], self.inputs[1]
            h = model(input_ids=ids, attention_mask=mask, token_type_ids=self.types).last_hidden_state
            return pool(h, mask)

        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side), torch.no_grad():
            for _ in range(3):
                forward()
        torch.cuda.current_stream().wait_stream(side)
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph), torch.no_grad():
            self.out = forward()

    def fill(self, ids, into):
        n = len(ids)
        into[0, 0, :n] = ids
        into[0, 0, n:] = 0
        into[1, 0, :n] = 1
        into[1, 0, n:] = 0

    def run(self, host):
        self.inputs.copy_(host, non_blocking=True)
        self.graph.replay()
        self.result.copy_(self.out, non_blocking=True)
        torch.cuda.current_stream().synchronize()
        return self.result


def timed_calls(fn, count, calls, warmup):
    """EmbedBench.timed: `warmup` calls, then `calls` timed ones (the garbage collector paused),
    p50 and p99 in microseconds."""
    for k in range(warmup):
        fn(k % count)
    gc.collect()
    gc.disable()
    try:
        us = []
        for k in range(calls):
            t = time.perf_counter_ns()
            fn(k % count)
            us.append((time.perf_counter_ns() - t) / 1e3)
    finally:
        gc.enable()
    return plan.percentiles(us)


def query_section(d, sentences, tokenizer, model16):
    queries = plan.select_queries(sentences)
    if not queries:
        print("torch_query_us,failed,no sentence of 6 to 24 words in the corpus")
        return
    token_ids = [tokenizer.encode(q).ids for q in queries]
    lengths = [len(ids) for ids in token_ids]
    calls = int(os.environ.get("QUERY_CALLS", "2000"))
    warmup = max(200, len(queries))  # every query, so every bucket's graph, once before timing
    common = (f"calls,{calls},warmup,{warmup},queries,{len(queries)},words,"
              f"{plan.QUERY_MIN_WORDS}-{plan.QUERY_MAX_WORDS},tokens,{min(lengths)}-{max(lengths)}")
    _, model32 = load_model(d, attn="sdpa")
    # "highest": fp32 matmuls without TF32 (the fp32 lines say which they ran)
    precision32 = torch.get_float32_matmul_precision()
    host_ids = torch.zeros(1, max(lengths), dtype=torch.long, pin_memory=True)
    host_ids_np = host_ids.numpy()
    result = torch.empty(1, HIDDEN, dtype=torch.float32, pin_memory=True)
    pre_ids = [torch.tensor([ids], dtype=torch.long).pin_memory() for ids in token_ids]
    eager_out = {}

    for dtype, model in (("fp16", model16), ("fp32", model32)):
        settings = f"attn,{attention_of(model)}"
        if dtype == "fp32":
            settings += f",float32_matmul_precision,{precision32}"

        # eager: the query unpadded (one text needs no mask), mean over its tokens
        def eager_on(dev_ids):
            with torch.no_grad():
                h = model(input_ids=dev_ids).last_hidden_state
                e = torch.nn.functional.normalize(h.float().mean(1), dim=1)
                result.copy_(e, non_blocking=True)
            torch.cuda.current_stream().synchronize()
            return result

        def eager(k):
            ids = tokenizer.encode(queries[k]).ids
            host_ids_np[0, : len(ids)] = ids
            return eager_on(host_ids[:, : len(ids)].to(dev, non_blocking=True))

        def eager_pretokenized(k):
            return eager_on(pre_ids[k].to(dev, non_blocking=True))

        eager_out[dtype] = torch.stack([eager(k)[0].clone() for k in range(len(queries))])
        for mode, fn, tok in (("eager", eager, "included"),
                              ("eager_no_tokenization", eager_pretokenized, "excluded")):
            p50, p99 = timed_calls(fn, len(queries), calls, warmup)
            print(f"torch_query_us,{mode},{dtype},p50,{p50:.1f},p99,{p99:.1f},{common},"
                  f"shape,1xtokens_unpadded,tokenization,{tok},copies,pinned_h2d+d2h,{settings}")

        # a CUDA graph per length bucket the queries pad to
        try:
            graphs = {b: BucketGraph(model, b)
                      for b in sorted({plan.cover(plan.LENGTH_BUCKETS, n) for n in lengths})}
        except Exception as ex:  # reported, not hidden
            print(f"torch_query_us,cuda_graph,{dtype},failed,capture,{type(ex).__name__}: {ex}")
            continue
        pick = [graphs[plan.cover(plan.LENGTH_BUCKETS, n)] for n in lengths]
        pre_filled = []
        for g, ids in zip(pick, token_ids):
            host = torch.zeros(2, 1, g.length, dtype=torch.long, pin_memory=True)
            g.fill(ids, host.numpy())
            pre_filled.append(host)

        def graphed(k):
            g = pick[k]
            g.fill(tokenizer.encode(queries[k]).ids, g.host_np)
            return g.run(g.host)

        def graphed_pretokenized(k):
            return pick[k].run(pre_filled[k])

        mine = torch.stack([graphed(k)[0].clone() for k in range(len(queries))])
        cos = torch.nn.functional.cosine_similarity(mine, eager_out[dtype], dim=1).tolist()
        w, at = worst(cos)
        print(f"torch_query_check,cuda_graph_{dtype}_vs_eager_{dtype},queries,{len(queries)},"
              f"worst_cosine,{w:.6f},at,{at}")
        buckets = plan.bucket_columns(lengths)
        for mode, fn, tok in (("cuda_graph", graphed, "included"),
                              ("cuda_graph_no_tokenization", graphed_pretokenized, "excluded")):
            p50, p99 = timed_calls(fn, len(queries), calls, warmup)
            print(f"torch_query_us,{mode},{dtype},p50,{p50:.1f},p99,{p99:.1f},{common},"
                  f"buckets,{buckets},tokenization,{tok},copies,pinned_h2d+d2h,{settings}")
        # the latency target's queries alone (8 to 32 tokens), tokenization included
        target = plan.target_queries(lengths)
        if target:
            p50, p99 = timed_calls(lambda j: graphed(target[j]), len(target), calls, warmup)
            print(f"torch_query_us,cuda_graph_8_32_tokens,{dtype},p50,{p50:.1f},p99,{p99:.1f},"
                  f"calls,{calls},warmup,{warmup},queries,{len(target)},"
                  f"tokens,{plan.TARGET_MIN_TOKENS}-{plan.TARGET_MAX_TOKENS},"
                  f"tokenization,included,copies,pinned_h2d+d2h,{settings}")
        else:
            print(f"torch_query_us,cuda_graph_8_32_tokens,{dtype},failed,no query of 8-32 tokens")
        del graphs, pick, pre_filled
    section("query latency")


# inputs, the histogram and the tokenizer alone -------------------------------------------

def read_inputs(d):
    with open(os.path.join(d, "sentences.txt"), encoding="utf-8", newline="") as f:
        sentences = plan.read_sentences(f.read(), 10**9)
    tokenizer = Tokenizer.from_file(os.path.join(d, "tokenizer.json"))
    # The file pads every text to 128; LangChain4j (and ours) turn that off and pad per batch.
    tokenizer.no_padding()
    return sentences, tokenizer


def load_ours(d, name):
    path = os.path.join(d, name)
    return torch.from_numpy(np.load(path)).to(dev) if os.path.exists(path) else None


def untruncated_lengths(tokenizer, sentences):
    whole = Tokenizer.from_str(tokenizer.to_str())
    whole.no_truncation()
    return [len(e) for e in whole.encode_batch(sentences)]


def truncated_lengths(tokenizer, sentences):
    return [len(e) for e in tokenizer.encode_batch(sentences)]


def histogram_section(tokenizer, sentences):
    lengths = untruncated_lengths(tokenizer, sentences)
    trunc = tokenizer.truncation
    print(f"token_length_histogram,sentences,{len(sentences)},{plan.histogram_columns(lengths)},"
          f"mean,{sum(lengths) / len(lengths):.1f},max,{max(lengths)},special_tokens,included,"
          f"truncation,none,model_truncates_at,{trunc['max_length'] if trunc else 'none'}")


def tokenizer_section(tokenizer, sentences):
    n = len(sentences)
    t = time.perf_counter()
    tokenizer.encode_batch(sentences)
    secs = time.perf_counter() - t
    threads = os.environ.get("RAYON_NUM_THREADS", f"{os.cpu_count()}_cores")
    print(f"torch_tokenize,encode_batch,{n},sentences,{secs:.3f},s,{n / secs:.1f},sentences_per_s,"
          f"threads,{threads}")
    one = sentences[:10_000]
    t = time.perf_counter()
    for s in one:
        tokenizer.encode(s)
    secs = time.perf_counter() - t
    print(f"torch_tokenize,encode_one_thread,{len(one)},sentences,{secs:.3f},s,{len(one) / secs:.1f},"
          f"sentences_per_s,{secs / len(one) * 1e6:.1f},us_per_text")


_last = [time.perf_counter()]


def section(name):
    now = time.perf_counter()
    print(f"# {name}: {now - _last[0]:.0f} s", flush=True)
    _last[0] = now


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        print(USAGE, file=sys.stderr)
        sys.exit(2)
    d = args[0]
    if len(args) == 4 and args[1] == "--compiled-ingestion":
        compiled_child(d, int(args[2]), args[3])
        return
    if len(args) == 2 and args[1] == "--random-query":
        global RANDOM
        RANDOM = True
        sentences, tokenizer = read_inputs(d)
        print("# minilm_torch.py --random-query: random weights of all-MiniLM-L6-v2's sizes",
              flush=True)
        query_section(d, sentences, tokenizer, load_model(d, attn="sdpa")[1].half())
        return
    if len(args) != 1:
        print(USAGE, file=sys.stderr)
        sys.exit(2)
    started = time.perf_counter()
    sentences, tokenizer = read_inputs(d)
    ours = load_ours(d, "ours.npy")
    ours16 = load_ours(d, "ours_fp16.npy")
    old_sections(d, sentences, tokenizer, ours, ours16)
    histogram_section(tokenizer, sentences)
    tokenizer_section(tokenizer, sentences)
    tok_lengths = truncated_lengths(tokenizer, sentences)
    section("histogram and tokenizer")
    model16, variant, batch = pipeline_section(d, sentences, tokenizer, ours16, tok_lengths)
    query_section(d, sentences, tokenizer, model16)
    del model16
    torch.cuda.empty_cache()
    compiled_section(d, batch, variant)
    print(f"# minilm_torch.py: {time.perf_counter() - started:.0f} s in all", flush=True)


if __name__ == "__main__":
    main()
