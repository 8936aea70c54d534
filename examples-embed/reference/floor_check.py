# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
"""The check behind a published floor, as FloorCheck.java makes it: the worst cosine of our
embeddings to the anchor's against the floor, and the worst distance of our embeddings' L2 norms
from 1 (a cosine is blind to scale). NaN fails it: NaN never compares smaller, so a worst kept with
`if c < worst` (or Python's min, or a tensor's min before .item() compared so) can stay at its start
and print PASS over NaN embeddings; here the first NaN becomes the worst and the verdict asks
`worst >= floor`, false for NaN. A check of nothing does not pass either.

Standard library only, so that its tests run where PyTorch is not installed
(FloorCheckScriptTests runs them from the build).
"""
import math

NORM_TOLERANCE = 1e-5  # as FloorCheck.NORM_TOLERANCE: see there


class FloorCheck:
    def __init__(self, floor):
        self.floor = floor
        self.count = 0
        self.worst_cosine, self.worst_cosine_at = math.inf, -1
        self.worst_norm_error, self.worst_norm_at = 0.0, -1

    def add(self, cosines, norms, offset=0):
        """Takes a batch: each embedding's cosine to its anchor and its norm (sequences of floats),
        the first at index `offset` of the whole."""
        if len(cosines) != len(norms):
            raise ValueError(f"FloorCheck.add: {len(cosines)} cosines and {len(norms)} norms; "
                             "pass one of each per embedding")
        for k, (c, n) in enumerate(zip(cosines, norms)):
            c, e = float(c), abs(float(n) - 1.0)
            # not (c >= worst) holds for NaN, which then keeps the place.
            if not math.isnan(self.worst_cosine) and not c >= self.worst_cosine:
                self.worst_cosine, self.worst_cosine_at = c, offset + k
            if not math.isnan(self.worst_norm_error) and not e <= self.worst_norm_error:
                self.worst_norm_error, self.worst_norm_at = e, offset + k
        self.count += len(cosines)
        return self

    @property
    def passed(self):
        return (self.count > 0 and self.worst_cosine >= self.floor
                and self.worst_norm_error <= NORM_TOLERANCE)

    def columns(self):
        """worst_cosine,W,at,I,floor,F,worst_norm_error,E,at,J,PASS (as FloorCheck.columns)."""
        return (f"worst_cosine,{self.worst_cosine:.9f},at,{self.worst_cosine_at},floor,{self.floor},"
                f"worst_norm_error,{self.worst_norm_error:.2e},at,{self.worst_norm_at},"
                f"{'PASS' if self.passed else 'FAIL'}")


def worst(values):
    """The smallest of `values` and its index, the first NaN if there is one; (inf, -1) if none."""
    w, at = math.inf, -1
    for i, v in enumerate(values):
        v = float(v)
        if not math.isnan(w) and not v >= w:
            w, at = v, i
    return w, at
