# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
"""The transformers anchor of LlmBench (issue 40) on the GPU host: decode throughput of
transformers' generate with a static cache, compiled (torch.compile, as transformers documents it
for the static cache: mode "reduce-overhead", fullgraph) and, with --modes compile,eager, without
compiling, over the model directory LlmBench reads (make_checkpoint.py --dtype bfloat16).

    python3 llm_torch.py --model /tmp/llama-bench-bf16 [--batches 1,8,32,64,128] [--context 512]
        [--steps 64] [--rounds 5] [--modes compile,eager] [--limit-s 60] [--budget-s 0]
        [--bandwidth-tbs 3.35]

For each batch B: B prompts of --context random token ids (uniform over the vocabulary, the same
rule as LlmBench, not the same ids), greedy, min_new_tokens = max_new_tokens (no early stop). The
decode time is the difference of two generate calls on the same static cache: one making
--steps + 1 tokens and one making 1 token (prefill and first token only), so the difference is
--steps decode steps; tokens/s = B * steps / difference, median [min-max] over --rounds. Two
warm-up calls come first: the first one's time beyond a steady call is the compile time,
reported apart (line "compile"), never in the rounds. --limit-s cuts one configuration (SIGALRM),
not the run; --budget-s skips the configurations left once spent.

Prints the lines LlmBench prints (figure,key=value,...; '#' lines for people). The pure parts
(arguments, prompts, bytes, figures, lines) are tested without PyTorch by test_llm_torch.py.
"""
import argparse
import json
import os
import random
import signal
import statistics
import sys
import time

ENGINES = {"compile": "transformers-static-compile", "eager": "transformers-static-eager"}
DTYPE_BYTES = {"bfloat16": 2, "float16": 2, "float32": 4}


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", required=True, help="the model directory (make_checkpoint.py)")
    p.add_argument("--batches", default="1,8,32,64,128")
    p.add_argument("--context", type=int, default=512)
    p.add_argument("--steps", type=int, default=64)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seed", type=int, default=40)
    p.add_argument("--modes", default="compile", help="compile, eager or compile,eager")
    p.add_argument("--dtype", choices=sorted(DTYPE_BYTES), default="bfloat16")
    p.add_argument("--attn", default="sdpa", choices=["sdpa", "eager"])
    p.add_argument("--limit-s", type=float, default=60.0, help="cut one configuration after this")
    p.add_argument("--budget-s", type=float, default=0.0, help="skip what is left after this (0: no)")
    p.add_argument("--bandwidth-tbs", type=float, default=3.35, help="H100 3.35, H200 4.8")
    p.add_argument("--device", default="cuda")
    args = p.parse_args(argv)
    try:
        args.batches = [int(b) for b in args.batches.split(",")]
    except ValueError:
        p.error("--batches %s: give numbers separated by commas" % args.batches)
    args.modes = args.modes.split(",")
    for m in args.modes:
        if m not in ENGINES:
            p.error("--modes: %s is neither compile nor eager" % m)
    if min(args.batches) < 1 or args.context < 1 or args.steps < 1 or args.rounds < 1:
        p.error("--batches, --context, --steps and --rounds must be positive")
    return args


def prompts(seed, batch, context, vocab, round_index):
    """B lists of `context` token ids, uniform over the vocabulary, from the seed and round."""
    r = random.Random("%d/%d/%d" % (seed, batch, round_index))
    return [[r.randrange(vocab) for _ in range(context)] for _ in range(batch)]


def layer_bytes(config, dtype_bytes):
    """The bytes a decode step reads of the weights but the embedding's rows, as LlmBench counts:
    every layer, the final norm and the output projection (the embedding itself where tied)."""
    h = config["hidden_size"]
    inter = config["intermediate_size"]
    heads = config["num_attention_heads"]
    kv_heads = config.get("num_key_value_heads", heads)
    head_dim = config.get("head_dim") or h // heads
    per_layer = (h * heads * head_dim * 2          # q, o
                 + 2 * h * kv_heads * head_dim     # k, v
                 + 3 * h * inter                   # gate, up, down
                 + 2 * h)                          # the two norms
    return dtype_bytes * (config["num_hidden_layers"] * per_layer + h + config["vocab_size"] * h)


def kv_bytes_per_token(config, dtype_bytes):
    heads = config["num_attention_heads"]
    kv_heads = config.get("num_key_value_heads", heads)
    head_dim = config.get("head_dim") or config["hidden_size"] // heads
    return 2 * config["num_hidden_layers"] * kv_heads * head_dim * dtype_bytes


def round_figures(batch, steps, long_s, short_s):
    """(tokens/s, ms a step) of a round: generate of steps + 1 tokens less generate of 1 token."""
    decode_s = long_s - short_s
    if not decode_s > 0:
        raise ValueError("generate of %d tokens (%.6f s) was not slower than of 1 token (%.6f s)"
                         % (steps + 1, long_s, short_s))
    return batch * steps / decode_s, decode_s * 1e3 / steps


def line(figure, **values):
    """`figure,key=value,...` in the order given, floats with up to 6 significant digits."""
    parts = [figure]
    for k, v in values.items():
        if isinstance(v, float):
            v = ("%.6g" % v) if abs(v) < 1e6 else ("%.1f" % v)
        parts.append("%s=%s" % (k, v))
    return ",".join(parts)


def decode_line(engine, batch, args, rates, step_ms, config, dtype_bytes):
    """The decode line of a configuration, with LlmBench's keys: the bytes of a step are the
    weights (B embedding rows included) and every sequence's KV at its mean length over the
    decode steps (context + 1 + steps / 2)."""
    mean_len = args.context + 1 + args.steps / 2.0
    weights = layer_bytes(config, dtype_bytes) + batch * config["hidden_size"] * dtype_bytes
    kv = int(round(batch * mean_len * kv_bytes_per_token(config, dtype_bytes)))
    gb_s = (weights + kv) / (step_ms / 1e3) / 1e9
    return line("decode", engine=engine, batch=batch, ctx=args.context, steps=args.steps,
                rounds=len(rates), tok_s=float(statistics.median(rates)), min=float(min(rates)),
                max=float(max(rates)), step_ms=float(step_ms), mean_len=float(mean_len),
                weights_bytes=weights, kv_bytes=kv, step_bytes=weights + kv, gb_s=float(gb_s),
                of_bandwidth=float(gb_s / (args.bandwidth_tbs * 1e3)),
                bandwidth_tbs=float(args.bandwidth_tbs), cache_len=args.context + args.steps + 1,
                timing="generate_difference")


class Cut(Exception):
    """A configuration ran past --limit-s."""


class Limit:
    """Raises Cut in the main thread after `seconds` (SIGALRM; generate returns to Python between
    steps, so a cut lands within a step or a compile)."""

    def __init__(self, seconds):
        self.seconds = seconds

    def __enter__(self):
        def alarm(signum, frame):
            raise Cut()
        self.previous = signal.signal(signal.SIGALRM, alarm)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    def __exit__(self, *exc):
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.previous)
        return False


def compile_support(transformers, torch, model, mode):
    """Sets the model up for `mode`; returns (how, generate's extra arguments). transformers that
    has GenerationConfig.compile_config compiles the decoding forward itself when the cache is
    static (mode reduce-overhead, fullgraph); older ones get model.forward compiled as their
    documentation shows. Eager turns that off where transformers lets it (disable_compile)."""
    config = transformers.GenerationConfig()
    auto = hasattr(config, "compile_config")
    if mode == "compile":
        if auto:
            return "auto", {}
        model.forward = torch.compile(model.forward, mode="reduce-overhead", fullgraph=True)
        return "manual", {}
    if auto:
        if hasattr(config, "disable_compile"):
            return "none", {"disable_compile": True}
        return "auto_not_disabled", {}
    return "none", {}


def main(argv):
    args = parse_args(argv)
    import torch
    import torch._dynamo
    import transformers
    from transformers import LlamaForCausalLM

    with open(os.path.join(args.model, "config.json"), encoding="utf-8") as f:
        config = json.load(f)
    dtype_bytes = DTYPE_BYTES[args.dtype]
    dtype = getattr(torch, args.dtype)
    # Each batch size (and, compiled by hand, each prefill length) is a recompile: dynamo's
    # default of 8 would fall back to eager without a word part-way through the batches.
    for name in ("cache_size_limit", "recompile_limit"):
        if hasattr(torch._dynamo.config, name):
            setattr(torch._dynamo.config, name, max(64, getattr(torch._dynamo.config, name)))
    started = time.time()
    print("# llm_torch on %s: torch %s, transformers %s, %s, attn %s"
          % (torch.cuda.get_device_name(0) if args.device == "cuda" else args.device,
             torch.__version__, transformers.__version__, args.dtype, args.attn), flush=True)
    for mode in args.modes:
        engine = ENGINES[mode]
        # torch_dtype is the name every transformers takes (later ones warn and take it; an
        # unknown keyword would be set on the config silently), and the cast makes sure.
        model = LlamaForCausalLM.from_pretrained(args.model, torch_dtype=dtype,
                                                 attn_implementation=args.attn)
        model = model.to(device=args.device, dtype=dtype).eval()
        if next(model.parameters()).dtype != dtype:
            raise SystemExit("llm_torch: the model is %s, not %s"
                             % (next(model.parameters()).dtype, dtype))
        how, extra = compile_support(transformers, torch, model, mode)
        print("# %s: compile=%s" % (engine, how), flush=True)

        def generate(ids, new_tokens):
            with torch.no_grad():
                out = model.generate(
                    input_ids=ids, attention_mask=torch.ones_like(ids), do_sample=False,
                    num_beams=1, max_new_tokens=new_tokens, min_new_tokens=new_tokens,
                    cache_implementation="static", pad_token_id=0, **extra)
            if out.shape[1] != ids.shape[1] + new_tokens:
                raise SystemExit("llm_torch: generate made %d tokens, not %d"
                                 % (out.shape[1] - ids.shape[1], new_tokens))

        def timed(ids, new_tokens):
            torch.cuda.synchronize()
            t = time.perf_counter()
            generate(ids, new_tokens)
            torch.cuda.synchronize()
            return time.perf_counter() - t

        for batch in args.batches:
            if args.budget_s > 0 and time.time() - started > args.budget_s:
                print(line("decode", engine=engine, batch=batch, ctx=args.context,
                           status="skipped", budget_s=args.budget_s), flush=True)
                continue
            rates, steps_ms = [], []
            try:
                with Limit(args.limit_s):
                    vocab = config["vocab_size"]
                    warm = torch.tensor(prompts(args.seed, batch, args.context, vocab, -1),
                                        device=args.device)
                    # The longest call first: the static cache it makes is reused by the others.
                    first = timed(warm, args.steps + 1)
                    steady = timed(warm, args.steps + 1)
                    timed(warm, 1)
                    print(line("compile", engine=engine, batch=batch, compile=how,
                               first_call_s=float(first), steady_call_s=float(steady),
                               compile_s=float(max(0.0, first - steady))), flush=True)
                    for r in range(args.rounds):
                        ids = torch.tensor(prompts(args.seed, batch, args.context, vocab, r),
                                           device=args.device)
                        long_s = timed(ids, args.steps + 1)
                        short_s = timed(ids, 1)
                        rate, step_ms = round_figures(batch, args.steps, long_s, short_s)
                        rates.append(rate)
                        steps_ms.append(step_ms)
            except Cut:
                print(line("decode", engine=engine, batch=batch, ctx=args.context, status="cut",
                           limit_s=args.limit_s, rounds_done=len(rates)), flush=True)
                if not rates:
                    continue
            except torch.cuda.OutOfMemoryError as e:
                print(line("decode", engine=engine, batch=batch, ctx=args.context,
                           status="out_of_memory"), "#", str(e).split("\n")[0], flush=True)
                torch.cuda.empty_cache()
                continue
            print(decode_line(engine, batch, args, rates, statistics.median(steps_ms), config,
                              dtype_bytes), flush=True)
        del model
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
