// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * Classes planted to show that an architecture rule fails on what it forbids; imported one by one
 * by the tests that plant them, never with the project's classes.
 */
package cuda.graph.architecture.planted;
