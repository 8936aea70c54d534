# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
"""What make_checkpoint.py decides without PyTorch: the model's config.json values (Llama-3.2-1B's
shape, or a tiny one), the prompts (token ids from a seed, of different lengths), their left-padded
batch and attention mask, the text the tokenizer is trained on, and the gap between the two largest
logits of a step.

Standard library only, so that test_checkpoint_plan.py runs where PyTorch is not installed
(MakeCheckpointScriptTests runs it from the build).
"""
import random

# Llama-3.2-1B's shape, as its published config.json gives it.
LLAMA_32_1B = {
    "hidden_size": 2048,
    "intermediate_size": 8192,
    "num_hidden_layers": 16,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "head_dim": 64,
    "vocab_size": 128256,
    "max_position_embeddings": 131072,
    "rms_norm_eps": 1e-5,
    "rope_theta": 500000.0,
    "rope_scaling": {
        "rope_type": "llama3",
        "factor": 32.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
    },
    "tie_word_embeddings": True,
    "hidden_act": "silu",
    "attention_bias": False,
    "mlp_bias": False,
}

# A model small enough to build and run on a CPU in seconds (--small), the same features.
SMALL = dict(
    LLAMA_32_1B,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    head_dim=16,
    vocab_size=1024,
    max_position_embeddings=4096,
    rope_scaling=dict(LLAMA_32_1B["rope_scaling"], original_max_position_embeddings=64),
)

# The prompts' lengths: one token, short, and long enough to cross the llama3 scaling's bands.
PROMPT_LENGTHS = (1, 3, 6, 11, 19, 30, 47, 70)

SPECIAL_TOKENS = ("<|begin_of_text|>", "<|end_of_text|>", "<|eot_id|>", "<|pad|>")

# A Llama 3 style chat template (no tools, no dates), rendered by transformers for the record.
CHAT_TEMPLATE = (
    "{{ bos_token }}{% for message in messages %}"
    "{{ '<|start_header_id|>' + message['role'] + '<|end_header_id|>\\n\\n'"
    " + message['content'] | trim + '<|eot_id|>' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}"
    "{% endif %}"
)


def model_config(small, initializer_range, bos_token_id, eos_token_id, pad_token_id):
    """The LlamaConfig keyword arguments: the shape, and the special ids of the tokenizer built."""
    shape = SMALL if small else LLAMA_32_1B
    config = dict(shape)
    config["rope_scaling"] = dict(shape["rope_scaling"])
    config.update(
        initializer_range=initializer_range,
        bos_token_id=bos_token_id,
        eos_token_id=eos_token_id,
        pad_token_id=pad_token_id,
    )
    return config


def prompts(seed, vocab_size, lengths=PROMPT_LENGTHS, avoid=()):
    """One prompt of token ids per length, drawn from [0, vocab_size) less `avoid`, from `seed`."""
    if vocab_size <= len(avoid):
        raise ValueError("vocab_size %d leaves no token outside %s" % (vocab_size, sorted(avoid)))
    rng = random.Random(seed)
    avoid = set(avoid)
    out = []
    for length in lengths:
        if length < 1:
            raise ValueError("a prompt needs at least one token, not %d" % length)
        prompt = []
        while len(prompt) < length:
            token = rng.randrange(vocab_size)
            if token not in avoid:
                prompt.append(token)
        out.append(prompt)
    return out


def left_pad(batch, pad_id):
    """input_ids and attention_mask of `batch` padded on the left to its longest prompt, as
    generate expects for a decoder-only model."""
    if not batch:
        raise ValueError("an empty batch")
    width = max(len(p) for p in batch)
    ids = [[pad_id] * (width - len(p)) + list(p) for p in batch]
    mask = [[0] * (width - len(p)) + [1] * len(p) for p in batch]
    return ids, mask


def top_two_gap(logits):
    """The largest logit minus the second largest (0 for a tie); a list of floats."""
    if len(logits) < 2:
        raise ValueError("need two logits, got %d" % len(logits))
    first = second = float("-inf")
    for v in logits:
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second


def first_difference(a, b):
    """The first index where token lists `a` and `b` differ, or None when equal."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def training_text(seed, lines=4000):
    """English-like lines from `seed` for the byte-level BPE to learn merges from, with some
    accented and CJK characters and an emoji so that multi-byte UTF-8 is in the vocabulary."""
    rng = random.Random(seed)
    syllables = ["the", "an", "ing", "er", "on", "re", "at", "ou", "is", "al", "st", "en", "cu",
                 "da", "gra", "ph", "mo", "del", "to", "ken", "é", "ü", "日本", "語", "🙂"]
    out = []
    for _ in range(lines):
        words = []
        for _ in range(rng.randint(3, 14)):
            words.append("".join(rng.choice(syllables) for _ in range(rng.randint(1, 3))))
        out.append(" ".join(words) + rng.choice([".", "!", "?", ","]))
    return out
