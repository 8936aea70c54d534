#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Builds and runs the JMH host-side benchmarks on the simulator (no GPU needed).
#   benchmarks/run-jmh.sh [JMH options, e.g. OpTreeBenchmark -f 1 -wi 2 -i 3]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/jdk25.sh # JAVA_HOME: a JDK 25
./mvnw -q -pl benchmarks -am -DskipTests package dependency:build-classpath \
  -Dmdep.includeScope=runtime -Dmdep.outputFile=target/jmh-classpath.txt
cp="$root/benchmarks/target/classes:$(cat "$root/benchmarks/target/jmh-classpath.txt")"
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$cp" org.openjdk.jmh.Main "$@"
