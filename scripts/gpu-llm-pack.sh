#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Packs what the llm module's GPU work needs into one call's carry: .gpu-llm/pack.tgz, about 55 MB,
# which with the working tree (about 10 MB) fits the device's 64 MiB, where the embedding staging
# (scripts/gpu-embed-stage.sh) takes five calls. In it: the bundle's Java runtime and JUnit console
# (scripts/gpu-bundle.sh, run first), the api, spi, simulator, driver, blas and testkit jars, the
# llm module's classes and test classes, and the jars of its test class path that the GPU tests and
# LlmBench load (Gson, DJL's tokenizers with only their linux-x86_64 library, JNA, commons, SLF4J).
#   scripts/gpu-llm-pack.sh                 (after scripts/gpu-bundle.sh .gpu)
# On the GPU host, from the repository root:
#   tar xzf .gpu-llm/pack.tgz
#   .gpu-llm/java -Dcuda.graph.provider=cuda cuda.graph.llm.bench.LlmBench --model DIR ...
#   .gpu-llm/junit --select-class=cuda.graph.llm.internal.engine.LlmKernelsGpuTests
#   scripts/gpu-run.sh llm-check            (then llm-bench in a call of its own: about 9 minutes;
#                                           both use .gpu-llm where .gpu-embed is absent)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/jdk25.sh
[ -x .gpu/java ] || { echo "gpu-llm-pack.sh: run scripts/gpu-bundle.sh .gpu first" >&2; exit 2; }
./mvnw -q -pl llm -am -DskipTests -Dpublication.skip=true package dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/gpu-llm-classpath.txt

stage=target/gpu-llm/.gpu-llm
rm -rf target/gpu-llm; mkdir -p "$stage/cp"
cp -r .gpu/jre .gpu/junit-console.jar "$stage/"
# The runtime's symbol tables are a few MB of a pack that must leave room for the working tree.
if command -v strip > /dev/null; then
  find "$stage/jre" -name '*.so' -exec chmod u+w {} + -exec strip --strip-unneeded {} +
fi
for j in .gpu/cp/*.jar; do
  case "$(basename "$j")" in
    *-cuda-graph-api-*|*-cuda-graph-spi-*|*-cuda-graph-simulator-*|*-cuda-graph-driver-*|\
    *-cuda-graph-blas-*|*-cuda-graph-testkit-*|*-jspecify-*) cp "$j" "$stage/cp/" ;;
  esac
done
for j in $(tr ':' '\n' < llm/target/gpu-llm-classpath.txt); do
  case "$(basename "$j")" in
    tokenizers-*.jar)
      cp "$j" "$stage/cp/"; chmod u+w "$stage/cp/$(basename "$j")"
      zip -q -d "$stage/cp/$(basename "$j")" 'native/lib/linux-aarch64/*' 'native/lib/osx-*' \
        'native/lib/win-*' > /dev/null || true ;;
    api-*.jar|gson-*.jar|error_prone_annotations-*.jar|jna-*.jar|commons-compress-*.jar|\
    commons-codec-*.jar|commons-io-*.jar|slf4j-api-*.jar|slf4j-nop-*.jar) cp "$j" "$stage/cp/" ;;
  esac
done
cp -r llm/target/classes llm/target/test-classes "$stage/"
cat > "$stage/java" <<'RUN'
#!/usr/bin/env bash
here=$(cd "$(dirname "$0")" && pwd)
cp=$(ls "$here"/cp/*.jar | tr '\n' ':')"$here/classes:$here/test-classes"
exec "$here/jre/bin/java" --enable-native-access=ALL-UNNAMED ${JAVA_OPTS:-} -cp "$cp" "$@"
RUN
cat > "$stage/junit" <<'RUN'
#!/usr/bin/env bash
here=$(cd "$(dirname "$0")" && pwd)
cp=$(ls "$here"/cp/*.jar | tr '\n' ':')"$here/classes:$here/test-classes"
exec "$here/jre/bin/java" --enable-native-access=ALL-UNNAMED ${JAVA_OPTS:-} \
  -jar "$here/junit-console.jar" execute -cp "$cp" --details=tree --disable-banner "$@"
RUN
chmod +x "$stage/java" "$stage/junit"
mkdir -p .gpu-llm
GZIP=-9 tar czf .gpu-llm/pack.tgz -C target/gpu-llm .gpu-llm 2> /dev/null
size=$(stat -c %s .gpu-llm/pack.tgz)
tracked=$(git ls-files -z | du -cb --files0-from=- | tail -1 | cut -f1)
echo "gpu-llm-pack.sh: .gpu-llm/pack.tgz $((size / 1000000)) MB, with the tracked files $(((size + tracked) / 1000000)) MB of the 67 MB a call carries"
[ $((size + tracked)) -lt 67108864 ] || { echo "gpu-llm-pack.sh: too large for one call" >&2; exit 3; }
