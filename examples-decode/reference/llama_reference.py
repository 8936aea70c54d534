#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
"""Independent reference for the decode example (examples-decode/MODEL.md).

This is an independent implementation of the same llama-architecture decode model on the same
safetensors weights as the Java engine: its own safetensors reader and writer, a NumPy forward
and a PyTorch forward. It shares no code with the Java side.

Subcommands:
  check     Run the reference greedily from token 1 at position 0, all in fp32 (weights upcast
            from fp16), and compare its tokens and logits with a dump written by the engine's
            `decode --dump DIR`. --device cpu: NumPy; cuda: PyTorch float32 on the GPU; both:
            both, also compared with each other. Exit code 0 on pass, 1 on fail.
  bench     Time an ordinary fp16 PyTorch decode of the same model on the GPU in three modes
            (eager; one self-advancing CUDA graph replayed per token; torch.compile with
            mode="reduce-overhead") and print CSV lines `torch,<mode>,<min>,<median>,<max>` in
            tokens/s, plus `torch,kernels_per_token,<n>`.
  selftest  Build a random tiny model in memory, round-trip it through this file's safetensors
            writer and reader, dump an 8-step run in the engine's format, and require `check`
            to pass on it and to fail on copies with one logit or one token changed. NumPy only.

Only the standard library and NumPy are required; PyTorch is imported lazily, by the torch paths.
Exit code 2: bad input, or PyTorch/CUDA missing where needed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import struct
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass

import numpy as np

# Logits pass when max|ref - dump| <= LOGIT_RTOL * (1 + max|ref|) at every step.
LOGIT_RTOL = 1e-3
FIRST_TOKEN = 1


class InputError(Exception):
    """A file or argument is not what MODEL.md describes (reported in one line, exit code 2)."""


class MissingDependency(Exception):
    """PyTorch or a CUDA device is needed but absent (reported in one line, exit code 2)."""


# ----------------------------------------------------------------------------------------------
# Configuration and tensor layout

TINY = {"name": "tiny", "dim": 64, "layers": 2, "heads": 4, "kv_heads": 2, "ffn": 128,
        "vocab": 256, "max_seq": 64, "rope_theta": 10000.0, "norm_eps": 1e-5}


@dataclass(frozen=True)
class Config:
    name: str
    dim: int
    layers: int
    heads: int
    kv_heads: int
    ffn: int
    vocab: int
    max_seq: int
    rope_theta: float
    norm_eps: float = 1e-5

    INT_KEYS = ("dim", "layers", "heads", "kv_heads", "ffn", "vocab", "max_seq")

    @property
    def head_dim(self) -> int:
        return self.dim // self.heads

    @classmethod
    def from_metadata(cls, md: dict) -> "Config":
        """The config from the safetensors `__metadata__`, where every value is a string."""
        missing = [k for k in cls.INT_KEYS + ("rope_theta",) if k not in md]
        if missing:
            raise InputError(f"weights metadata lacks {', '.join(missing)}")
        try:
            ints = {k: int(md[k]) for k in cls.INT_KEYS}
            cfg = cls(name=str(md.get("name", "unknown")), rope_theta=float(md["rope_theta"]),
                      norm_eps=float(md.get("norm_eps", "1e-5")), **ints)
        except ValueError as e:
            raise InputError(f"weights metadata has a malformed number: {e}") from None
        if cfg.dim % cfg.heads or cfg.heads % cfg.kv_heads or cfg.head_dim % 2:
            raise InputError(f"inconsistent config: {cfg}")
        return cfg

    def to_metadata(self, seed: int | None = None) -> dict:
        md = {k: str(getattr(self, k)) for k in ("name",) + self.INT_KEYS
              + ("rope_theta", "norm_eps")}
        if seed is not None:
            md["seed"] = str(seed)
        return md


def tensor_layout(cfg: Config) -> list[tuple[str, tuple[int, ...]]]:
    """Tensor names and shapes in MODEL.md's file order; matrices are [out, in]."""
    q, kv = cfg.heads * cfg.head_dim, cfg.kv_heads * cfg.head_dim
    out = [("tok_embeddings.weight", (cfg.vocab, cfg.dim))]
    for l in range(cfg.layers):
        p = f"layers.{l}."
        out += [(p + "attention_norm.weight", (cfg.dim,)),
                (p + "attention.wq.weight", (q, cfg.dim)),
                (p + "attention.wk.weight", (kv, cfg.dim)),
                (p + "attention.wv.weight", (kv, cfg.dim)),
                (p + "attention.wo.weight", (cfg.dim, q)),
                (p + "ffn_norm.weight", (cfg.dim,)),
                (p + "feed_forward.w1.weight", (cfg.ffn, cfg.dim)),
                (p + "feed_forward.w3.weight", (cfg.ffn, cfg.dim)),
                (p + "feed_forward.w2.weight", (cfg.dim, cfg.ffn))]
    return out + [("norm.weight", (cfg.dim,)), ("output.weight", (cfg.vocab, cfg.dim))]


# ----------------------------------------------------------------------------------------------
# safetensors: 8-byte little-endian header length, JSON header, then the raw tensor bytes

_DTYPES = {"F16": np.dtype("<f2"), "F32": np.dtype("<f4")}


def read_safetensors(path: str) -> tuple[dict, dict]:
    """(metadata, {name: read-only array}); the arrays view one memory map, nothing is copied."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        head = f.read(8)
        if len(head) < 8:
            raise InputError(f"{path}: too short for a safetensors file")
        (n,) = struct.unpack("<Q", head)
        if 8 + n > size:
            raise InputError(f"{path}: header length {n} runs past the end of the file")
        try:
            header = json.loads(f.read(n).decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise InputError(f"{path}: header is not JSON: {e}") from None
    metadata = header.pop("__metadata__", None) or {}
    data = np.memmap(path, dtype=np.uint8, mode="r")
    base = 8 + n
    tensors = {}
    for name, info in header.items():
        dtype = _DTYPES.get(info.get("dtype"))
        if dtype is None:
            raise InputError(f"{path}: {name} has dtype {info.get('dtype')}, not F16 or F32")
        shape = tuple(int(s) for s in info["shape"])
        start, end = (int(o) for o in info["data_offsets"])
        count = math.prod(shape)
        if end - start != count * dtype.itemsize or base + end > size or start < 0:
            raise InputError(f"{path}: {name} offsets {start}..{end} do not fit shape {shape}")
        tensors[name] = np.frombuffer(data, dtype=dtype, count=count,
                                      offset=base + start).reshape(shape)
    return metadata, tensors


def write_safetensors(path: str, tensors: dict, metadata: dict) -> None:
    """Write tensors in dict order; the header is padded with spaces to a multiple of 8 bytes."""
    codes = {v: k for k, v in _DTYPES.items()}
    header = {"__metadata__": {k: str(v) for k, v in metadata.items()}}
    blobs, offset = [], 0
    for name, arr in tensors.items():
        code = codes.get(arr.dtype.newbyteorder("<"))
        if code is None:
            raise InputError(f"{name}: dtype {arr.dtype} is neither float16 nor float32")
        blob = np.ascontiguousarray(arr, dtype=_DTYPES[code]).tobytes()
        header[name] = {"dtype": code, "shape": list(arr.shape),
                        "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    raw = json.dumps(header, separators=(",", ":")).encode("utf-8")
    raw += b" " * (-len(raw) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(raw)))
        f.write(raw)
        for blob in blobs:
            f.write(blob)


def load_model(path: str) -> tuple[Config, dict]:
    """Config and tensors of a weights file, checked against MODEL.md's names and shapes."""
    metadata, tensors = read_safetensors(path)
    cfg = Config.from_metadata(metadata)
    for name, shape in tensor_layout(cfg):
        if name not in tensors:
            raise InputError(f"{path}: tensor {name} is missing")
        if tensors[name].shape != shape:
            raise InputError(f"{path}: {name} has shape {tensors[name].shape}, expected {shape}")
    extra = set(tensors) - {name for name, _ in tensor_layout(cfg)}
    if extra:
        print(f"warning: {path}: ignoring {len(extra)} unexpected tensors", file=sys.stderr)
    return cfg, tensors


def random_model(cfg: Config, seed: int) -> dict:
    """Random fp16 weights with MODEL.md's value ranges (not the Java generator's values)."""
    rng = np.random.default_rng(seed)
    out = {}
    for name, shape in tensor_layout(cfg):
        u = rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)
        if len(shape) == 1:
            w = 1.0 + u / 8.0                      # norm weights
        elif name == "tok_embeddings.weight":
            w = u
        else:
            w = u / np.float32(math.sqrt(shape[1]))  # matrices: u / sqrt(in)
        out[name] = w.astype(np.float16)
    return out


# ----------------------------------------------------------------------------------------------
# NumPy forward, fp32 throughout

def rope_tables(cfg: Config) -> tuple[np.ndarray, np.ndarray]:
    """cos and sin [max_seq, head_dim/2]; angles in float64 so that large positions stay exact."""
    i = np.arange(cfg.head_dim // 2, dtype=np.float64)
    freq = cfg.rope_theta ** (-2.0 * i / cfg.head_dim)
    angle = np.arange(cfg.max_seq, dtype=np.float64)[:, None] * freq[None, :]
    return np.cos(angle).astype(np.float32), np.sin(angle).astype(np.float32)


def _rmsnorm(v: np.ndarray, weight: np.ndarray, eps: np.float32) -> np.ndarray:
    return v / np.sqrt(np.mean(v * v) + eps) * weight


def _rope(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, heads: int) -> np.ndarray:
    """Rotate the interleaved pairs (2i, 2i+1) of every head by the angles of one position."""
    pairs = x.reshape(heads, -1, 2)
    x0, x1 = pairs[..., 0], pairs[..., 1]
    return np.stack((x0 * cos - x1 * sin, x0 * sin + x1 * cos), axis=-1).reshape(-1)


def _silu(z: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):  # exp(-z) overflows to inf for very negative z: silu -> -0
        return z / (np.float32(1.0) + np.exp(-z))


class NumpyDecoder:
    """The model on the CPU; the KV cache holds the steps so far."""

    def __init__(self, cfg: Config, tensors: dict):
        self.cfg = cfg
        self.emb = tensors["tok_embeddings.weight"]  # stays fp16 on the map: one row per step

        def f32(name):
            return np.asarray(tensors[name], dtype=np.float32)

        self.layers = []
        for l in range(cfg.layers):
            p = f"layers.{l}."
            self.layers.append({k: f32(p + n) for k, n in (
                ("attention_norm", "attention_norm.weight"), ("wq", "attention.wq.weight"),
                ("wk", "attention.wk.weight"), ("wv", "attention.wv.weight"),
                ("wo", "attention.wo.weight"), ("ffn_norm", "ffn_norm.weight"),
                ("w1", "feed_forward.w1.weight"), ("w3", "feed_forward.w3.weight"),
                ("w2", "feed_forward.w2.weight"))})
        self.norm, self.out = f32("norm.weight"), f32("output.weight")
        shape = (cfg.layers, cfg.max_seq, cfg.kv_heads, cfg.head_dim)
        self.k_cache = np.zeros(shape, np.float32)
        self.v_cache = np.zeros(shape, np.float32)
        self.cos, self.sin = rope_tables(cfg)
        self.eps = np.float32(cfg.norm_eps)
        self.scale = np.float32(1.0 / math.sqrt(cfg.head_dim))

    def _attention(self, l: int, q: np.ndarray, pos: int) -> np.ndarray:
        c = self.cfg
        group = c.heads // c.kv_heads
        # Heads g*group .. g*group+group-1 share kv head g, i.e. head h uses kv head h // group.
        qg = q.reshape(c.kv_heads, group, c.head_dim)
        keys = self.k_cache[l, :pos + 1].transpose(1, 2, 0)      # [kv_heads, head_dim, n]
        values = self.v_cache[l, :pos + 1].transpose(1, 0, 2)    # [kv_heads, n, head_dim]
        s = np.matmul(qg, keys) * self.scale                     # [kv_heads, group, n]
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        att = np.matmul(e / e.sum(axis=-1, keepdims=True), values)
        return att.reshape(-1)

    def step(self, token: int, pos: int) -> np.ndarray:
        """Feed `token` at `pos`; returns the fp32 logits [vocab]."""
        c = self.cfg
        cos, sin = self.cos[pos], self.sin[pos]
        x = self.emb[token].astype(np.float32)
        for l, w in enumerate(self.layers):
            xn = _rmsnorm(x, w["attention_norm"], self.eps)
            q = _rope(w["wq"] @ xn, cos, sin, c.heads)
            k = _rope(w["wk"] @ xn, cos, sin, c.kv_heads)
            self.k_cache[l, pos] = k.reshape(c.kv_heads, c.head_dim)
            self.v_cache[l, pos] = (w["wv"] @ xn).reshape(c.kv_heads, c.head_dim)
            x = x + w["wo"] @ self._attention(l, q, pos)
            xn = _rmsnorm(x, w["ffn_norm"], self.eps)
            x = x + w["w2"] @ (_silu(w["w1"] @ xn) * (w["w3"] @ xn))
        return self.out @ _rmsnorm(x, self.norm, self.eps)


def generate(step, steps: int, vocab: int) -> tuple[list[int], np.ndarray]:
    """Greedy decode from FIRST_TOKEN at position 0.

    Returns the tokens fed at positions 0..steps-1 followed by the last step's argmax
    (steps + 1 entries) and the logits [steps, vocab]."""
    tokens = [FIRST_TOKEN]
    logits = np.empty((steps, vocab), np.float32)
    for pos in range(steps):
        logits[pos] = step(tokens[-1], pos)
        tokens.append(int(np.argmax(logits[pos])))  # numpy: the lowest index among equal maxima
    return tokens, logits


# ----------------------------------------------------------------------------------------------
# PyTorch forward (used by check --device cuda in float32, and by bench in float16)

def import_torch(need_cuda: bool = True):
    try:
        import torch
    except Exception as e:  # ImportError, or a broken install raising OSError
        raise MissingDependency(f"PyTorch is not available ({e.__class__.__name__}: {e})") from None
    if need_cuda and not torch.cuda.is_available():
        raise MissingDependency("PyTorch has no usable CUDA device")
    return torch


class TorchDecoder:
    """The model on one GPU with a static KV cache [layers, max_seq, kv_heads, head_dim].

    step_eager(token, pos) takes the position as a Python int and attends over the filled prefix.
    step_static() reads token and position from GPU tensors, attends over all max_seq positions
    under the mask j <= pos, writes its argmax into the token tensor and increments the position
    tensor: one call has static shapes and addresses, so it can be captured once and replayed."""

    _LAYER_TENSORS = (("attention_norm", "attention_norm.weight"), ("wq", "attention.wq.weight"),
                      ("wk", "attention.wk.weight"), ("wv", "attention.wv.weight"),
                      ("wo", "attention.wo.weight"), ("ffn_norm", "ffn_norm.weight"),
                      ("w1", "feed_forward.w1.weight"), ("w3", "feed_forward.w3.weight"),
                      ("w2", "feed_forward.w2.weight"))

    def __init__(self, torch, cfg: Config, tensors: dict, dtype, device: str = "cuda"):
        self.torch, self.cfg, self.dtype = torch, cfg, dtype
        self.F = torch.nn.functional

        def load(name, as_dtype):
            with warnings.catch_warnings():
                # The arrays view a read-only map; torch warns about that, and nothing writes them.
                warnings.simplefilter("ignore", UserWarning)
                t = torch.from_numpy(tensors[name])
            return t.to(device).to(as_dtype)  # copy the fp16 bytes, then convert on the GPU

        # Norm weights stay fp32 because RMSNorm is computed in fp32 in both precisions.
        self.layers = [{k: load(f"layers.{l}.{n}", torch.float32 if k.endswith("norm") else dtype)
                        for k, n in self._LAYER_TENSORS} for l in range(cfg.layers)]
        self.emb = load("tok_embeddings.weight", dtype)
        self.norm = load("norm.weight", torch.float32)
        self.out = load("output.weight", dtype)
        shape = (cfg.layers, cfg.max_seq, cfg.kv_heads, cfg.head_dim)
        self.k_cache = torch.zeros(shape, dtype=dtype, device=device)
        self.v_cache = torch.zeros(shape, dtype=dtype, device=device)
        i = torch.arange(cfg.head_dim // 2, dtype=torch.float64)
        freq = cfg.rope_theta ** (-2.0 * i / cfg.head_dim)
        angle = torch.arange(cfg.max_seq, dtype=torch.float64)[:, None] * freq[None, :]
        self.cos = angle.cos().float().to(device)
        self.sin = angle.sin().float().to(device)
        self.positions = torch.arange(cfg.max_seq, device=device)
        self.token = torch.full((1,), FIRST_TOKEN, dtype=torch.long, device=device)
        self.pos = torch.zeros(1, dtype=torch.long, device=device)
        self.scale = 1.0 / math.sqrt(cfg.head_dim)

    def persistent_tensors(self) -> list:
        """Every tensor a step reads or writes across calls (for torch.compile's static inputs)."""
        return ([t for layer in self.layers for t in layer.values()]
                + [self.emb, self.norm, self.out, self.k_cache, self.v_cache, self.cos,
                   self.sin, self.positions, self.token, self.pos])

    def reset(self) -> None:
        """Back to token 1 at position 0, in place. The cache is zeroed because masked scores
        get weight 0, and 0 * (stale NaN) would still poison the weighted sum."""
        self.k_cache.zero_()
        self.v_cache.zero_()
        self.token.fill_(FIRST_TOKEN)
        self.pos.zero_()

    def _rmsnorm(self, x, weight):
        xf = x.float()
        xf = xf / self.torch.sqrt(xf.pow(2).mean(dim=-1, keepdim=True) + self.cfg.norm_eps)
        return (xf * weight).to(x.dtype)

    def _rope(self, x, cos, sin, heads: int):
        pairs = x.float().reshape(heads, -1, 2)
        x0, x1 = pairs[..., 0], pairs[..., 1]
        out = self.torch.stack((x0 * cos - x1 * sin, x0 * sin + x1 * cos), dim=-1)
        return out.reshape(heads, -1).to(x.dtype)

    def _attention(self, q, keys, values, mask):
        """q [heads, hd]; keys, values [n, kv_heads, hd]; mask [n] bool or None -> [1, heads*hd]."""
        c = self.cfg
        qg = q.reshape(c.kv_heads, c.heads // c.kv_heads, c.head_dim)  # head h -> kv h // group
        s = self.torch.matmul(qg, keys.permute(1, 2, 0)) * self.scale  # [kv_heads, group, n]
        if mask is not None:
            s = s.masked_fill(~mask, float("-inf"))
        p = self.torch.softmax(s.float(), dim=-1).to(values.dtype)
        return self.torch.matmul(p, values.permute(1, 0, 2)).reshape(1, -1)

    def _forward(self, token, pos, cos, sin):
        """token [1] long on the GPU; pos a Python int (prefix attention) or a [1] long tensor
        (index_copy_ into the cache and masked attention over max_seq) -> logits [1, vocab]."""
        c, F = self.cfg, self.F
        mask = None if isinstance(pos, int) else self.positions <= pos
        x = F.embedding(token, self.emb)
        for l, w in enumerate(self.layers):
            xn = self._rmsnorm(x, w["attention_norm"])
            q = self._rope(F.linear(xn, w["wq"]), cos, sin, c.heads)
            k = self._rope(F.linear(xn, w["wk"]), cos, sin, c.kv_heads)
            v = F.linear(xn, w["wv"]).reshape(c.kv_heads, c.head_dim)
            if mask is None:
                self.k_cache[l, pos] = k
                self.v_cache[l, pos] = v
                keys, values = self.k_cache[l, :pos + 1], self.v_cache[l, :pos + 1]
            else:
                self.k_cache[l].index_copy_(0, pos, k.unsqueeze(0))
                self.v_cache[l].index_copy_(0, pos, v.unsqueeze(0))
                keys, values = self.k_cache[l], self.v_cache[l]
            x = x + F.linear(self._attention(q, keys, values, mask), w["wo"])
            xn = self._rmsnorm(x, w["ffn_norm"])
            x = x + F.linear(F.silu(F.linear(xn, w["w1"])) * F.linear(xn, w["w3"]), w["w2"])
        return F.linear(self._rmsnorm(x, self.norm), self.out)

    def step_eager(self, token, pos: int):
        return self._forward(token, pos, self.cos[pos:pos + 1], self.sin[pos:pos + 1])

    def step_static(self) -> None:
        cos = self.cos.index_select(0, self.pos)
        sin = self.sin.index_select(0, self.pos)
        logits = self._forward(self.token, self.pos, cos, sin)
        self.token.copy_(self.torch.argmax(logits, dim=-1))  # first maximal index on ties
        self.pos.add_(1)


def torch_fp32_step(cfg: Config, tensors: dict):
    """A step function for generate(): PyTorch float32 on the GPU, logits back as NumPy."""
    torch = import_torch()
    # No TF32: the check wants fp32 products. PyTorch 2.9 added fp32_precision for this and
    # plans to retire the older switches.
    if hasattr(torch.backends.cuda.matmul, "fp32_precision"):
        torch.backends.cuda.matmul.fp32_precision = "ieee"
    else:
        torch.set_float32_matmul_precision("highest")
    dec = TorchDecoder(torch, cfg, tensors, torch.float32)

    def step(token: int, pos: int) -> np.ndarray:
        with torch.no_grad():
            t = torch.tensor([token], dtype=torch.long, device="cuda")
            return dec.step_eager(t, pos)[0].cpu().numpy()

    return step


# ----------------------------------------------------------------------------------------------
# check

@dataclass
class Dump:
    tokens: list
    logits: np.ndarray  # [steps, vocab] fp32
    config: dict


def read_dump(directory: str, vocab: int, max_steps: int | None) -> Dump:
    try:
        with open(os.path.join(directory, "tokens.json"), encoding="utf-8") as f:
            doc = json.load(f)
        tokens = [int(t) for t in doc["tokens"]]
    except (KeyError, TypeError, ValueError) as e:
        raise InputError(f"{directory}/tokens.json is malformed: {e}") from None
    path = os.path.join(directory, "logits.f32")
    size = os.path.getsize(path)
    if size % (4 * vocab):
        raise InputError(f"{path}: {size} bytes is not a whole number of {vocab}-float steps")
    steps = size // (4 * vocab)
    if max_steps is not None:
        steps = min(steps, max_steps)
    logits = np.fromfile(path, dtype="<f4", count=steps * vocab).reshape(steps, vocab)
    config = doc.get("config") if isinstance(doc.get("config"), dict) else {}
    return Dump(tokens, logits, config)


def warn_config_mismatch(dump_config: dict, cfg: Config) -> None:
    """Report keys that the dump's config and the weights' metadata share but disagree on."""
    for key, ours in cfg.to_metadata().items():
        if key not in dump_config:
            continue
        theirs = dump_config[key]
        try:
            same = float(theirs) == float(ours)
        except (TypeError, ValueError):
            same = str(theirs) == ours
        if not same:
            print(f"warning: dump config {key}={theirs} but the weights say {ours}")


@dataclass
class Comparison:
    label: str
    steps: int
    tokens_compared: int
    first_mismatch: tuple | None   # (index, reference, other)
    max_diff: float
    max_diff_step: int
    max_logit: float
    worst_step: int
    worst_diff: float
    worst_tol: float

    @property
    def tokens_equal(self) -> bool:
        return self.first_mismatch is None and self.tokens_compared >= self.steps

    @property
    def logits_pass(self) -> bool:
        return self.worst_diff <= self.worst_tol

    @property
    def passed(self) -> bool:
        return self.tokens_equal and self.logits_pass

    def describe(self) -> str:
        if self.first_mismatch is not None:
            i, ref, other = self.first_mismatch
            ref_name, _, other_name = self.label.partition(" vs ")
            toks = (f"first token mismatch at tokens[{i}] (argmax of step {i - 1}): "
                    f"{ref_name} {ref}, {other_name} {other}") if i else \
                   f"tokens[0] is {other}, generation starts from {ref}"
        elif self.tokens_compared < self.steps:
            toks = f"only {self.tokens_compared} tokens for {self.steps} steps"
        else:
            toks = f"tokens equal ({self.tokens_compared})"
        return (f"{self.label}: {toks}; max|diff| {self.max_diff:.3e} (step {self.max_diff_step}),"
                f" max|logit| {self.max_logit:.4g}; worst step {self.worst_step}: diff "
                f"{self.worst_diff:.3e} {'<=' if self.logits_pass else '>'} tol {self.worst_tol:.3e}")


def compare(label: str, ref_tokens, ref_logits, tokens, logits) -> Comparison:
    """Tokens must be equal where both exist (the other side needs at least one per step);
    logits pass when max|ref - other| <= LOGIT_RTOL * (1 + max|ref|) at every step."""
    steps = ref_logits.shape[0]
    n = min(len(ref_tokens), len(tokens), steps + 1)
    mismatch = next(((i, ref_tokens[i], tokens[i]) for i in range(n)
                     if ref_tokens[i] != tokens[i]), None)
    ref = ref_logits.astype(np.float64)
    diff = np.abs(ref - logits.astype(np.float64))
    diff[~np.isfinite(diff)] = np.inf  # NaN in either side must fail, not vanish in max()
    step_diff = diff.max(axis=1)
    step_max = np.abs(ref).max(axis=1)
    step_tol = LOGIT_RTOL * (1.0 + step_max)
    with np.errstate(invalid="ignore"):
        worst = int(np.argmax(step_diff / step_tol))
    return Comparison(label, steps, n, mismatch, float(step_diff.max()), int(np.argmax(step_diff)),
                      float(step_max.max()), worst, float(step_diff[worst]),
                      float(step_tol[worst]))


def summary_line(comparisons: list) -> str:
    ok = all(c.passed for c in comparisons)
    tokens_ok = all(c.tokens_equal for c in comparisons)
    worst = max(comparisons, key=lambda c: c.worst_diff / c.worst_tol)
    return (f"check: {'PASS' if ok else 'FAIL'} steps={comparisons[0].steps} "
            f"tokens_equal={'yes' if tokens_ok else 'no'} "
            f"max_abs_logit_diff={max(c.max_diff for c in comparisons):.3e} "
            f"max_abs_logit={max(c.max_logit for c in comparisons):.4g} "
            f"tolerance={LOGIT_RTOL:g}*(1+max_abs_logit) per step "
            f"worst_step={worst.worst_step} ({worst.worst_diff:.3e} vs {worst.worst_tol:.3e})")


def resolve_device(requested: str | None) -> str:
    if requested == "cpu":
        return "cpu"
    if requested is None:
        try:
            import_torch()
            return "cuda"
        except MissingDependency:
            return "cpu"
    import_torch()  # cuda or both: raises MissingDependency with one clear line
    return requested


def run_check(weights: str, dump_dir: str, steps: int | None = None,
              device: str | None = None) -> int:
    cfg, tensors = load_model(weights)
    device = resolve_device(device)
    dump = read_dump(dump_dir, cfg.vocab, steps)
    n = dump.logits.shape[0]
    if n == 0:
        raise InputError(f"{dump_dir}: no steps to check")
    if n > cfg.max_seq:
        raise InputError(f"{dump_dir}: {n} steps exceed max_seq {cfg.max_seq}")
    warn_config_mismatch(dump.config, cfg)
    print(f"model {cfg.name}: dim {cfg.dim}, layers {cfg.layers}, heads {cfg.heads}/"
          f"{cfg.kv_heads}, vocab {cfg.vocab}; {n} steps on {device}")
    runs = {}
    if device in ("cpu", "both"):
        runs["numpy"] = generate(NumpyDecoder(cfg, tensors).step, n, cfg.vocab)
    if device in ("cuda", "both"):
        runs["torch"] = generate(torch_fp32_step(cfg, tensors), n, cfg.vocab)
    comparisons = [compare(f"{name} vs dump", *run, dump.tokens, dump.logits)
                   for name, run in runs.items()]
    if len(runs) == 2:
        comparisons.append(compare("numpy vs torch", *runs["numpy"], *runs["torch"]))
    for c in comparisons:
        print(c.describe())
    print(summary_line(comparisons))
    return 0 if all(c.passed for c in comparisons) else 1


def cmd_check(args) -> int:
    return run_check(args.weights, args.dump, args.steps, args.device)


# ----------------------------------------------------------------------------------------------
# bench

class EagerRunner:
    """A Python loop over step_eager; the token stays on the GPU, the position is a Python int."""

    def __init__(self, torch, dec: TorchDecoder):
        self.torch, self.dec = torch, dec
        self.reset()

    def reset(self):
        self.dec.reset()
        self.tok, self.p = self.dec.token.clone(), 0

    def steps(self, n: int, record=None):
        for _ in range(n):
            self.tok = self.torch.argmax(self.dec.step_eager(self.tok, self.p), dim=-1)
            self.p += 1
            if record is not None:
                record.append(self.tok)


class GraphRunner:
    """One step_static captured with torch.cuda.graph; each replay decodes one token."""

    def __init__(self, torch, dec: TorchDecoder):
        self.dec = dec
        dec.reset()
        # Warm up on a side stream first (lazy cuBLAS/allocator setup must not be captured).
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(3):
                dec.step_static()
        torch.cuda.current_stream().wait_stream(side)
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph):
            dec.step_static()
        dec.reset()

    def reset(self):
        self.dec.reset()

    def steps(self, n: int, record=None):
        for _ in range(n):
            self.graph.replay()
            if record is not None:
                record.append(self.dec.token.clone())


class CompileRunner:
    """torch.compile(step_static, mode="reduce-overhead"): inductor kernels in CUDA graphs."""

    def __init__(self, torch, dec: TorchDecoder):
        self.torch, self.dec = torch, dec
        # The weights, cache, token and position keep their addresses across calls; saying so
        # lets the CUDA graphs use them in place instead of copying them in on every replay.
        for t in dec.persistent_tensors():
            torch._dynamo.mark_static_address(t)
        self.fn = torch.compile(dec.step_static, mode="reduce-overhead")
        dec.reset()

    def reset(self):
        self.dec.reset()

    def steps(self, n: int, record=None):
        for _ in range(n):
            self.torch.compiler.cudagraph_mark_step_begin()
            self.fn()
            if record is not None:
                record.append(self.dec.token.clone())


def kernels_per_token(torch, dec: TorchDecoder) -> int:
    """Device-side kernel launches of one eager step (with its argmax), memcpy/memset excluded."""
    from torch.profiler import ProfilerActivity, profile
    runner = EagerRunner(torch, dec)
    runner.steps(1)  # a first step outside the profile: lazy library initialisation is not a step
    torch.cuda.synchronize()
    with warnings.catch_warnings():
        # torch warns that a profile keeps only its last cycle; this one has a single cycle.
        warnings.simplefilter("ignore", UserWarning)
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            runner.steps(1)
            torch.cuda.synchronize()
    return sum(1 for e in prof.events()
               if e.device_type == torch.autograd.DeviceType.CUDA
               and "memcpy" not in e.name.lower() and "memset" not in e.name.lower())


def time_runner(torch, runner, tokens: int, warmup: int, reps: int) -> list:
    runner.reset()
    runner.steps(warmup)  # compile's CUDA graphs are recorded on the first calls: warmup >= 3
    rates = []
    for _ in range(reps):
        runner.reset()
        torch.cuda.synchronize()
        start = time.perf_counter()
        runner.steps(tokens)
        torch.cuda.synchronize()
        rates.append(tokens / (time.perf_counter() - start))
    return rates


def first_tokens(torch, runner, n: int) -> list:
    runner.reset()
    record = []
    runner.steps(n, record)
    return torch.cat(record).tolist()


def _first_line(e: Exception) -> str:
    """An exception as one line: torch's messages (compile's above all) run to many lines."""
    text = str(e).strip()
    return f"{e.__class__.__name__}: {text.splitlines()[0] if text else ''}"


def cmd_bench(args) -> int:
    torch = import_torch()
    cfg, tensors = load_model(args.weights)
    # Positions past max_seq would index outside the cache (a device-side assert that would
    # also end the later modes), so both counts are capped.
    tokens, warmup = min(args.tokens, cfg.max_seq), min(max(3, args.warmup), cfg.max_seq)
    if tokens < args.tokens or warmup < args.warmup:
        print(f"note: tokens and warmup capped at max_seq {cfg.max_seq}")
    reps = max(1, args.reps)
    print(f"# torch {torch.__version__}, {torch.cuda.get_device_name()}, model {cfg.name}, "
          f"fp16, {tokens} tokens x {reps} reps after {warmup} warmup")
    with torch.no_grad():
        dec = TorchDecoder(torch, cfg, tensors, torch.float16)
        try:
            print(f"torch,kernels_per_token,{kernels_per_token(torch, dec)}")
        except Exception as e:
            print(f"kernels_per_token: FAILED {_first_line(e)}")
        firsts = {}
        for mode, make in (("eager", EagerRunner), ("graph", GraphRunner),
                           ("compile", CompileRunner)):
            try:
                runner = make(torch, dec)
                rates = time_runner(torch, runner, tokens, warmup, reps)
                firsts[mode] = first_tokens(torch, runner, min(16, cfg.max_seq))
                print(f"torch,{mode},{min(rates):.1f},{statistics.median(rates):.1f},"
                      f"{max(rates):.1f}")
            except Exception as e:  # one mode failing must not lose the others' figures
                print(f"{mode}: FAILED {_first_line(e)}")
    for mode, toks in firsts.items():
        print(f"torch,first_tokens,{mode},{' '.join(map(str, toks))}")
    if len({tuple(t) for t in firsts.values()}) > 1:
        print("warning: the modes' first tokens differ (fp16 results may diverge)")
    return 0


# ----------------------------------------------------------------------------------------------
# selftest

def naive_logits(cfg: Config, tensors: dict, fed: list) -> np.ndarray:
    """MODEL.md's formulas written out literally in float64, head by head and pair by pair,
    teacher-forced with `fed`; a slow cross-check of the vectorised NumPy forward."""
    w = {name: tensors[name].astype(np.float64) for name, _ in tensor_layout(cfg)}
    hd, group = cfg.head_dim, cfg.heads // cfg.kv_heads

    def rms(v, weight):
        return v / math.sqrt(float(np.mean(v * v)) + cfg.norm_eps) * weight

    def rope(vec, heads, p):
        vec = vec.copy()
        for h in range(heads):
            for i in range(hd // 2):
                a = p * cfg.rope_theta ** (-2.0 * i / hd)
                x0, x1 = vec[h * hd + 2 * i], vec[h * hd + 2 * i + 1]
                vec[h * hd + 2 * i] = x0 * math.cos(a) - x1 * math.sin(a)
                vec[h * hd + 2 * i + 1] = x0 * math.sin(a) + x1 * math.cos(a)
        return vec

    kc = [[] for _ in range(cfg.layers)]
    vc = [[] for _ in range(cfg.layers)]
    out = []
    for p, t in enumerate(fed):
        x = w["tok_embeddings.weight"][t]
        for l in range(cfg.layers):
            pre = f"layers.{l}."
            xn = rms(x, w[pre + "attention_norm.weight"])
            q = rope(w[pre + "attention.wq.weight"] @ xn, cfg.heads, p)
            kc[l].append(rope(w[pre + "attention.wk.weight"] @ xn, cfg.kv_heads, p))
            vc[l].append(w[pre + "attention.wv.weight"] @ xn)
            att = np.zeros(cfg.heads * hd)
            for h in range(cfg.heads):
                g = h // group
                s = [float(q[h * hd:(h + 1) * hd] @ kc[l][j][g * hd:(g + 1) * hd]) / math.sqrt(hd)
                     for j in range(p + 1)]
                e = [math.exp(v - max(s)) for v in s]
                for j in range(p + 1):
                    att[h * hd:(h + 1) * hd] += e[j] / sum(e) * vc[l][j][g * hd:(g + 1) * hd]
            x = x + w[pre + "attention.wo.weight"] @ att
            xn = rms(x, w[pre + "ffn_norm.weight"])
            z = w[pre + "feed_forward.w1.weight"] @ xn
            x = x + w[pre + "feed_forward.w2.weight"] @ (
                z / (1 + np.exp(-z)) * (w[pre + "feed_forward.w3.weight"] @ xn))
        out.append(w["output.weight"] @ rms(x, w["norm.weight"]))
    return np.array(out)


def write_dump(directory: str, cfg: Config, tokens: list, logits: np.ndarray) -> None:
    """The engine's dump format: tokens.json and logits.f32 (little-endian fp32 [steps, vocab])."""
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "tokens.json"), "w", encoding="utf-8") as f:
        json.dump({"config": cfg.to_metadata(), "tokens": list(tokens)}, f)
    np.ascontiguousarray(logits, dtype="<f4").tofile(os.path.join(directory, "logits.f32"))


def _expect(what: str, code: int, expected: int) -> bool:
    ok = code == expected
    print(f"selftest: {'ok  ' if ok else 'BAD '} {what}: exit code {code}, expected {expected}")
    return ok


def cmd_selftest(args) -> int:
    cfg, steps, seed = Config(**TINY), 8, args.seed
    ok = True
    with tempfile.TemporaryDirectory(prefix="llama_reference_") as tmp:
        weights = os.path.join(tmp, "tiny.safetensors")
        original = random_model(cfg, seed)
        write_safetensors(weights, original, cfg.to_metadata(seed))

        # The file round-trips: padded header, same config, same tensors in the same order.
        with open(weights, "rb") as f:
            (n,) = struct.unpack("<Q", f.read(8))
        metadata, _ = read_safetensors(weights)
        cfg2, tensors = load_model(weights)
        order = sorted(tensors, key=lambda k: tensors[k].ctypes.data)
        same = (n % 8 == 0 and cfg2 == cfg and metadata.get("seed") == str(seed)
                and order == [name for name, _ in tensor_layout(cfg)]
                and all(np.array_equal(original[k].view(np.uint16), tensors[k].view(np.uint16))
                        for k in original))
        print(f"selftest: {'ok  ' if same else 'BAD '} safetensors round trip "
              f"({len(tensors)} tensors, header {n} bytes)")
        ok &= same

        tokens, logits = generate(NumpyDecoder(cfg2, tensors).step, steps, cfg.vocab)
        print(f"selftest: tokens {tokens}")
        naive = naive_logits(cfg2, tensors, tokens[:steps])
        err = float(np.abs(naive - logits).max())
        lim = 1e-4 * (1 + float(np.abs(naive).max()))
        print(f"selftest: {'ok  ' if err <= lim else 'BAD '} vectorised vs literal float64 "
              f"forward: max|diff| {err:.3e} (limit {lim:.3e})")
        ok &= err <= lim

        good = os.path.join(tmp, "dump")
        write_dump(good, cfg, tokens, logits)
        ok &= _expect("check on the run's own dump", run_check(weights, good, device="cpu"), 0)

        short = os.path.join(tmp, "dump_short_tokens")  # tokens fed only (no final argmax)
        write_dump(short, cfg, tokens[:steps], logits)
        ok &= _expect("check on a dump without the final argmax",
                      run_check(weights, short, device="cpu"), 0)
        ok &= _expect("check --steps 5", run_check(weights, good, steps=5, device="cpu"), 0)

        bad_logit = logits.copy()
        step, index = 5, 17
        bad_logit[step, index] += 2 * LOGIT_RTOL * (1 + np.abs(logits[step]).max())
        write_dump(os.path.join(tmp, "dump_logit"), cfg, tokens, bad_logit)
        ok &= _expect("check with one logit off by 2x the tolerance",
                      run_check(weights, os.path.join(tmp, "dump_logit"), device="cpu"), 1)

        bad_tokens = list(tokens)
        bad_tokens[3] = (bad_tokens[3] + 1) % cfg.vocab
        write_dump(os.path.join(tmp, "dump_token"), cfg, bad_tokens, logits)
        ok &= _expect("check with one token changed",
                      run_check(weights, os.path.join(tmp, "dump_token"), device="cpu"), 1)
    print(f"selftest: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


# ----------------------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("check", help="compare the engine's dump with this reference")
    p.add_argument("--weights", required=True, help="the model's .safetensors file")
    p.add_argument("--dump", required=True, help="directory with tokens.json and logits.f32")
    p.add_argument("--steps", type=int, help="check only the first N steps of the dump")
    p.add_argument("--device", choices=("cpu", "cuda", "both"),
                   help="cpu: NumPy; cuda: PyTorch float32 on the GPU; both: both, also compared "
                        "with each other (default: cuda when PyTorch has CUDA, else cpu)")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("bench", help="time fp16 PyTorch decode: eager, CUDA graph, compile")
    p.add_argument("--weights", required=True, help="the model's .safetensors file")
    p.add_argument("--tokens", type=int, default=256, help="tokens per repetition (default 256)")
    p.add_argument("--warmup", type=int, default=32, help="warm-up tokens per mode (default 32)")
    p.add_argument("--reps", type=int, default=5, help="timed repetitions per mode (default 5)")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("selftest", help="check this script on a random tiny model (NumPy only)")
    p.add_argument("--seed", type=int, default=1234, help="seed of the random model")
    p.set_defaults(func=cmd_selftest)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (InputError, MissingDependency) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # a missing or unreadable file: one line, no traceback
        where = f"{e.filename}: " if e.filename else ""
        print(f"error: {where}{e.strerror or e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
