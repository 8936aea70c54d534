# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
"""anchor_plan.py picks what EmbedBench picks and plans what the pipeline runs; minilm_torch.py
finds its imports where bench.sh runs it. Run: python3 -m unittest test_anchor_plan (from this
folder; the build runs it through TorchAnchorScriptTests)."""
import os
import subprocess
import sys
import tempfile
import unittest

import anchor_plan as plan

HERE = os.path.dirname(os.path.abspath(__file__))


class QueriesTest(unittest.TestCase):
    def test_queries_are_the_first_200_sentences_of_6_to_24_words_in_corpus_order(self):
        corpus = []
        for i in range(400):
            words = 3 + i % 30  # 3 to 32 words
            corpus.append(" ".join(f"w{i}" for _ in range(words)))
        queries = plan.select_queries(corpus)
        self.assertEqual(200, len(queries))
        expected = [s for s in corpus if 6 <= len(s.split()) <= 24][:200]
        self.assertEqual(expected, queries)
        self.assertEqual(6, min(len(q.split()) for q in queries))
        self.assertEqual(24, max(len(q.split()) for q in queries))

    def test_words_count_as_javas_split_at_one_space_does(self):
        # Java's "a  b".split(" ") is [a, "", b]: a double space makes an empty word.
        self.assertEqual(3, plan.java_word_count("a  b"))
        self.assertEqual(2, plan.java_word_count(" a"))  # a leading empty word stays
        self.assertEqual(1, plan.java_word_count("a   "))  # trailing ones go
        self.assertEqual(0, plan.java_word_count("   "))
        self.assertEqual(1, plan.java_word_count(""))
        self.assertEqual(1, plan.java_word_count("a\tb"))  # only spaces split
        # so a five-word sentence with a double space is a query, as in EmbedBench
        self.assertEqual(["one two  three four five"],
                         plan.select_queries(["one two three four five", "one two  three four five"]))

    def test_the_corpus_is_its_first_non_blank_lines_as_javas_read_all_lines_splits_them(self):
        text = "a b\r\n \t\nc d\re f\u2028g\n\u00a0\n\u001c\nlast"
        # \u2028 ends no line for Java; \u00a0 is not blank for Java, \u001c is
        self.assertEqual(["a b", "c d", "e f\u2028g", "\u00a0", "last"],
                         plan.read_sentences(text, 100))
        self.assertEqual(["a b", "c d"], plan.read_sentences(text, 2))
        self.assertEqual(["x"], plan.read_sentences("x\n", 10))


class BucketsTest(unittest.TestCase):
    def test_the_length_buckets_are_gpu_encoders_defaults_for_128_tokens(self):
        self.assertEqual([16, 32, 64, 128], plan.LENGTH_BUCKETS)
        self.assertEqual([16, 32, 64, 128, 256, 384, 512], plan.java_buckets((16, 32, 64), 128, 512))
        self.assertEqual([16, 20], plan.java_buckets((16, 32, 64), 128, 20))

    def test_a_query_pads_to_the_smallest_bucket_that_holds_it(self):
        self.assertEqual(16, plan.cover(plan.LENGTH_BUCKETS, 1))
        self.assertEqual(16, plan.cover(plan.LENGTH_BUCKETS, 16))
        self.assertEqual(32, plan.cover(plan.LENGTH_BUCKETS, 17))
        self.assertEqual(128, plan.cover(plan.LENGTH_BUCKETS, 128))
        with self.assertRaisesRegex(ValueError, "129 tokens exceed the largest bucket 128"):
            plan.cover(plan.LENGTH_BUCKETS, 129)
        with self.assertRaisesRegex(ValueError, "0 tokens"):
            plan.cover(plan.LENGTH_BUCKETS, 0)
        self.assertEqual("16:2/32:1/128:1", plan.bucket_columns([3, 16, 17, 100]))


class BatchesTest(unittest.TestCase):
    def test_batches_run_longest_first_each_index_once_ties_in_corpus_order(self):
        lengths = [5, 9, 5, 12, 1, 9, 7]
        order, runs = plan.sorted_batches(lengths, 3)
        self.assertEqual([3, 1, 5, 6, 0, 2, 4], order)
        self.assertEqual([(0, 3), (3, 6), (6, 7)], runs)
        self.assertEqual(sorted(range(len(lengths))), sorted(order))
        # each run pads to its longest: 3*12 + 3*7 + 1*1
        self.assertEqual(58, plan.padded_tokens(lengths, order, runs))
        with self.assertRaisesRegex(ValueError, "batch 0"):
            plan.sorted_batches(lengths, 0)

    def test_sorting_pads_fewer_tokens_than_corpus_order(self):
        lengths = [40, 3, 40, 3, 40, 3]
        order, runs = plan.sorted_batches(lengths, 2)
        unsorted = list(range(len(lengths)))
        self.assertEqual(6 * 40, plan.padded_tokens(lengths, unsorted, runs))
        self.assertEqual(4 * 40 + 2 * 3, plan.padded_tokens(lengths, order, runs))


class HistogramTest(unittest.TestCase):
    def test_each_length_lands_in_one_bin_the_edges_included_and_over_128_counted(self):
        lengths = [1, 16, 17, 32, 33, 64, 65, 128, 129, 500]
        self.assertEqual([2, 2, 2, 2, 2], plan.histogram(lengths))
        self.assertEqual("1-16,2,17-32,2,33-64,2,65-128,2,>128,2", plan.histogram_columns(lengths))
        self.assertEqual(len(lengths), sum(plan.histogram(lengths)))
        with self.assertRaisesRegex(ValueError, "a length of 0"):
            plan.histogram([0])


class TargetQueriesTest(unittest.TestCase):
    def test_the_targets_queries_are_those_of_8_to_32_tokens_the_edges_included(self):
        self.assertEqual([1, 2, 4], plan.target_queries([7, 8, 32, 33, 20, 119]))
        self.assertEqual([], plan.target_queries([]))


class PercentilesTest(unittest.TestCase):
    def test_p50_and_p99_are_the_elements_embed_bench_takes(self):
        micros = list(range(2000, 0, -1))  # 1..2000, unsorted
        self.assertEqual((1001, 1980), plan.percentiles(micros))  # s[1000], s[int(0.99 * 1999)]
        self.assertEqual((7, 7), plan.percentiles([7]))
        with self.assertRaisesRegex(ValueError, "no calls"):
            plan.percentiles([])


class ScriptImportsTest(unittest.TestCase):
    def test_minilm_torch_finds_floor_check_and_anchor_plan_when_run_as_bench_sh_runs_it(self):
        # PyTorch, NumPy, tokenizers and transformers stand in as empty modules: the imports
        # that must resolve are the scripts beside it and examples-embed's floor_check.py.
        with tempfile.TemporaryDirectory() as stubs:
            for module, names in (("torch", ""), ("numpy", ""), ("tokenizers", "Tokenizer = None\n"),
                                  ("transformers", "BertConfig = BertModel = None\n")):
                with open(os.path.join(stubs, module + ".py"), "w") as f:
                    f.write(names)
            root = os.path.normpath(os.path.join(HERE, "..", ".."))
            run = subprocess.run(
                [sys.executable, "-B", "embeddings/reference/minilm_torch.py"], cwd=root,
                env={**os.environ, "PYTHONPATH": stubs}, capture_output=True, text=True,
                timeout=60)
        self.assertEqual(2, run.returncode, run.stdout + run.stderr)
        self.assertIn("usage: python3 minilm_torch.py DIR", run.stderr)


if __name__ == "__main__":
    unittest.main()
