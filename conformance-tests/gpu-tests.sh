#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Bundles the conformance kit's tests for a GPU host that has no JDK and no Maven.
#
# Run on the build machine, from anywhere:   conformance-tests/gpu-tests.sh [DEST]   (DEST defaults to .gpu)
# It compiles the kit and its tests (with the cuda and simulator providers), collects their class
# path, and calls scripts/bundle.sh, which writes DEST (a trimmed Java 25 runtime + the class
# path + the JUnit console launcher) into the repository root. DEST is git-ignored and stays well
# under 64 MiB.
#
# Then, on the GPU host, from the repository root:
#   .gpu/junit --select-package=cuda.graph.conformance                    every contract, simulator and cuda
#   .gpu/junit --select-package=cuda.graph.conformance --include-tag=gpu  the cuda provider's runs only
# Without a usable GPU every Cuda*Tests class is skipped with the provider's one-line reason; the
# compile-time tests (tag compiler) are skipped too, as the bundled runtime has no Java compiler.
# The launcher runs on the class path with --enable-native-access=ALL-UNNAMED.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-.gpu}
cd "$root"
junit_platform=${JUNIT_PLATFORM_VERSION:-$(scripts/pom-version.sh junit-platform.version)}
. scripts/jdk25.sh # JAVA_HOME: a JDK 25

# One reactor invocation, so the API, SPI and providers resolve to their target/classes (nothing is installed).
./mvnw -q -pl conformance-tests -am -DskipTests test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/gpu-classpath.txt
# bundle.sh takes the console launcher from the local repository; fetch it the same way.
./mvnw -q -N dependency:get -Dartifact="org.junit.platform:junit-platform-console-standalone:$junit_platform"

module="$root/conformance-tests"
classpath="$module/target/test-classes:$module/target/classes:$(cat "$module/target/gpu-classpath.txt")"
# java.compiler holds only the javax.tools API: with it the compile-time tests load and skip with
# a reason (no compiler in the runtime) instead of failing to load.
JLINK_MODULES=${JLINK_MODULES:-java.base,java.logging,java.management,java.xml,jdk.unsupported,java.compiler} \
  JUNIT_PLATFORM_VERSION=$junit_platform JDK25=$JAVA_HOME "$root/scripts/bundle.sh" "$dest" "$classpath"
echo "gpu-tests.sh: on the GPU host run: $dest/junit --select-package=cuda.graph.conformance"
