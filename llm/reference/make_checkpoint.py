# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
"""Builds the transformers anchor of the llm module on the GPU host (PyTorch and transformers
installed, no network): a LlamaForCausalLM at the Llama-3.2-1B config (or a tiny one, --small) with
random weights from a seed, saved with save_pretrained in the dtype asked for, a byte-level BPE
tokenizer trained here, and expected.json: greedy generate(do_sample=False) of --new-tokens tokens
for 8 prompts of different lengths (token ids) in one left-padded batch and each prompt alone, the
gap between the two largest logits of every step.

    python3 make_checkpoint.py --out /tmp/llama-anchor-fp32 --dtype float32
    python3 make_checkpoint.py --out /tmp/llama-anchor-bf16 --dtype bfloat16
    python3 make_checkpoint.py --out /tmp/tiny --small        # a CPU is enough, seconds

The pure decisions live in checkpoint_plan.py, tested without PyTorch by test_checkpoint_plan.py.
"""
import argparse
import json
import os
import platform
import sys
import time

import checkpoint_plan as plan

DTYPES = {"float32": "float32", "bfloat16": "bfloat16", "float16": "float16"}


def log(message):
    print("make_checkpoint: " + message, flush=True)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="the model directory to write (must not exist)")
    p.add_argument("--dtype", choices=sorted(DTYPES), default="float32")
    p.add_argument("--small", action="store_true", help="a tiny config, to test the script")
    p.add_argument("--seed", type=int, default=1234)
    p.add_argument("--new-tokens", type=int, default=64)
    p.add_argument("--initializer-range", type=float, default=0.05,
                   help="the std of the random weights (0.02, transformers' default, gives"
                        " nearly flat logits at this width)")
    p.add_argument("--max-shard-size", default="2GB",
                   help="save_pretrained's shard size: the 1B model in fp32 comes out sharded")
    p.add_argument("--attn", default="eager", choices=["eager", "sdpa"],
                   help="attention implementation (eager: no fused kernel choices with padding)")
    p.add_argument("--device", default=None, help="cuda or cpu (default: cuda if available)")
    args = p.parse_args(argv)
    if os.path.exists(args.out):
        p.error("--out %s exists; give a new directory" % args.out)
    if args.new_tokens < 1:
        p.error("--new-tokens must be positive")
    return args


def build_tokenizer(seed, vocab_limit):
    """A byte-level BPE like Llama 3's, trained on generated text; returns (fast tokenizer, ids)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_limit,
        special_tokens=list(plan.SPECIAL_TOKENS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(plan.training_text(seed), trainer=trainer)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token="<|begin_of_text|>",
        eos_token="<|eot_id|>",
        pad_token="<|pad|>",
    )
    fast.chat_template = plan.CHAT_TEMPLATE
    ids = {t: tok.token_to_id(t) for t in plan.SPECIAL_TOKENS}
    if any(v is None for v in ids.values()):
        raise SystemExit("make_checkpoint: the trained tokenizer lacks a special token: %s" % ids)
    return fast, ids


def greedy(model, torch, batch, pad_id, new_tokens, device):
    """generate(do_sample=False) of `batch` left-padded; returns (tokens, gaps) per prompt."""
    ids, mask = plan.left_pad(batch, pad_id)
    input_ids = torch.tensor(ids, device=device)
    attention_mask = torch.tensor(mask, device=device)
    with torch.no_grad():
        out = model.generate(
            input_ids=input_ids,
            attention_mask=attention_mask,
            max_new_tokens=new_tokens,
            do_sample=False,
            num_beams=1,
            eos_token_id=None,  # no early stop: exactly new_tokens tokens
            pad_token_id=pad_id,
            return_dict_in_generate=True,
            output_logits=True,
        )
    width = input_ids.shape[1]
    tokens = out.sequences[:, width:].tolist()
    gaps = [[] for _ in batch]
    # Raw logits; greedy decoding without processors scores the same where output_logits is old.
    steps = out.logits if getattr(out, "logits", None) is not None else out.scores
    for step_logits in steps:
        values = step_logits.float().topk(2, dim=-1).values
        for b in range(len(batch)):
            gaps[b].append(float(values[b, 0] - values[b, 1]))
    for b, t in enumerate(tokens):
        if len(t) != new_tokens:
            raise SystemExit("make_checkpoint: prompt %d generated %d tokens, not %d"
                             % (b, len(t), new_tokens))
    return tokens, gaps


def main(argv):
    args = parse_args(argv)
    import torch
    import transformers
    from transformers import LlamaConfig, LlamaForCausalLM

    device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    # fp32 means fp32: no TF32 in the products the engine is compared with.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.manual_seed(args.seed)
    started = time.time()

    shape = plan.SMALL if args.small else plan.LLAMA_32_1B
    fast, special = build_tokenizer(args.seed, min(4000, shape["vocab_size"] - 16))
    config = LlamaConfig(**plan.model_config(
        args.small, args.initializer_range,
        special["<|begin_of_text|>"], special["<|eot_id|>"], special["<|pad|>"]))
    log("building %s (%s) on %s" % ("the small model" if args.small else "Llama-3.2-1B's shape",
                                    args.dtype, device))
    model = LlamaForCausalLM(config)  # weights from torch.manual_seed, fp32
    model.generation_config.eos_token_id = None
    model.generation_config.pad_token_id = special["<|pad|>"]
    dtype = getattr(torch, DTYPES[args.dtype])
    model = model.to(dtype=dtype)
    if hasattr(model, "set_attn_implementation"):
        model.set_attn_implementation(args.attn)
    else:
        model.config._attn_implementation = args.attn
    model.eval()

    os.makedirs(args.out)
    try:
        model.save_pretrained(args.out, safe_serialization=True,
                              max_shard_size=args.max_shard_size)
    except TypeError:  # a transformers that always writes safetensors and dropped the flag
        model.save_pretrained(args.out, max_shard_size=args.max_shard_size)
    if not any(n.endswith(".safetensors") for n in os.listdir(args.out)):
        raise SystemExit("make_checkpoint: save_pretrained wrote no safetensors: %s"
                         % sorted(os.listdir(args.out)))
    fast.save_pretrained(args.out)
    log("saved to %s: %s" % (args.out, sorted(os.listdir(args.out))))

    model = model.to(device)
    prompts = plan.prompts(args.seed, config.vocab_size, avoid=set(special.values()))
    batch_tokens, batch_gaps = greedy(model, torch, prompts, special["<|pad|>"],
                                      args.new_tokens, device)
    alone_tokens, alone_gaps = [], []
    for prompt in prompts:
        t, g = greedy(model, torch, [prompt], special["<|pad|>"], args.new_tokens, device)
        alone_tokens.append(t[0])
        alone_gaps.append(g[0])
    with torch.no_grad():
        probe = model(torch.tensor([prompts[-1]], device=device)).logits[0, -1].float()

    messages = [{"role": "system", "content": "You are terse."},
                {"role": "user", "content": " Hello, wörld 🙂 "}]
    expected = {
        "dtype": args.dtype,
        "seed": args.seed,
        "small": args.small,
        "initializer_range": args.initializer_range,
        "attn_implementation": args.attn,
        "new_tokens": args.new_tokens,
        "prompts": prompts,
        "batch": {"tokens": batch_tokens, "top_two_gaps": batch_gaps},
        "alone": {"tokens": alone_tokens, "top_two_gaps": alone_gaps},
        "batch_vs_alone_first_difference": [
            plan.first_difference(a, b) for a, b in zip(batch_tokens, alone_tokens)],
        "last_prompt_logits": {"mean": float(probe.mean()), "std": float(probe.std()),
                               "top_two_gap": plan.top_two_gap(probe.tolist())},
        "chat_example": {
            "messages": messages,
            "rendered": fast.apply_chat_template(messages, tokenize=False,
                                                 add_generation_prompt=True),
        },
        "encode_example": {
            "text": "the cuda graph 日本語 🙂 tokens",
            "ids": fast.encode("the cuda graph 日本語 🙂 tokens", add_special_tokens=False),
        },
        "versions": {"torch": torch.__version__, "transformers": transformers.__version__,
                     "python": platform.python_version(),
                     "device": torch.cuda.get_device_name(0) if device == "cuda" else "cpu"},
        "seconds": round(time.time() - started, 1),
    }
    with open(os.path.join(args.out, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(expected, f, indent=1, ensure_ascii=False)
    differ = [i for i, d in enumerate(expected["batch_vs_alone_first_difference"]) if d is not None]
    log("expected.json written in %.1f s; logits std %.3f; batch and alone differ for prompts %s"
        % (expected["seconds"], expected["last_prompt_logits"]["std"], differ or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
