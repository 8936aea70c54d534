// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * How a text's token vectors become one embedding, before the L2 normalisation.
 *
 * <p>A LangChain4j model jar says which its model uses (the model class's {@code PoolingMode}); for
 * files on disk the caller says it ({@link ModelSource#files}).
 *
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public enum Pooling {
  /** The mean of the text's token vectors, {@code [CLS]} and {@code [SEP]} included. */
  MEAN,
  /** The vector of the first token, {@code [CLS]}. */
  CLS
}
