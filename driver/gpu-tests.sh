#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Bundles the cuda provider's tests for a GPU host that has no JDK and no Maven.
#
# Run on the build machine, from anywhere:   driver/gpu-tests.sh [DEST]      (DEST defaults to .gpu)
# It compiles the driver module and its tests, collects their class path, and calls
# scripts/bundle.sh, which writes DEST (a trimmed Java 25 runtime + the class path + the JUnit
# console launcher) into the repository root. DEST is git-ignored and stays well under 64 MiB.
#
# Then, on the GPU host, from the repository root:
#   .gpu/junit --select-package=cuda.graph.driver.internal                  every driver test (CPU + GPU)
#   .gpu/junit --select-package=cuda.graph.driver.internal --include-tag=gpu  the GPU tests only
# Without a usable GPU every GPU test class is skipped with the provider's one-line reason.
# The launcher runs on the class path with --enable-native-access=ALL-UNNAMED.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-.gpu}
cd "$root"
junit_platform=${JUNIT_PLATFORM_VERSION:-$(scripts/pom-version.sh junit-platform.version)}
. scripts/jdk25.sh # JAVA_HOME: a JDK 25

# One reactor invocation, so the SPI resolves to spi/target/classes (nothing is installed).
./mvnw -q -pl driver -am -DskipTests test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/gpu-classpath.txt
# bundle.sh takes the console launcher from the local repository; fetch it the same way.
./mvnw -q -N dependency:get -Dartifact="org.junit.platform:junit-platform-console-standalone:$junit_platform"

classpath="$root/driver/target/test-classes:$root/driver/target/classes:$(cat "$root/driver/target/gpu-classpath.txt")"
# jdk.management adds the per-thread allocation counter the hot-path allocation test reads.
JLINK_MODULES=${JLINK_MODULES:-java.base,java.logging,java.management,java.xml,jdk.unsupported,jdk.management} \
  JUNIT_PLATFORM_VERSION=$junit_platform JDK25=$JAVA_HOME "$root/scripts/bundle.sh" "$dest" "$classpath"
echo "gpu-tests.sh: on the GPU host run: $dest/junit --select-package=cuda.graph.driver.internal"
