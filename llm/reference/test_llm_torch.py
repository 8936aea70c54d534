# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
"""Unit tests of llm_torch.py's pure parts (standard library only: llm_torch imports PyTorch and
transformers inside main alone) and a compile check of the script."""
import os
import py_compile
import tempfile
import time
import unittest

import checkpoint_plan as plan
import llm_torch


class LlmTorchTests(unittest.TestCase):
    def test_the_weights_a_step_reads_are_llama_32_1bs_parameters_in_bf16(self):
        # Llama-3.2-1B has 1,235,814,400 parameters, its embedding tied to the output projection:
        # every one is read by a decode step (the tied matrix once, as the output projection).
        self.assertEqual(2 * 1235814400, llm_torch.layer_bytes(plan.LLAMA_32_1B, 2))

    def test_a_token_of_kv_is_every_layers_key_and_value_heads(self):
        # 16 layers x (k + v) x 8 heads x 64 x 2 bytes
        self.assertEqual(32768, llm_torch.kv_bytes_per_token(plan.LLAMA_32_1B, 2))

    def test_prompts_are_reproducible_per_round_and_inside_the_vocabulary(self):
        a = llm_torch.prompts(40, 8, 512, 128256, 0)
        self.assertEqual(a, llm_torch.prompts(40, 8, 512, 128256, 0))
        self.assertNotEqual(a, llm_torch.prompts(40, 8, 512, 128256, 1))
        self.assertEqual([512] * 8, [len(p) for p in a])
        self.assertTrue(all(0 <= t < 128256 for p in a for t in p))

    def test_a_round_is_the_long_call_less_the_short_one(self):
        rate, step_ms = llm_torch.round_figures(32, 64, 1.5, 0.5)
        self.assertAlmostEqual(32 * 64 / 1.0, rate)
        self.assertAlmostEqual(1000.0 / 64, step_ms)
        with self.assertRaises(ValueError):
            llm_torch.round_figures(32, 64, 0.5, 0.5)

    def test_the_decode_line_has_llmbenchs_keys_in_its_order(self):
        args = llm_torch.parse_args(["--model", "/m", "--steps", "64", "--context", "512"])
        text = llm_torch.decode_line("transformers-static-compile", 8, args, [100.0, 300.0, 200.0],
                                     2.0, plan.LLAMA_32_1B, 2)
        fields = text.split(",")
        self.assertEqual("decode", fields[0])
        values = dict(f.split("=", 1) for f in fields[1:])
        keys = [f.split("=", 1)[0] for f in fields[1:]]
        self.assertEqual(["engine", "batch", "ctx", "steps", "rounds", "tok_s", "min", "max",
                          "step_ms", "mean_len", "weights_bytes", "kv_bytes", "step_bytes",
                          "gb_s", "of_bandwidth", "bandwidth_tbs"], keys[:16])
        self.assertEqual(200.0, float(values["tok_s"]))
        self.assertEqual((100.0, 300.0), (float(values["min"]), float(values["max"])))
        self.assertEqual(512 + 1 + 32, float(values["mean_len"]))
        self.assertEqual(int(values["weights_bytes"]) + int(values["kv_bytes"]),
                         int(values["step_bytes"]))
        self.assertAlmostEqual(int(values["step_bytes"]) / 2e-3 / 1e9, float(values["gb_s"]),
                               delta=0.01)

    def test_arguments_refuse_an_unknown_mode_and_bad_batches(self):
        with self.assertRaises(SystemExit):
            llm_torch.parse_args(["--model", "/m", "--modes", "jit"])
        with self.assertRaises(SystemExit):
            llm_torch.parse_args(["--model", "/m", "--batches", "1,x"])
        with self.assertRaises(SystemExit):
            llm_torch.parse_args(["--model", "/m", "--batches", "0"])
        args = llm_torch.parse_args(["--model", "/m", "--modes", "compile,eager"])
        self.assertEqual(["compile", "eager"], args.modes)
        self.assertEqual([1, 8, 32, 64, 128], args.batches)

    def test_a_limit_cuts_a_configuration_and_is_then_off(self):
        with self.assertRaises(llm_torch.Cut):
            with llm_torch.Limit(0.05):
                time.sleep(1)
        with llm_torch.Limit(5):
            pass
        time.sleep(0.01)  # no alarm left behind

    def test_llm_torch_compiles(self):
        here = os.path.dirname(os.path.abspath(__file__))
        with tempfile.TemporaryDirectory() as out:
            py_compile.compile(os.path.join(here, "llm_torch.py"),
                               cfile=os.path.join(out, "llm_torch.pyc"), doraise=True)


if __name__ == "__main__":
    unittest.main()
