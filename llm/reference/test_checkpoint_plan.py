# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
"""Unit tests of checkpoint_plan.py (standard library only) and a compile check of
make_checkpoint.py, which needs PyTorch to run."""
import os
import py_compile
import tempfile
import unittest

import checkpoint_plan as plan


class CheckpointPlanTests(unittest.TestCase):
    def test_the_full_config_is_llama_32_1b(self):
        c = plan.model_config(False, 0.05, 1, 2, 3)
        self.assertEqual(2048, c["hidden_size"])
        self.assertEqual(16, c["num_hidden_layers"])
        self.assertEqual(8, c["num_key_value_heads"])
        self.assertEqual(64, c["head_dim"])
        self.assertEqual(128256, c["vocab_size"])
        self.assertEqual("llama3", c["rope_scaling"]["rope_type"])
        self.assertEqual(32.0, c["rope_scaling"]["factor"])
        self.assertEqual(8192, c["rope_scaling"]["original_max_position_embeddings"])
        self.assertTrue(c["tie_word_embeddings"])
        self.assertEqual((1, 2, 3), (c["bos_token_id"], c["eos_token_id"], c["pad_token_id"]))

    def test_the_small_config_keeps_the_features_and_does_not_alias_the_full_one(self):
        c = plan.model_config(True, 0.05, 1, 2, 3)
        c["rope_scaling"]["factor"] = 1.0
        self.assertEqual(32.0, plan.LLAMA_32_1B["rope_scaling"]["factor"])
        self.assertEqual(0, c["num_attention_heads"] % c["num_key_value_heads"])
        self.assertEqual(64, plan.SMALL["rope_scaling"]["original_max_position_embeddings"])

    def test_prompts_are_reproducible_of_the_given_lengths_and_avoid_the_special_ids(self):
        a = plan.prompts(7, 50, avoid={0, 1, 2})
        self.assertEqual(a, plan.prompts(7, 50, avoid={0, 1, 2}))
        self.assertNotEqual(a, plan.prompts(8, 50, avoid={0, 1, 2}))
        self.assertEqual(list(plan.PROMPT_LENGTHS), [len(p) for p in a])
        self.assertTrue(all(3 <= t < 50 for p in a for t in p))
        self.assertEqual(8, len(set(map(len, a))))

    def test_prompts_refuse_an_empty_one(self):
        with self.assertRaises(ValueError):
            plan.prompts(1, 10, lengths=(0,))

    def test_left_padding_puts_the_pads_and_zero_mask_first(self):
        ids, mask = plan.left_pad([[5], [1, 2, 3]], 9)
        self.assertEqual([[9, 9, 5], [1, 2, 3]], ids)
        self.assertEqual([[0, 0, 1], [1, 1, 1]], mask)

    def test_top_two_gap(self):
        self.assertEqual(2.0, plan.top_two_gap([1.0, 5.0, 3.0]))
        self.assertEqual(0.0, plan.top_two_gap([4.0, 4.0, 1.0]))
        self.assertEqual(1.5, plan.top_two_gap([3.5, 2.0]))

    def test_first_difference(self):
        self.assertIsNone(plan.first_difference([1, 2], [1, 2]))
        self.assertEqual(1, plan.first_difference([1, 2], [1, 3]))
        self.assertEqual(2, plan.first_difference([1, 2], [1, 2, 3]))

    def test_the_training_text_has_multibyte_characters(self):
        text = plan.training_text(3, lines=200)
        self.assertEqual(200, len(text))
        self.assertTrue(any(len(line.encode("utf-8")) > len(line) for line in text))

    def test_make_checkpoint_compiles(self):
        here = os.path.dirname(os.path.abspath(__file__))
        with tempfile.TemporaryDirectory() as tmp:
            py_compile.compile(
                os.path.join(here, "make_checkpoint.py"),
                cfile=os.path.join(tmp, "make_checkpoint.pyc"),
                doraise=True)


if __name__ == "__main__":
    unittest.main()
