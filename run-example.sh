#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Runs the main example from a fresh clone: sentence embeddings with the real all-MiniLM-L6-v2
# (the weights and tokenizer of LangChain4j's Maven artifact) through the library's graphs, a
# similarity table and the check against the plain-Java reference and LangChain4j:
#   ./run-example.sh
#   ./run-example.sh --decode [decode options, e.g. --model stories15M --tokens 128; --help lists
#                             them]   the transformer decode example, eager vs graph replay
#   ./run-example.sh --mlp [steps]   the earlier MLP inference example (Kotlin)
#   ./run-example.sh --java          the README's saxpy example (examples-java), on the module path
#                                    as an application runs it
# It builds what the example needs with the Maven wrapper (only when a source or pom changed since
# the last build), then runs it on the GPU when the cuda provider finds one and on the CUDA
# simulator otherwise; the first line says which. It runs on a JDK 25, which scripts/jdk25.sh
# finds (JAVA_HOME, the java on PATH, the usual install places) or says how to get.
set -euo pipefail
cd "$(dirname "$0")"
. scripts/jdk25.sh

module=examples-embed main=cuda.graph.examples.embed.EmbedDemo
if [[ ${1:-} == --decode ]]; then
  shift
  module=examples-decode main=cuda.graph.examples.decode.Decode
elif [[ ${1:-} == --mlp ]]; then
  shift
  module=examples-kotlin main=cuda.graph.examples.MlpInference
elif [[ ${1:-} == --java ]]; then
  shift
  module=examples-java main=example.saxpy/example.saxpy.Saxpy modular=yes
fi
classpath_file=$module/target/run-classpath.txt
built=$module/target/run-example.built # dated to the start of the last build
# The build is needed when its output is missing, when a pom, a source or .mvn/ here changed since
# the last build started, or when a jar it lists is newer than the list.
stale=yes
if [[ -f $classpath_file && -f $built ]]; then
  stale=$(find . \( -name .git -o -name target -o -name .gpu \) -prune -o -type f \
    \( -name pom.xml -o -path '*/src/*' -o -path './.mvn/*' -o -name mvnw \) \
    -newer "$built" -print 2>/dev/null | head -1)
  IFS=: read -ra jars < "$classpath_file" || : # (the file has no final newline)
  for jar in "${jars[@]}"; do
    [[ -n $stale || ( -e $jar && ! $jar -nt $classpath_file ) ]] || stale=$jar
  done
fi
if [[ -n $stale ]]; then
  if ! compgen -G "${MAVEN_USER_HOME:-$HOME/.m2}/wrapper/dists/apache-maven-*/*/bin/mvn" > /dev/null ||
    [[ ! -d $HOME/.m2/repository/org/jspecify ]]; then
    echo "run-example.sh: building the example (the first run downloads Maven and the build's" \
      "dependencies, a few minutes; later runs take seconds)" >&2
  else
    echo "run-example.sh: building the example with Maven (about 20 s)" >&2
  fi
  started=$(mktemp)
  # What the example runs on, without the tests, the format check and the source and javadoc jars
  # (./mvnw verify checks those): one reactor build, so the class path names this checkout's jars,
  # and nothing is installed into your Maven repository.
  ./mvnw -q -B -ntp -pl "$module" -am -DskipTests -Dspotless.check.skip=true \
    -Dpublication.skip=true package dependency:build-classpath -DincludeScope=runtime \
    -Dmdep.outputFile=target/run-classpath.txt
  touch "$classpath_file" # the plugin leaves an unchanged list as it was
  touch -r "$started" "$built"
  rm -f "$started"
fi
if [[ -n ${modular:-} ]]; then
  # The README's command: the application and its runtime dependencies on the module path.
  exec "$JAVA_HOME/bin/java" --enable-native-access=cuda.graph.driver \
    -p "$module/target/classes:$(cat "$classpath_file")" -m "$main" "$@"
fi
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED \
  -cp "$module/target/classes:$(cat "$classpath_file")" "$main" "$@"
