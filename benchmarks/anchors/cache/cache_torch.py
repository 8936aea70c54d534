# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
"""Issue 25's PyTorch anchor for the graph cache: the step of CacheBench (six layers of the 384-wide
encoder's four projections, fp16, over b rows) at vLLM's 67 batch sizes, under
torch.compile(mode="reduce-overhead", dynamic=True): CUDAGraph Trees record one graph per distinct
batch size. Prints CSV rows: the compile (first size), the recording of the other 66 sizes, the
memory PyTorch's allocator reserved for them, and the cost of a call that replays a recorded size
against torch.cuda.CUDAGraph.replay() of the same step captured by hand, interleaved rounds.

Run: python3 cache_torch.py [rounds]   (on the GPU host)
"""
import statistics
import sys
import time

import torch
import torch.nn.functional as F

WIDTH, QKV, FFN, LAYERS = 384, 1152, 1536, 6
dev = "cuda"
torch.manual_seed(0)
half = torch.float16
w_qkv = torch.zeros(QKV, WIDTH, dtype=half, device=dev)
w_o = torch.zeros(WIDTH, WIDTH, dtype=half, device=dev)
w_up = torch.zeros(FFN, WIDTH, dtype=half, device=dev)
b_up = torch.zeros(FFN, dtype=half, device=dev)
w_down = torch.zeros(WIDTH, FFN, dtype=half, device=dev)


def step(x):
    for _ in range(LAYERS):
        q = x @ w_qkv.t()  # noqa: F841 (its product is part of the step's work)
        o = x @ w_o.t()
        h = F.gelu(o @ w_up.t() + b_up, approximate="tanh")
        x = h @ w_down.t() + o
    return x


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    buckets = [1, 2, 4] + list(range(8, 513, 8))
    x = torch.zeros(512, WIDTH, dtype=half, device=dev)
    print(f"# torch {torch.__version__} on {torch.cuda.get_device_name()}")
    compiled = torch.compile(step, mode="reduce-overhead", dynamic=True)
    torch.cuda.synchronize()
    reserved0 = torch.cuda.memory_reserved()
    t0 = time.perf_counter()
    for _ in range(3):  # warm-up runs, then the recording
        compiled(x[: buckets[0]])
    torch.cuda.synchronize()
    first = time.perf_counter() - t0
    t1 = time.perf_counter()
    for b in buckets[1:]:
        for _ in range(3):
            compiled(x[:b])
    torch.cuda.synchronize()
    rest = time.perf_counter() - t1
    reserved = torch.cuda.memory_reserved() - reserved0
    print("impl,what,value,unit")
    print(f"torch,compile_and_record_first_size,{first * 1e3:.1f},ms")
    print(f"torch,record_other_{len(buckets) - 1}_sizes,{rest * 1e3:.1f},ms")
    print(f"torch,allocator_reserved_for_the_graphs,{reserved / 2**20:.1f},MiB")

    # The same step captured by hand at 32 rows, the anchor of a plain replay.
    xs = x[:32]
    static = torch.cuda.Stream()
    with torch.cuda.stream(static):
        for _ in range(3):
            step(xs)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        step(xs)
    torch.cuda.synchronize()

    launches = 2000

    def time_compiled():
        t = time.perf_counter()
        for _ in range(launches):
            compiled(xs)
            torch.cuda.synchronize()
        return (time.perf_counter() - t) * 1e6 / launches

    def time_plain():
        t = time.perf_counter()
        for _ in range(launches):
            graph.replay()
            torch.cuda.synchronize()
        return (time.perf_counter() - t) * 1e6 / launches

    for _ in range(3):
        time_compiled()
        time_plain()
    hit, plain, ratio = [], [], []
    for _ in range(rounds):
        p = time_plain()
        h = time_compiled()
        plain.append(p)
        hit.append(h)
        ratio.append(h / p)

    def q(v, f):
        v = sorted(v)
        return v[int(f * (len(v) - 1))]

    for name, v in (("plain_graph_replay_us", plain), ("compiled_call_us", hit),
                    ("ratio_call_to_replay", ratio)):
        print(f"torch,{name},{statistics.median(v):.4f},median;p10={q(v, 0.1):.4f};p90={q(v, 0.9):.4f}")


if __name__ == "__main__":
    main()
