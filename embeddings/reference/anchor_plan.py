# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
"""What minilm_torch.py's anchors decide without a GPU: which sentences are the queries (as
EmbedBench picks them), the length buckets a query pads to (as GpuEncoder's defaults), the order and
batches of the ingestion pipeline, the token-length histogram and the percentiles (as
EmbedBench.timed takes them).

Standard library only, so that test_anchor_plan.py runs where PyTorch is not installed
(TorchAnchorScriptTests runs it from the build).
"""
import unicodedata

# EmbedBench's queries: the first 200 sentences of 6 to 24 words ("as a search box sends them").
QUERY_MIN_WORDS, QUERY_MAX_WORDS, QUERY_COUNT = 6, 24, 200
# Issue 39's latency target is for queries of 8 to 32 tokens (special tokens included); of
# EmbedBench's queries, these are timed apart as well (QueryBreakdown's
# query_breakdown_8_32_tokens_us line).
TARGET_MIN_TOKENS, TARGET_MAX_TOKENS = 8, 32
# The histogram's bins, in tokens (special tokens included); the last is open.
HISTOGRAM_BINS = ((1, 16), (17, 32), (33, 64), (65, 128), (129, None))

# Java's Character.isWhitespace over the BMP: what String.isBlank skips. Unlike Python's
# str.isspace it excludes the no-break spaces and includes the separators U+001C to U+001F.
_JAVA_NO_BREAK = {"\u00a0", "\u2007", "\u202f"}


def java_is_whitespace(ch):
    """Character.isWhitespace: a Unicode space, line or paragraph separator other than a no-break
    space, or one of \\t \\n \\u000B \\f \\r \\u001C-\\u001F."""
    if ch in "\t\n\u000b\f\r\u001c\u001d\u001e\u001f":
        return True
    return unicodedata.category(ch) in ("Zs", "Zl", "Zp") and ch not in _JAVA_NO_BREAK


def java_is_blank(s):
    """String.isBlank."""
    return all(java_is_whitespace(ch) for ch in s)


def java_lines(text):
    """Files.readAllLines' lines: split at \\n, \\r and \\r\\n (not at the other characters that
    Python's str.splitlines takes for line ends), no empty last line after a final line end."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def read_sentences(text, limit):
    """EmbedBench.readSentences (and TorchExport's reading): the first `limit` non-blank lines."""
    out = []
    for line in java_lines(text):
        if len(out) >= limit:
            break
        if not java_is_blank(line):
            out.append(line)
    return out


def java_word_count(s):
    """s.split(" ").length in Java: split at each single space, trailing empty strings removed (a
    leading one stays); an empty string is one empty word."""
    if s == "":
        return 1
    parts = s.split(" ")
    while parts and parts[-1] == "":
        parts.pop()
    return len(parts)


def select_queries(sentences, count=QUERY_COUNT):
    """EmbedBench's queries: the first `count` sentences of 6 to 24 words, in corpus order."""
    out = []
    for s in sentences:
        if QUERY_MIN_WORDS <= java_word_count(s) <= QUERY_MAX_WORDS:
            out.append(s)
            if len(out) == count:
                break
    return out


def java_buckets(first, step, maximum):
    """GpuEncoder.buckets: `first` below `maximum`, every multiple of `step` below it, and
    `maximum`, sorted, each once."""
    sizes = {s for s in first if s < maximum}
    sizes.update(range(step, maximum, step))
    sizes.add(maximum)
    return sorted(sizes)


# GpuEncoder's default length buckets for all-MiniLM-L6-v2 (tokenizer.json truncates at 128).
LENGTH_BUCKETS = java_buckets((16, 32, 64), 128, 128)


def cover(buckets, n):
    """Buckets.cover: the smallest bucket that holds `n`."""
    if n < 1:
        raise ValueError(f"cover: {n} tokens; a tokenized text has at least 1 (its [CLS])")
    for b in buckets:
        if b >= n:
            return b
    raise ValueError(f"cover: {n} tokens exceed the largest bucket {buckets[-1]}; "
                     "truncate the text or add a bucket")


def sorted_batches(lengths, batch, descending=True):
    """The ingestion pipeline's plan: the indices sorted by length (longest first, as
    sentence-transformers sorts; ties keep corpus order) cut into runs of `batch`; each run is
    (start, end) into the order."""
    if batch < 1:
        raise ValueError(f"sorted_batches: batch {batch}; pass at least 1")
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i] if descending else lengths[i])
    runs = [(s, min(s + batch, len(order))) for s in range(0, len(order), batch)]
    return order, runs


def padded_tokens(lengths, order, runs):
    """The tokens the GPU computes when each run pads to its longest (what sorting saves)."""
    return sum((end - start) * max(lengths[i] for i in order[start:end]) for start, end in runs)


def histogram(lengths):
    """Counts of lengths per HISTOGRAM_BINS, in their order."""
    counts = [0] * len(HISTOGRAM_BINS)
    for n in lengths:
        for k, (low, high) in enumerate(HISTOGRAM_BINS):
            if n >= low and (high is None or n <= high):
                counts[k] += 1
                break
        else:
            raise ValueError(f"histogram: a length of {n}; a tokenized text has at least 1")
    return counts


def histogram_columns(lengths):
    """1-16,A,17-32,B,33-64,C,65-128,D,>128,E for a CSV line."""
    labels = [f"{lo}-{hi}" if hi is not None else f">{lo - 1}" for lo, hi in HISTOGRAM_BINS]
    return ",".join(f"{label},{c}" for label, c in zip(labels, histogram(lengths)))


def target_queries(lengths):
    """The indices of the queries whose token counts are within the latency target's 8 to 32."""
    return [k for k, n in enumerate(lengths) if TARGET_MIN_TOKENS <= n <= TARGET_MAX_TOKENS]


def percentiles(micros):
    """EmbedBench.timed's p50 and p99: sorted[n / 2] and sorted[(int) (0.99 * (n - 1))]."""
    if not micros:
        raise ValueError("percentiles: no calls were timed")
    s = sorted(micros)
    return s[len(s) // 2], s[int(0.99 * (len(s) - 1))]


def bucket_columns(lengths, buckets=LENGTH_BUCKETS):
    """16:A/32:B/...: how many of the texts pad to each bucket (those that none do left out)."""
    counts = {}
    for n in lengths:
        b = cover(buckets, n)
        counts[b] = counts.get(b, 0) + 1
    return "/".join(f"{b}:{counts[b]}" for b in buckets if b in counts)
