#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Builds one self-contained bundle (DEST, default .gpu) for a GPU host that has no JDK: a trimmed
# Java 25 runtime, the class path of every module's classes and tests, the JUnit console launcher,
# and the launch-overhead anchors of benchmarks/anchors (C++, raw FFM, JCuda, PyTorch, CuPy and
# cuda.core) compiled or copied for that host. It uses only this repository (and ~/.m2).
#
# On the GPU host, from the repository root (see scripts/gpu-run.sh for the whole run):
#   .gpu/junit --select-package=cuda.graph.driver.internal     the cuda provider's tests
#   .gpu/junit --select-package=cuda.graph.conformance         the conformance kit on the GPU
#   .gpu/java -Dcuda.graph.provider=cuda cuda.graph.benchmarks.LaunchOverhead
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-.gpu}
cd "$root"
junit_platform=${JUNIT_PLATFORM_VERSION:-$(scripts/pom-version.sh junit-platform.version)}
jcuda=$(scripts/pom-version.sh jcuda.version)
. scripts/jdk25.sh # JAVA_HOME: a JDK 25, for Maven, javac, jar and jlink

# Not here: the embedding modules (examples-embed, and langchain4j's GPU tests), whose model jar,
# ONNX Runtime and DJL's tokenizers would not fit the 64 MiB; scripts/gpu-embed-stage.sh stages them.
modules=(driver benchmarks)
for m in conformance-tests nccl blas kotlin examples-kotlin examples-java examples examples-decode; do
  [ -d "$m" ] && modules+=("$m")
done
list=$(IFS=,; echo "${modules[*]}")
# One reactor build, so sibling modules resolve to this checkout's jars, never to stale installed ones
# (no source or javadoc jars: the bundle has no use for them; ./mvnw verify checks the javadoc).
./mvnw -q -pl "$list" -am -DskipTests -Dpublication.skip=true package dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/gpu-classpath.txt
classpath=""
for m in "${modules[@]}"; do
  for dir in "$root/$m/target/test-classes" "$root/$m/target/classes"; do
    [ -d "$dir" ] && classpath="$classpath:$dir"
  done
  classpath="$classpath:$(cat "$m/target/gpu-classpath.txt")"
done
./mvnw -q -N dependency:get -Dartifact="org.junit.platform:junit-platform-console-standalone:$junit_platform"
./mvnw -q -N dependency:get -Dartifact="org.jcuda:jcuda:$jcuda"
./mvnw -q -N dependency:get -Dartifact="org.jcuda:jcuda-natives:$jcuda:jar:linux-x86_64"
repo="$HOME/.m2/repository/org/jcuda"
# The anchor needs only JCuda's driver binding: a natives jar without the 24 MB PTX compiler.
natives="$root/target/gpu-anchors-natives/jcuda-natives-$jcuda-linux-x86_64.jar"
rm -rf "$(dirname "$natives")"; mkdir -p "$(dirname "$natives")/x"
(cd "$(dirname "$natives")/x" && unzip -q "$repo/jcuda-natives/$jcuda/jcuda-natives-$jcuda-linux-x86_64.jar" \
  'META-INF/*' "lib/libJCudaDriver-$jcuda-linux-x86_64.so" "lib/libJCudaRuntime-$jcuda-linux-x86_64.so" && \
  "$JAVA_HOME/bin/jar" --create --file "$natives" --manifest META-INF/MANIFEST.MF lib)
jcuda_jars="$repo/jcuda/$jcuda/jcuda-$jcuda.jar:$natives"

# The anchors (benchmarks/anchors): sources for the GPU host, and the two Java ones compiled here.
src="$root/benchmarks/anchors"
anchors="$root/target/gpu-anchors"
rm -rf "$anchors"; mkdir -p "$anchors/classes"
cp "$src"/{bench.cu,inc.ptx,bench_torch.py,bench_pyothers.py,nccl_torch.py} "$anchors/"
cp -r "$src/while" "$src/pdl" "$src/update" "$src/forkjoin" "$src/matmul" "$src/graphmem" "$src/cache" "$anchors/"
cp "$root/benchmarks/src/main/cuda/capture_bench.cu" "$anchors/"
"$JAVA_HOME/bin/javac" -d "$anchors/classes" "$src/Bench.java"
"$JAVA_HOME/bin/javac" -cp "$jcuda_jars" -d "$anchors/classes" "$src/BenchJCuda.java"

# Deduplicate the class path, keeping the first occurrence, and leave out what the GPU runs never
# load (JMH and its statistics, Kotlin reflection and test support), to stay under 64 MiB.
classpath=$(echo "$anchors/classes:$jcuda_jars$classpath" | tr ':' '\n' | awk 'NF && !seen[$0]++' \
  | grep -vE '/(jmh-core|commons-math3|jopt-simple|kotlin-reflect|kotlin-test[^/]*)-[0-9][^/]*\.jar$' | paste -sd:)
# java.desktop (java.beans), java.naming and java.sql: Spring Boot, for the spring-ai module's GPU test.
# jdk.httpserver: the llm module's OpenAI-compatible endpoint (its tests load it).
JLINK_MODULES=${JLINK_MODULES:-java.base,java.desktop,java.logging,java.management,java.naming,java.sql,java.xml,jdk.httpserver,jdk.jfr,jdk.unsupported,jdk.management,jdk.zipfs} \
  JUNIT_PLATFORM_VERSION=$junit_platform JDK25=$JAVA_HOME scripts/bundle.sh "$dest" "$classpath"
rm -rf "$dest/anchors"; cp -r "$anchors" "$dest/anchors"; rm -rf "$dest/anchors/classes"
# The library's jars and the Java example, for a module-path run as applications do it.
rm -rf "$dest/modules"; mkdir -p "$dest/modules"
# This checkout's version only: target may still hold jars of an earlier version.
version=$(sed -n 's#^  <version>\(.*\)</version>.*#\1#p' pom.xml | head -1)
for m in spi api simulator driver examples-java; do
  cp "$m"/target/cuda-graph-*-"$version".jar "$dest/modules/"
done
# A module path takes one jar a module: the sources and javadoc jars (a verify build leaves them
# in target) would be read as second versions of it.
rm -f "$dest"/modules/*-sources.jar "$dest"/modules/*-javadoc.jar
jspecify=$(scripts/pom-version.sh jspecify.version)
cp "$HOME/.m2/repository/org/jspecify/jspecify/$jspecify/jspecify-$jspecify.jar" "$dest/modules/"
du -sh "$dest"
