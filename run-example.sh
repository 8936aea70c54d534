#!/usr/bin/env bash
# Runs the main example (an MLP inference loop, eager vs graph replay) from a fresh clone:
#   ./run-example.sh [steps]
# It builds what the example needs with the Maven wrapper, then runs it on the GPU when the
# cuda provider finds one and on the CUDA simulator otherwise; the first line says which.
set -euo pipefail
cd "$(dirname "$0")"
if [[ -z "${JAVA_HOME:-}" || ! -x "$JAVA_HOME/bin/java" ]] || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  for candidate in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*25*; do
    if [[ -x "$candidate/bin/javac" ]]; then export JAVA_HOME=$candidate; break; fi
  done
fi
./mvnw -q -B -ntp -pl examples-kotlin -am -DskipTests install
./mvnw -q -B -ntp -pl examples-kotlin dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile=target/run-classpath.txt
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED \
  -cp "examples-kotlin/target/classes:$(cat examples-kotlin/target/run-classpath.txt)" \
  cuda.graph.examples.MlpInference "$@"
