# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
"""floor_check.py fails on NaN and on embeddings of the wrong length, as FloorCheckTests holds
FloorCheck.java to. Run: python3 -m unittest test_floor_check (from this folder; the build runs it
through FloorCheckScriptTests)."""
import math
import unittest

from floor_check import FloorCheck, worst

NAN = float("nan")


class FloorCheckTest(unittest.TestCase):
    def test_a_nan_cosine_fails_where_a_worst_kept_with_less_than_printed_pass(self):
        check = FloorCheck(0.99999).add([1.0, 1.0], [1.0, 1.0]).add([NAN, 1.0], [NAN, 1.0], offset=2)
        self.assertFalse(check.passed)
        self.assertTrue(math.isnan(check.worst_cosine))
        self.assertEqual(2, check.worst_cosine_at)
        self.assertTrue(check.columns().startswith("worst_cosine,nan,at,2,floor,0.99999,"), check.columns())
        self.assertTrue(check.columns().endswith(",FAIL"), check.columns())

    def test_a_nan_after_a_lower_cosine_is_still_the_worst(self):
        check = FloorCheck(-1.0).add([0.1, NAN, 0.05], [1.0, 1.0, 1.0])
        self.assertFalse(check.passed, "a floor of -1 passes every cosine but NaN")
        self.assertEqual(1, check.worst_cosine_at)

    def test_a_nan_norm_fails_though_every_cosine_is_1(self):
        check = FloorCheck(0.99999).add([1.0, 1.0], [1.0, NAN])
        self.assertFalse(check.passed)
        self.assertEqual(1, check.worst_norm_at)

    def test_embeddings_half_as_long_fail_on_the_norm(self):
        check = FloorCheck(0.99999).add([1.0, 1.0], [0.5, 0.5])
        self.assertFalse(check.passed)
        self.assertEqual(0.5, check.worst_norm_error)

    def test_unit_embeddings_at_the_floor_pass_and_just_below_fail(self):
        self.assertTrue(FloorCheck(0.99999).add([1.0, 0.99999], [1.0, 1.0 + 9e-6]).passed)
        self.assertFalse(FloorCheck(0.99999).add([1.0, 0.9999899], [1.0, 1.0]).passed)
        self.assertFalse(FloorCheck(0.99999).add([1.0], [1.0 + 2e-5]).passed)

    def test_a_check_of_nothing_does_not_pass(self):
        self.assertFalse(FloorCheck(0.99999).passed)
        self.assertFalse(FloorCheck(0.99999).add([], []).passed)

    def test_worst_is_the_first_nan_or_the_smallest(self):
        self.assertEqual((0.5, 2), worst([1.0, 0.9, 0.5, 0.7]))
        w, at = worst([1.0, 0.2, NAN, 0.1, NAN])
        self.assertTrue(math.isnan(w))
        self.assertEqual(2, at)
        self.assertEqual((math.inf, -1), worst([]))


if __name__ == "__main__":
    unittest.main()
