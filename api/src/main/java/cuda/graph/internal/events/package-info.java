// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * JDK Flight Recorder events for the graph life cycle (capture, instantiate, update, launch), so a
 * recording shows in Java Mission Control where a program's host time goes. Events cost nothing
 * measurable when no recording is running: the JIT removes their allocation, and {@code
 * shouldCommit} is a field read.
 *
 * <p>May depend on {@code jdk.jfr} and nothing of the project. Used by {@code .graph}, {@code
 * .exec} and {@code .cache}.
 */
@NullMarked
package cuda.graph.internal.events;

import org.jspecify.annotations.NullMarked;
