# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
"""PyTorch anchor for issue 24: one linear-layer matmul per step, eager and replayed from a CUDA
graph, with the protocol of matmul_bench.cu: Y[rows x out] = X[rows x in] @ W[out x in]^T in
fp16 (PyTorch's default cuBLAS path, fp32 accumulation), 10 warm-up steps, then SAMPLES samples of
REPEATS back-to-back steps timed between two CUDA events; per matmul in microseconds, the median
and the 10th and 90th percentiles. A graph step is one replay of a graph that holds one matmul
(captured with torch.cuda.graph after a warm-up on a side stream, as PyTorch documents).

Run: python3 matmul_torch.py [-n SAMPLES] [-r REPEATS] [INxOUTxROWS ...]
"""
import argparse
import statistics

import torch


def built_in():
    shapes = []
    for i, o in [(2048, 2048), (2048, 512), (2048, 8192), (8192, 2048), (2048, 128256)]:
        for b in (1, 8, 32, 128):
            shapes.append((f"llama_{i}to{o}_b{b}", i, o, b))
    for i, o in [(384, 1152), (384, 384), (384, 1536), (1536, 384)]:
        for r in (16, 256, 4096, 32768):
            shapes.append((f"encoder_{i}to{o}_r{r}", i, o, r))
    return shapes


def parse(text):
    i, o, r = (int(v) for v in text.split("x"))
    return (f"{i}x{o}x{r}", i, o, r)


def sample(step, samples, repeats):
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    for _ in range(10):
        step()
    times = []
    for _ in range(samples):
        start.record()
        for _ in range(repeats):
            step()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) * 1000.0 / repeats)
    times.sort()
    return (
        statistics.median(times),
        times[int(0.1 * (len(times) - 1))],
        times[int(0.9 * (len(times) - 1))],
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=100)
    parser.add_argument("-r", type=int, default=20)
    parser.add_argument("shapes", nargs="*")
    args = parser.parse_args()
    shapes = [parse(s) for s in args.shapes] if args.shapes else built_in()
    torch.manual_seed(0)
    print("impl,shape,in,out,rows,mode,us_per_matmul_median,us_p10,us_p90,samples,repeats")
    for name, i, o, r in shapes:
        x = (torch.randint(-64, 65, (r, i), device="cuda") / 64).half()
        w = (torch.randint(-64, 65, (o, i), device="cuda") / 64).half()
        y = torch.empty((r, o), device="cuda", dtype=torch.half)

        def eager():
            torch.matmul(x, w.t(), out=y)

        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(3):
                eager()
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            eager()
        for mode, step in (("eager", eager), ("graph", graph.replay)):
            p50, p10, p90 = sample(step, args.n, args.r)
            print(f"torch,{name},{i},{o},{r},{mode},{p50:.3f},{p10:.3f},{p90:.3f},{args.n},{args.r}")
        del graph


if __name__ == "__main__":
    main()
