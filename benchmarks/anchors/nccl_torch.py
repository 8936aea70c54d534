#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
"""PyTorch's NCCL beside cuda.graph.benchmarks.NcclBench: the same sizes and protocol.

One process per visible GPU (torch.multiprocessing), each rank all-reduces an fp32 tensor in place
k times per round, eagerly and as a captured CUDA graph replayed; prints microseconds per
all-reduce (min, median, max over rounds), algorithm and bus bandwidth at the median, rank 0 only.
NVLink multicast stays off (NCCL_NVLS_ENABLE=0), as in every process of the project's runs.
"""
import os
import sys
import time

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

SIZES = [8, 4 << 10, 64 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20, 256 << 20, 1 << 30]


def repeats(nbytes):
    return 50 if nbytes <= 1 << 20 else 10 if nbytes <= 1 << 26 else 3


def rank_main(rank, world, rounds, port):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world, device_id=torch.device("cuda", rank))
    if rank == 0:
        print(f"# torch {torch.__version__} NCCL {'.'.join(map(str, torch.cuda.nccl.version()))}"
              f" over {world} x {torch.cuda.get_device_name(0)}")
        print("impl,mode,ranks,bytes,us_min,us_median,us_max,algbw_GBps,busbw_GBps")
    for nbytes in SIZES:
        k = repeats(nbytes)
        x = torch.ones(nbytes // 4, dtype=torch.float32, device="cuda")

        def step():
            for _ in range(k):
                dist.all_reduce(x)

        step()
        torch.cuda.synchronize()
        eager = []
        for _ in range(rounds):
            dist.barrier()
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            step()
            torch.cuda.synchronize()
            eager.append((time.perf_counter() - t0) * 1e6 / k)
        g = torch.cuda.CUDAGraph()
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            step()
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()
        with torch.cuda.graph(g):
            step()
        g.replay()
        torch.cuda.synchronize()
        graph = []
        for _ in range(rounds):
            dist.barrier()
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            g.replay()
            torch.cuda.synchronize()
            graph.append((time.perf_counter() - t0) * 1e6 / k)
        if rank == 0:
            for mode, us in (("eager", eager), ("graph", graph)):
                s = sorted(us)
                med = s[len(s) // 2]
                alg = nbytes / (med * 1e-6) / 1e9
                bus = alg * 2 * (world - 1) / world
                print(f"torch,{mode},{world},{nbytes},{s[0]:.2f},{med:.2f},{s[-1]:.2f},{alg:.2f},{bus:.2f}",
                      flush=True)
        del g
        del x
        torch.cuda.empty_cache()
    dist.destroy_process_group()


if __name__ == "__main__":
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    world = torch.cuda.device_count()
    mp.spawn(rank_main, args=(world, rounds, 29500 + os.getpid() % 1000), nprocs=world, join=True)
