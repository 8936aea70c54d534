#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Draws the graphs the examples of the guides and showcases capture: DOT from CudaGraph.writeDot (on
# the simulator, so the pictures are the same on every machine) into docs/graphs/, and SVG beside
# each where Graphviz (`dot`) is installed. Builds what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/jdk25.sh
# One reactor build: the class paths name this checkout's jars, and nothing is installed.
./mvnw -B -ntp -q -DskipTests -Dpublication.skip=true -pl benchmarks,examples-decode -am \
  package dependency:build-classpath -Dmdep.includeScope=runtime \
  -Dmdep.outputFile=target/graphs-classpath.txt
for m in benchmarks:cuda.graph.benchmarks.GraphPictures examples-decode:cuda.graph.examples.decode.DrawGraphs; do
  module=${m%%:*} main=${m#*:}
  cp=$(cat "$module/target/graphs-classpath.txt")
  "$JAVA_HOME/bin/java" -cp "$module/target/classes:$cp" "$main" docs/graphs
done
if command -v dot > /dev/null; then
  for f in docs/graphs/*.dot; do dot -Tsvg "$f" -o "${f%.dot}.svg"; done
  echo "drew docs/graphs/*.svg"
else
  echo "Graphviz (dot) is not installed: wrote the DOT files only"
fi
