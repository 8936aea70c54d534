#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Runs on the GPU host, from the repository root, with the bundle from scripts/gpu-bundle.sh in
# .gpu: the parts named on the command line (default: tests bench examples), in that order, each
# one a function below with its description beside it. The launch-overhead benchmark runs beside
# the anchors of benchmarks/anchors (one run, so ratios share the machine's state): C++, raw FFM,
# JCuda, PyTorch, and CuPy and cuda.core (bench_pyothers.py; each one that is not installed on the
# host says so in pyothers.csv and the rest still run).
#   scripts/gpu-run.sh [PART...]      writes logs and CSVs into $OUT (or ./gpu-out)
#   scripts/gpu-run.sh --list         the parts, one line each (also: help)
# An unknown part stops the run before anything runs (exit 2). A part's description names the
# environment variables it reads.
set -uo pipefail

known=()      # the parts, in the order --list shows them
declare -A about=()
# part NAME DESCRIPTION: registers the part that function part_NAME (- as _) runs.
part() { known+=("$1"); about[$1]=$2; }

part tests "the cuda provider's tests and the conformance kit on the GPU (tag compiler left out)"
part_tests() {
  mkdir -p target  # jqwik keeps its run database there
  timeout 240 .gpu/junit --select-package=cuda.graph.driver.internal --select-package=cuda.graph.conformance \
    --exclude-tag=compiler > "$out/tests.log" 2>&1
  echo "tests exit $?"; grep -E "tests (found|successful|failed|aborted|skipped)" "$out/tests.log"
  grep -E "✘|MethodSource.*✘" "$out/tests.log" | head -40
}

part suite "every GPU test of every module (tag gpu; tag compiler left out), its log kept whole (SUITE_TIMEOUT: 480 s)"
part_suite() {
  mkdir -p target
  JAVA_OPTS="-Dfuzz.changes=${SUITE_FUZZ_CHANGES:-10000}" timeout "${SUITE_TIMEOUT:-480}" .gpu/junit --scan-classpath --include-tag=gpu --exclude-tag=compiler \
    > "$out/suite.log" 2>&1
  echo "suite exit $?"; grep -aE "tests (found|successful|failed|aborted|skipped)" "$out/suite.log"
  grep -aE "✘|↷" "$out/suite.log" | head -40
}

part fuzz "issue 36 A: the node-changes fuzz on the GPU (FUZZ_CHANGES: 10000 a seed, seeds 1 and 2)"
part_fuzz() {
  mkdir -p target
  JAVA_OPTS="-Dfuzz.changes=${FUZZ_CHANGES:-10000} -Dfuzz.report=$out/fuzz-report" timeout 300 .gpu/junit \
    --select-class=cuda.graph.conformance.CudaNodeChangesFuzzTests > "$out/fuzz.log" 2>&1
  echo "fuzz exit $?"; grep -aE "tests (successful|failed|aborted)" "$out/fuzz.log"
  grep -aE "wrong replays|AssertionError|Exception" "$out/fuzz.log" | head -5 | cut -c1-3000
}

part blas36 "issue 36 B and 2: products refused when made or run, a workspace shared across streams"
part_blas36() {
  mkdir -p target
  timeout 240 .gpu/junit --select-class=cuda.graph.blas.CudaUnrunnableProductGpuTests \
    --select-class=cuda.graph.blas.CudaWorkspaceSharingGpuTests > "$out/blas36.log" 2>&1
  echo "blas36 exit $?"; grep -aE "tests (successful|failed|aborted)|✘" "$out/blas36.log" | head -20
}

part embed-tests "issue 36 and 37: the embeddings module's GPU tests, every encoder kernel against its Java reference and LangChain4j's three artifacts through the Embedder among them (staged: scripts/gpu-embed-stage.sh)"
part_embed_tests() {
  # The module's tests travel apart from the bundle (the model artifacts are 83, 23 and 34 MB):
  # after scripts/gpu-embed-stage.sh, .gpu-pack/unpack.sh and .gpu-pack/assemble.sh,
  # .gpu-embed/junit runs them with the bundle's runtime. EncoderKernelsGpuTests compares every
  # kernel of encoder_kernels.cu, fp32 and fp16, element by element with its reference;
  # GpuEncoderGpuTests runs the encoder's graphs against the reference and LangChain4j, norms
  # included; LangChain4jModelsGpuTests opens all-MiniLM-L6-v2 (fp32 and int8) and
  # bge-small-en-v1.5 (int8, CLS) through the public Embedder on the cuda provider against
  # LangChain4j's own models (the worst int8 cosines are report entries in the log).
  if [ ! -x .gpu-embed/junit ] || [ ! -d .gpu-embed/payload ]; then
    echo "embed-tests: no staged example (.gpu-embed/junit and its payload): run scripts/gpu-embed-stage.sh, unpack.sh and assemble.sh first"
    return
  fi
  timeout 300 .gpu-embed/junit --select-package=cuda.graph.embeddings --include-tag=gpu \
    > "$out/embed-gpu-tests.log" 2>&1
  echo "embed GPU tests exit $?"; grep -aE "tests (found|successful|failed|aborted|skipped)" "$out/embed-gpu-tests.log"
  grep -aE "✘|↷" "$out/embed-gpu-tests.log" | head -40
}

part langchain4j "issue 37: the LangChain4j adapter on the GPU: the retrieval flow and every embedding beside LangChain4j's, fp32 and fp16 (staged: scripts/gpu-embed-stage.sh)"
part_langchain4j() {
  # Staged with the embedding example (the model travels apart from the bundle): after
  # scripts/gpu-embed-stage.sh, .gpu-pack/unpack.sh and .gpu-pack/assemble.sh.
  if [ ! -x .gpu-embed/junit ] || [ ! -d .gpu-embed/payload ]; then
    echo "langchain4j: no staged model (.gpu-embed/junit and its payload): run scripts/gpu-embed-stage.sh, unpack.sh and assemble.sh first"
    return
  fi
  # LangChain4j's own model (the tests' anchor) loads DJL's tokenizer itself: on a GPU host without
  # network DJL would try to fetch its CUDA build; the library asks for the CPU one, so must they.
  JAVA_OPTS="-DRUST_FLAVOR=cpu ${JAVA_OPTS:-}" timeout 300 .gpu-embed/junit --select-package=cuda.graph.langchain4j --include-tag=gpu \
    > "$out/langchain4j-gpu-tests.log" 2>&1
  echo "langchain4j GPU tests exit $?"; grep -aE "tests (found|successful|failed|aborted|skipped)" "$out/langchain4j-gpu-tests.log"
  grep -aE "✘|↷" "$out/langchain4j-gpu-tests.log" | head -40
}

part spring-ai "issue 37 item 4: the Spring AI model auto-configured on the GPU (the default when-no-gpu=fail), fp32 and fp16, against LangChain4j (staged: scripts/gpu-embed-stage.sh)"
part_spring_ai() {
  if [ ! -x .gpu-embed/junit ] || [ ! -d .gpu-embed/payload ]; then
    echo "spring-ai: no staged class path (.gpu-embed/junit and its payload): run scripts/gpu-embed-stage.sh, unpack.sh and assemble.sh first"
    return
  fi
  mkdir -p target
  JAVA_OPTS="-DRUST_FLAVOR=cpu ${JAVA_OPTS:-}" timeout 200 .gpu-embed/junit --select-class=cuda.graph.spring.ai.CudaGraphEmbeddingModelGpuTests \
    > "$out/spring-ai.log" 2>&1
  echo "spring-ai exit $?"; grep -aE "tests (found|successful|failed|aborted|skipped)" "$out/spring-ai.log"
  grep -aE "✘|↷" "$out/spring-ai.log" | head -20
}

part embed-kernels "issue 36 item 9 and 37: every encoder kernel against its Java reference (CLS pooling included), from the bundle (carry embeddings/target/classes and test-classes; no model needed)"
part_embed_kernels() {
  mkdir -p target
  timeout 200 .gpu/junit --class-path embeddings/target/classes:embeddings/target/test-classes \
    --select-class=cuda.graph.embeddings.internal.gpu.EncoderKernelsGpuTests > "$out/embed-kernels.log" 2>&1
  echo "embed-kernels exit $?"; grep -aE "tests (found|successful|failed|aborted)|✘" "$out/embed-kernels.log" | head -20
}

part llm-engine "issue 40: the LLM engine's kernels against their Java references and one batched step over the paged KV cache against the naive fp32 Llama in fp32, fp16 and bf16, from the bundle (carry llm/target/classes and test-classes; no model needed)"
part_llm_engine() {
  mkdir -p target
  timeout 300 .gpu/junit --class-path llm/target/classes:llm/target/test-classes \
    --select-class=cuda.graph.llm.internal.engine.LlmKernelsGpuTests \
    --select-class=cuda.graph.llm.internal.engine.BatchStepGpuTests > "$out/llm-engine.log" 2>&1
  echo "llm-engine exit $?"; grep -aE "tests (found|successful|failed|aborted|skipped)|✘" "$out/llm-engine.log" | head -30
}

part probes "issue 36: the driver probe of node changes and the cuBLASLt probe of a product the heuristic plans"
part_probes() {
  gcc -O2 -I/usr/local/cuda/include benchmarks/probes/node_changes.c -lcuda -o /tmp/node_changes \
    && /tmp/node_changes conformance-tests/src/main/resources/cuda/graph/conformance/kernels/conformance_kernels.ptx \
    > "$out/probe-node-changes.txt" 2>&1; echo "node_changes exit $?"; cat "$out/probe-node-changes.txt"
  nvcc -O2 -arch=sm_90 benchmarks/probes/lt_not_supported.cu -lcublasLt -o /tmp/lt_not_supported \
    && /tmp/lt_not_supported > "$out/probe-lt.txt" 2>&1; echo "lt probe exit $?"; cat "$out/probe-lt.txt"
}

part bench "the launch-overhead benchmark beside every anchor of benchmarks/anchors, 3 rounds (BENCH_PEERS=no: C++ and raw FFM only)"
part_bench() {
  # Every implementation three times, interleaved, so drift of the machine hits all alike;
  # RatioTable shows each figure as median [min-max] over the three and ratios of medians.
  (cd .gpu/anchors && nvcc -O2 -o /tmp/anchor_cu bench.cu -lcuda && nvcc -O2 -o /tmp/capture_cu capture_bench.cu -lcuda) \
    > "$out/anchors-build.log" 2>&1 || { echo "anchors did not build"; cat "$out/anchors-build.log"; }
  local r
  for r in 1 2 3; do
    (cd .gpu/anchors && /tmp/anchor_cu inc.ptx) > "$out/cpp-$r.csv" 2>&1
    (cd .gpu/anchors && /tmp/capture_cu inc.ptx) > "$out/cpp-capture-$r.csv" 2>&1
    .gpu/java Bench .gpu/anchors/inc.ptx > "$out/java-$r.csv" 2>&1
    # BENCH_PEERS=no leaves out JCuda, PyTorch, CuPy and cuda.core (C++ and raw FFM stay).
    if [ "${BENCH_PEERS:-yes}" != no ]; then
      .gpu/java BenchJCuda .gpu/anchors/inc.ptx > "$out/jcuda-$r.csv" 2>&1
      python3 .gpu/anchors/bench_torch.py > "$out/torch-$r.csv" 2>&1
      python3 .gpu/anchors/bench_pyothers.py > "$out/pyothers-$r.csv" 2>&1
    fi
    # Replays and launches in one process; captures in another, made as the C++ anchor's is.
    .gpu/java -Dcuda.graph.provider=cuda -Dbench.capture=false cuda.graph.benchmarks.LaunchOverhead > "$out/cuda-graph-$r.csv" 2>&1
    .gpu/java -Dcuda.graph.provider=cuda -Dbench.only=capture cuda.graph.benchmarks.LaunchOverhead > "$out/cuda-graph-capture-$r.csv" 2>&1
    echo "bench round $r done"; grep -h "counter" "$out"/*-$r.csv
  done
  .gpu/java cuda.graph.benchmarks.RatioTable "$out"/*-[123].csv | tee "$out/ratios.md"
}

part examples "the MLP example on the GPU and on the simulator"
part_examples() {
  timeout 120 .gpu/java -Dcuda.graph.provider=cuda cuda.graph.examples.MlpInference > "$out/example-gpu.log" 2>&1
  echo "example on the GPU: exit $?"; grep -v "^  " "$out/example-gpu.log" | tail -12
  timeout 60 .gpu/java -Dcuda.graph.provider=simulator cuda.graph.examples.MlpInference 20 > "$out/example-simulator.log" 2>&1
  echo "example on the simulator: exit $?"; grep -v "^  " "$out/example-simulator.log" | tail -12
}

part readme "the first program (examples-java) on the module path"
part_readme() {
  timeout 60 .gpu/jre/bin/java --enable-native-access=cuda.graph.driver -p .gpu/modules \
    -m example.saxpy/example.saxpy.Saxpy > "$out/readme.log" 2>&1
  echo "the first program on the module path: exit $?"; cat "$out/readme.log"
}

part copy-examples "issue 38: every copy-from example of examples/ on the cuda provider, its output against its // prints: comments (NCCL_LIBRARY as in nccl; AllReduce's comments assume two GPUs)"
part_copy_examples() {
  # Each example's main as an application runs it, the provider forced to cuda; cuBLASLt and
  # NVRTC come from the loader path set below, NCCL as the nccl part finds it. What each prints
  # must be the lines its // prints: comments say, as ExamplesTests checks on the simulator.
  export NCCL_NVLS_ENABLE=0
  local lib f name rc
  lib=$(nccl_library)
  echo "NCCL library: ${lib:-not found}"
  for f in examples/src/main/java/example/*.java; do
    name=$(basename "$f" .java)
    timeout 120 .gpu/java -Dcuda.graph.provider=cuda ${lib:+"-Dcuda.graph.nccl.library=$lib"} \
      "example.$name" > "$out/copy-example-$name.log" 2> "$out/copy-example-$name.err"
    rc=$?
    sed -n 's#^.*// prints: ##p' "$f" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//' > "$out/copy-example-$name.expected"
    if [ "$rc" = 0 ] && diff "$out/copy-example-$name.expected" "$out/copy-example-$name.log" > /dev/null; then
      echo "$name: exit 0, printed what its comments say"
    else
      echo "$name: exit $rc, printed (< its comments, > what it printed):"
      diff "$out/copy-example-$name.expected" "$out/copy-example-$name.log" | grep '^[<>]'
      grep -v "ProviderSelector\|^INFO" "$out/copy-example-$name.err" | head -5
    fi
  done
}

part control "the C++ anchors of updates, fork/join and device loops beside ControlFlowBench"
part_control() {
  # Issue 13's C++ anchors: exec update vs re-instantiate, fork/join vs serial, WHILE vs replays.
  local a
  for a in update forkjoin while; do
    (cd .gpu/anchors/$a && nvcc -O2 -arch=sm_90 -o /tmp/anchor_$a $a.cu -lcuda && /tmp/anchor_$a) > "$out/$a.csv" 2>&1
    echo "anchor $a exit $?"; tail -4 "$out/$a.csv"
  done
  .gpu/java cuda.graph.benchmarks.ControlFlowBench 15 > "$out/java-control.csv" 2>&1
  echo "java control exit $?"; cat "$out/java-control.csv"
}

part sanitizer "compute-sanitizer memcheck with leak checking over the example and the GPU tests"
part_sanitizer() {
  local cs
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  # API errors are left out: the tests provoke failing driver calls on purpose; memory errors
  # and leaks are what memcheck must not find.
  timeout 240 "$cs" --tool memcheck --leak-check full --report-api-errors no --target-processes all \
    .gpu/java -Dcuda.graph.provider=cuda cuda.graph.examples.MlpInference 20 > "$out/sanitizer-example.log" 2>&1
  echo "sanitizer over the example: exit $?"; grep -E "ERROR SUMMARY|LEAK SUMMARY|leaked|speedup" "$out/sanitizer-example.log" | tail -6
  timeout 300 "$cs" --tool memcheck --leak-check full --report-api-errors no --target-processes all \
    .gpu/junit --select-package=cuda.graph.driver.internal --select-package=cuda.graph.conformance \
    --include-tag=gpu > "$out/sanitizer-tests.log" 2>&1
  echo "sanitizer over the GPU tests: exit $?"; grep -E "ERROR SUMMARY|LEAK SUMMARY|tests (found|successful|failed)" "$out/sanitizer-tests.log" | tail -8
}

part decode "the decode engine per shape beside PyTorch (DECODE_MODELS, DECODE_TOKENS), then stream-mode GPU tests"
run_decode() {
  local part=$1 ref m w d
  # The main job: each shape decoded by the Java engine (check against the Java reference,
  # dump for the PyTorch check, the modes timed), then checked by and timed beside the
  # independent PyTorch implementation on the same weights (examples-decode/reference); then
  # the stream mode's GPU tests (tokens against the graph mode, a wrapping ring, the clock).
  ref=examples-decode/reference/llama_reference.py
  for m in ${DECODE_MODELS:-stories15M stories110M llama-3.2-1B}; do
    w=/tmp/decode-$m.safetensors; d=/tmp/decode-dump-$m
    if [ "$part" != decode-torch ]; then
      timeout 300 .gpu/java -Dcuda.graph.provider=cuda cuda.graph.examples.decode.Decode --model "$m" \
        --check-steps 64 --tokens "${DECODE_TOKENS:-256}" --write-weights "$w" --dump "$d" > "$out/decode-$m.log" 2>&1
      echo "decode $m: exit $?"; cat "$out/decode-$m.log"
      timeout 240 python3 "$ref" check --weights "$w" --dump "$d" --device cuda > "$out/check-$m.log" 2>&1
      echo "pytorch check $m: exit $?"; tail -3 "$out/check-$m.log"
    fi
    if [ "$part" != decode-java ]; then
      [ -f "$w" ] || timeout 120 .gpu/java -Dcuda.graph.provider=cuda cuda.graph.examples.decode.Decode \
        --model "$m" --check-steps 1 --tokens 2 --reps 1 --write-weights "$w" > /dev/null 2>&1
      timeout 400 python3 "$ref" bench --weights "$w" --tokens "${DECODE_TOKENS:-256}" > "$out/torch-$m.csv" 2>&1
      echo "pytorch bench $m: exit $?"; grep -v "^#" "$out/torch-$m.csv" | tail -8
    fi
  done
  if [ "$part" != decode-torch ]; then
    timeout 300 .gpu/junit --select-class=cuda.graph.examples.decode.StreamingDecodeGpuTests \
      > "$out/decode-stream-tests.log" 2>&1
    echo "decode stream GPU tests: exit $?"; tail -15 "$out/decode-stream-tests.log"
  fi
}
part_decode() { run_decode decode; }

part decode-java "decode's Java side alone"
part_decode_java() { run_decode decode-java; }

part decode-torch "decode's PyTorch side alone"
part_decode_torch() { run_decode decode-torch; }

part pdl "programmatic dependent launch: the C++ anchor beside ProgrammaticLaunchBench"
part_pdl() {
  # Programmatic dependent launch: the C++ anchor and the Java chain in one call.
  (cd .gpu/anchors/pdl && nvcc -O2 -arch=sm_90 -o /tmp/anchor_pdl pdl.cu && /tmp/anchor_pdl) > "$out/pdl-cpp.csv" 2>&1
  echo "anchor pdl exit $?"; cat "$out/pdl-cpp.csv"
  .gpu/java -Dcuda.graph.provider=cuda cuda.graph.benchmarks.ProgrammaticLaunchBench 5 > "$out/pdl-java.csv" 2>&1
  echo "java pdl exit $?"; cat "$out/pdl-java.csv"
}

# The NCCL library a run loads: NCCL_LIBRARY, else PyTorch's (nvidia-nccl-cu13), else any on the host.
nccl_library() {
  local lib
  lib=${NCCL_LIBRARY:-$(python3 -c "import nvidia.nccl as m, os, glob; print((glob.glob(os.path.join(list(m.__path__)[0], 'lib', 'libnccl.so*')) or [''])[0])" 2>/dev/null)}
  [ -n "$lib" ] || lib=$(find / -name 'libnccl.so.2*' 2>/dev/null | head -1)
  echo "$lib"
}

part nccl "the nccl module's tests and all-reduce beside PyTorch's NCCL on every GPU of the host (NCCL_LIBRARY)"
part_nccl() {
  # Issue 16 on this host's GPUs: the nccl module's tests (simulator contracts and the tagged GPU
  # tests), then all-reduce eager and captured beside PyTorch's NCCL. NCCL is the one PyTorch
  # ships (nvidia-nccl-cu13) unless NCCL_LIBRARY names another.
  export NCCL_NVLS_ENABLE=0
  mkdir -p target  # jqwik keeps its run database there
  local lib
  lib=$(nccl_library)
  echo "NCCL library: ${lib:-not found}"
  JAVA_OPTS="-Dcuda.graph.provider=cuda -Dcuda.graph.nccl.library=$lib" timeout 240 .gpu/junit \
    --select-package=cuda.graph.nccl > "$out/nccl-tests.log" 2>&1
  echo "nccl tests exit $?"; grep -E "tests (found|successful|failed|aborted|skipped)" "$out/nccl-tests.log"
  grep -E "NcclGpuTests|✘|Assumption" "$out/nccl-tests.log" | head -20
  timeout 200 .gpu/java -Dcuda.graph.provider=cuda -Dcuda.graph.nccl.library="$lib" \
    cuda.graph.benchmarks.NcclBench 5 > "$out/nccl-java.csv" 2>&1
  echo "java nccl bench exit $?"; cat "$out/nccl-java.csv"
  timeout 200 python3 .gpu/anchors/nccl_torch.py 5 > "$out/nccl-torch.csv" 2>&1
  echo "torch nccl bench exit $?"; grep -v "^$" "$out/nccl-torch.csv" | tail -22
}

part capture "the missed launch rows through the library and as driver calls (BREAKDOWN_REPS), beside the C++ anchors"
part_capture() {
  # Where the launch path's time goes, twice, interleaved with the C++ anchors: CaptureBreakdown
  # runs each missed row through the library and as the anchors' plain driver calls in the
  # same JVM (every driver call timed, medians), then the anchors and LaunchOverhead as in
  # bench, for the ratios of the day.
  (cd .gpu/anchors && nvcc -O2 -o /tmp/anchor_cu bench.cu -lcuda && nvcc -O2 -o /tmp/capture_cu capture_bench.cu -lcuda) \
    > "$out/anchors-build.log" 2>&1 || { echo "anchors did not build"; cat "$out/anchors-build.log"; }
  local r
  for r in 1 2; do
    (cd .gpu/anchors && /tmp/anchor_cu inc.ptx) > "$out/cpp-$r.csv" 2>&1
    (cd .gpu/anchors && /tmp/capture_cu inc.ptx) > "$out/cpp-capture-$r.csv" 2>&1
    timeout 200 .gpu/java -Dcuda.graph.provider=cuda cuda.graph.benchmarks.CaptureBreakdown "${BREAKDOWN_REPS:-1000}" \
      > "$out/capture-breakdown-$r.log" 2>&1
    echo "capture breakdown $r exit $?"; grep -E "^#|=>|counters" "$out/capture-breakdown-$r.log"
    .gpu/java -Dcuda.graph.provider=cuda -Dbench.capture=false cuda.graph.benchmarks.LaunchOverhead > "$out/cuda-graph-$r.csv" 2>&1
    .gpu/java -Dcuda.graph.provider=cuda -Dbench.only=capture cuda.graph.benchmarks.LaunchOverhead > "$out/cuda-graph-capture-$r.csv" 2>&1
    echo "round $r done"; grep -h "cpp-capture\|counter" "$out"/*-$r.csv
  done
  .gpu/java cuda.graph.benchmarks.RatioTable "$out"/cpp-[12].csv "$out"/cpp-capture-[12].csv \
    "$out"/cuda-graph-[12].csv "$out"/cuda-graph-capture-[12].csv | tee "$out/ratios.md"
}

part changing "issue 23's contracts of graphs changed by threads and faults, and the handle-value reuse contract"
part_changing() {
  # Issue 23: one graph changed by several threads and by faults on the real driver, under the
  # instruments (every overlapping call on one graph object counted: there must be none), and
  # that the driver hands a destroyed graph's value to a capture's graph, as the simulator models
  # (issue 36, item 11: HandleValueReuseContract asserts it; the probe before it only printed).
  mkdir -p target  # jqwik keeps its run database there
  timeout 300 .gpu/junit --select-class=cuda.graph.conformance.CudaConcurrentChangesTests \
    --select-class=cuda.graph.conformance.CudaChangingGraphsSoakTests \
    --select-class=cuda.graph.conformance.CudaChangingGraphsTests \
    --select-class=cuda.graph.conformance.CudaHandleValueReuseTests > "$out/changing.log" 2>&1
  echo "changing-graph contracts exit $?"; grep -E "tests (found|successful|failed|aborted)|✘|overlapped" "$out/changing.log" | head -30
}

part launch-ab "LaunchOverhead with .gpu/cp/baseline-api.jar (another commit's api) and this one's, interleaved"
part_launch_ab() {
  # The single-threaded launch path before and after a change of the api module: the same
  # LaunchOverhead run with the bundle's api jar and with the api jar of the commit to compare
  # with (built by the caller into .gpu/cp/baseline-api.jar), three times each, interleaved.
  local api
  # The bundle names its own jars (NNN-artifact-version.jar): ls is safe and sorts them.
  # shellcheck disable=SC2012
  api=$(cd .gpu/cp && ls -d -- *-cuda-graph-api-*.jar | head -1)
  if [ ! -f .gpu/cp/baseline-api.jar ] || [ -z "$api" ]; then
    echo "launch-ab: no .gpu/cp/baseline-api.jar or api jar"; return
  fi
  sed "s#cp/$api#cp/baseline-api.jar#" .gpu/java > .gpu/java-baseline; chmod +x .gpu/java-baseline
  local r
  for r in 1 2 3; do
    .gpu/java-baseline -Dcuda.graph.provider=cuda -Dbench.capture=false cuda.graph.benchmarks.LaunchOverhead > "$out/launch-before-$r.csv" 2>&1
    .gpu/java -Dcuda.graph.provider=cuda -Dbench.capture=false cuda.graph.benchmarks.LaunchOverhead > "$out/launch-after-$r.csv" 2>&1
    echo "launch round $r done"
  done
  grep -H "graph\|eager" "$out"/launch-*.csv | head -80
}

part matmul "issue 24: the blas module's GPU tests, then one matmul per step: C++, PyTorch and ours in interleaved rounds (MATMUL_ROUNDS: 3)"
part_matmul() {
  # Issue 24: the blas module's tests on the GPU (cuBLASLt through the binding), then one
  # matmul per step eager and replayed, for the issue's shapes: C++ (the same cuBLASLt call, and
  # the decode example's matrix-vector kernel), PyTorch (torch.matmul eager and in a CUDA graph)
  # and ours, each once a round in interleaved rounds, so drift of the machine hits all alike;
  # MatmulTable shows each figure as median [min-max] over the rounds and ratios of medians.
  mkdir -p target
  timeout 200 .gpu/junit --select-package=cuda.graph.blas > "$out/blas-tests.log" 2>&1
  echo "blas tests exit $?"; grep -aE "tests (found|successful|failed|aborted|skipped)|✘" "$out/blas-tests.log" | head -20
  rm -f /tmp/matmul_bench
  (cd .gpu/anchors/matmul && nvcc -O2 -arch=sm_90 -I"$OLDPWD/examples-decode/src/main/cuda" matmul_bench.cu -lcublasLt -o /tmp/matmul_bench) \
    > "$out/matmul-build.log" 2>&1 || { echo "matmul C++ anchor did not build: no C++ column"; cat "$out/matmul-build.log"; }
  local r rounds=${MATMUL_ROUNDS:-3}
  for ((r = 1; r <= rounds; r++)); do
    # stdout is the CSV; stderr (each shape's eager-versus-graph check) goes to the log.
    [ -x /tmp/matmul_bench ] && { timeout 400 /tmp/matmul_bench > "$out/matmul-cpp-$r.csv" 2> "$out/matmul-cpp-$r.log"; echo "matmul C++ round $r exit $?"; }
    timeout 400 python3 .gpu/anchors/matmul/matmul_torch.py > "$out/matmul-torch-$r.csv" 2> "$out/matmul-torch-$r.log"; echo "matmul torch round $r exit $?"
    timeout 400 .gpu/java -Dcuda.graph.provider=cuda cuda.graph.benchmarks.MatmulBench > "$out/matmul-java-$r.csv" 2> "$out/matmul-java-$r.log"; echo "matmul java round $r exit $?"
  done
  local files=()
  mapfile -t files < <(compgen -G "$out/matmul-*-[0-9]*.csv"; compgen -G "$out/matmul-cpp-[0-9]*.log")
  .gpu/java cuda.graph.benchmarks.MatmulTable "${files[@]}" | tee "$out/matmul.md"
}

part blas-soak "issue 24's workspace soak, plainly and under memcheck (BLAS_SOAK_STEPS, BLAS_SOAK_SANITIZER_STEPS: 10000)"
part_blas_soak() {
  # Issue 24's workspace case: 8 graphs captured on one stream, some sharing a workspace,
  # random creates, replays and destroys, each replay checked bit for bit against the eager
  # product, the ledger back to zero, shared workspaces the largest need; then the same under
  # memcheck with leak checking (API errors left out, as in the sanitizer part).
  mkdir -p target  # jqwik keeps its run database there
  local steps=${BLAS_SOAK_STEPS:-10000}
  JAVA_OPTS="-Dcuda.graph.blas.soak.steps=$steps" timeout 200 .gpu/junit \
    --select-class=cuda.graph.blas.CudaWorkspaceLifetimeGpuTests > "$out/blas-soak.log" 2>&1
  echo "blas soak, $steps steps: exit $?"
  grep -aE "tests (found|successful|failed|aborted|skipped)|containers aborted|replays checked|✘|■" "$out/blas-soak.log" | head -20
  local cs
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  steps=${BLAS_SOAK_SANITIZER_STEPS:-$steps}
  JAVA_OPTS="-Dcuda.graph.blas.soak.steps=$steps" timeout 380 "$cs" --tool memcheck --leak-check full \
    --report-api-errors no --target-processes all \
    .gpu/junit --select-class=cuda.graph.blas.CudaWorkspaceLifetimeGpuTests > "$out/sanitizer-blas-soak.log" 2>&1
  echo "blas soak under memcheck, $steps steps: exit $?"
  grep -aE "ERROR SUMMARY|LEAK SUMMARY|tests (found|successful|failed|aborted|skipped)|containers aborted|replays checked|✘|■" \
    "$out/sanitizer-blas-soak.log" | tail -12
}

part cache "issue 25: the graph cache at 67 batch sizes beside PyTorch's CUDAGraph Trees"
part_cache() {
  # Issue 25: the graph cache at vLLM's 67 batch sizes (warm-up, graph memory, cost of a hit),
  # then PyTorch's CUDAGraph Trees on the same step (torch.compile, reduce-overhead, dynamic).
  timeout 240 .gpu/java -Dcuda.graph.provider=cuda cuda.graph.benchmarks.CacheBench 15 > "$out/cache-java.csv" 2>&1
  echo "cache bench exit $?"; grep -v "INFO\|ProviderSelector" "$out/cache-java.csv" | tail -14
  timeout 400 python3 .gpu/anchors/cache/cache_torch.py 15 > "$out/cache-torch.csv" 2>&1
  echo "cache torch exit $?"; grep -v "^$" "$out/cache-torch.csv" | tail -10
}

part graphmem "issue 25: the driver's graph-memory accounting (GRAPHMEM_ARGS=\"256 8\": MiB, graphs), then its contract"
part_graphmem() {
  # Issue 25: when the driver lets graphs with allocation nodes share physical memory.
  # GRAPHMEM_ARGS is split into the probe's arguments on purpose.
  # shellcheck disable=SC2086
  (cd .gpu/anchors/graphmem && nvcc -O2 -arch=sm_90 graph_mem_probe.cu -lcuda -o /tmp/graph_mem_probe) \
    > "$out/graphmem-build.log" 2>&1 && /tmp/graph_mem_probe ${GRAPHMEM_ARGS:-256 8} > "$out/graphmem.csv" 2>&1
  echo "graph memory probe exit $?"; cat "$out/graphmem.csv"
  mkdir -p target
  timeout 200 .gpu/junit --select-class=cuda.graph.conformance.CudaGraphMemoryTests > "$out/graphmem-contract.log" 2>&1
  echo "graph memory contract exit $?"; grep -aE "tests (found|successful|failed|aborted|skipped)|✘" "$out/graphmem-contract.log" | head -20
}

part cache-contract "issue 36 items 3-5: GraphCacheContract on the GPU (16 threads under a 64 MiB budget among them), then GraphMemoryContract"
part_cache_contract() {
  # Issue 36, items 3 to 5: the graph cache's contract, whose many-threads test reads the device's
  # graph-memory high-water; the graph-memory contract after it, on the same driver.
  mkdir -p target
  timeout 240 .gpu/junit --select-class=cuda.graph.conformance.CudaGraphCacheTests \
    --select-class=cuda.graph.conformance.CudaGraphMemoryTests > "$out/cache-contract.log" 2>&1
  echo "cache contract exit $?"; grep -aE "tests (found|successful|failed|aborted|skipped)" "$out/cache-contract.log"
  grep -aE "✘|AssertionFailedError|high-water" "$out/cache-contract.log" | head -20 | cut -c1-2000
}

part temporaries "issue 25 item 1: GraphTemporariesContract on the GPU, plainly and under memcheck"
part_temporaries() {
  # Issue 25, item 1: graphs with allocation and free nodes (Scope.temporary) on the driver.
  mkdir -p target
  timeout 200 .gpu/junit --select-class=cuda.graph.conformance.CudaGraphTemporariesTests > "$out/temporaries.log" 2>&1
  echo "temporaries contract exit $?"; grep -aE "tests (found|successful|failed|aborted|skipped)|✘" "$out/temporaries.log" | head -20
  local cs
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  timeout 300 "$cs" --tool memcheck --leak-check full --report-api-errors no --target-processes all \
    .gpu/junit --select-class=cuda.graph.conformance.CudaGraphTemporariesTests > "$out/sanitizer-temporaries.log" 2>&1
  echo "temporaries under memcheck exit $?"; grep -aE "ERROR SUMMARY|LEAK SUMMARY|tests (successful|failed)" "$out/sanitizer-temporaries.log" | tail -6
}

# llm_runner java|junit: the launcher of the llm module's class path, the embedding staging's
# (scripts/gpu-embed-stage.sh, unpack.sh, assemble.sh) or else the one-call pack's
# (scripts/gpu-llm-pack.sh, then tar xzf .gpu-llm/pack.tgz); a sentence on stdout and status 1 if
# neither is there.
llm_runner() {
  if [ -x ".gpu-embed/$1" ] && [ -d .gpu-embed/payload ]; then echo ".gpu-embed/$1"
  elif [ -x ".gpu-llm/$1" ]; then echo ".gpu-llm/$1"
  else
    echo "no staged class path: scripts/gpu-llm-pack.sh (one call; tar xzf .gpu-llm/pack.tgz here), or scripts/gpu-embed-stage.sh with unpack.sh and assemble.sh"
    return 1
  fi
}

part query-random "issue 39: one query's breakdown on random weights of all-MiniLM's and bge-small's sizes (QueryBreakdown --random-weights: the fp16 query path with its LayerNorms folded and not, the cuBLASLt path in fp16 and fp32; their agreement), the encoder kernels' tests, then PyTorch's query lines on random weights of the same sizes (minilm_torch.py --random-query); QUERY_RANDOM_CALLS: 2000 (staged: scripts/gpu-llm-pack.sh embeddings, one call; tar xzf .gpu-encoder/pack.tgz)"
part_query_random() {
  if [ ! -x .gpu-encoder/java ] || [ ! -d .gpu-encoder/payload ]; then
    echo "query-random: no staged pack: scripts/gpu-llm-pack.sh embeddings here, tar xzf .gpu-encoder/pack.tgz there"
    return
  fi
  local p=.gpu-encoder/payload start=$SECONDS calls=${QUERY_RANDOM_CALLS:-2000}
  mkdir -p target # jqwik keeps its run database there
  timeout 150 .gpu-encoder/junit --select-class=cuda.graph.embeddings.internal.gpu.EncoderKernelsGpuTests \
    > "$out/encoder-kernels.log" 2>&1
  echo "query-random kernels exit $? ($((SECONDS - start)) s)"
  grep -aE "tests (successful|failed|aborted)|✘" "$out/encoder-kernels.log" | head -10
  timeout 240 .gpu-encoder/java -Dcuda.graph.provider=cuda cuda.graph.embeddings.internal.gpu.QueryBreakdown \
    --random-weights --tokenizer "$p/minilm-tokenizer.json" --sentences "$p/sentences.txt" \
    --models minilm,bge --queries "$calls" > "$out/qb-random.log" 2>&1
  echo "query-random breakdown exit $? ($((SECONDS - start)) s)"
  grep -aE "^(query_|#)" "$out/qb-random.log" | cut -c1-400
  local d
  d=$(mktemp -d)
  cp "$p/minilm-tokenizer.json" "$d/tokenizer.json" && cp "$p/sentences.txt" "$d/sentences.txt"
  QUERY_CALLS=$calls timeout 200 python3 embeddings/reference/minilm_torch.py "$d" --random-query \
    > "$out/torch-random.log" 2>&1
  echo "query-random torch exit $? ($((SECONDS - start)) s)"
  grep -aE "^(torch_query|#)" "$out/torch-random.log" | cut -c1-300
}

part llm-check "issue 40 item 2: make_checkpoint.py's anchors (Llama-3.2-1B's shape, random weights; LLM_CHECK_DTYPES: float32 bfloat16) into /tmp, then the engine's greedy tokens against transformers' generate (TransformersCheckGpuTests), the kernels and the batched step (staged: scripts/gpu-llm-pack.sh, one call, or scripts/gpu-embed-stage.sh)"
part_llm_check() {
  # The llm module travels in the embedding staging (Gson and DJL's tokenizers are on its class
  # path): after scripts/gpu-embed-stage.sh, .gpu-pack/unpack.sh and .gpu-pack/assemble.sh. An
  # anchor already made on this machine (its expected.json is written last) is kept, so a rerun on
  # a warm machine goes straight to the tests. One line per test class, its log in $out.
  local run
  run=$(llm_runner junit) || { echo "llm-check: $run"; return; }
  mkdir -p target
  local d dir t0 rc anchors=() c log
  for d in ${LLM_CHECK_DTYPES:-float32 bfloat16}; do
    dir=/tmp/llm-anchor-$d
    if [ -f "$dir/expected.json" ]; then
      echo "make_checkpoint $d: $dir made earlier, kept"
    else
      rm -rf "$dir"; t0=$SECONDS
      timeout 240 python3 -B llm/reference/make_checkpoint.py --out "$dir" --dtype "$d" > "$out/llm-anchor-$d.log" 2>&1
      rc=$?
      echo "make_checkpoint $d: exit $rc, $((SECONDS - t0)) s; $(grep -a 'make_checkpoint: expected.json' "$out/llm-anchor-$d.log" | cut -c1-300)"
      [ "$rc" = 0 ] || tail -5 "$out/llm-anchor-$d.log"
    fi
    if [ -f "$dir/expected.json" ]; then
      anchors+=("$dir"); cp "$dir/expected.json" "$out/llm-expected-$d.json"
    fi
  done
  # With no anchor made the check fails by itself (a GPU run without anchors must not pass). The
  # part's status is the test classes': 0 only when every one passed.
  local failed=0
  for c in TransformersCheckGpuTests LlmKernelsGpuTests BatchStepGpuTests; do
    log="$out/llm-check-$c.log"; t0=$SECONDS
    JAVA_OPTS="-Dcuda.graph.llm.anchors=$(IFS=:; echo "${anchors[*]}") ${JAVA_OPTS:-}" timeout 240 \
      "$run" --disable-ansi-colors --select-class="cuda.graph.llm.internal.engine.$c" > "$log" 2>&1
    rc=$?
    [ "$rc" = 0 ] || failed=1
    echo "$c: exit $rc, $((SECONDS - t0)) s, $(grep -aoE '[0-9]+ tests (successful|failed|aborted)' "$log" | paste -sd, | sed 's/,/, /g')"
    grep -aoE "(prompt [0-9]+ \(|llm-anchor-[a-z0-9]+ \()[^\`]*" "$log" | sed 's/^/  /' | cut -c1-400
    grep -aE "✘|↷|■" "$log" | head -10 | cut -c1-1000
  done
  return "$failed"
}

part llm-bench "issue 40: LlmBench decode (batches 1-128, 512-token contexts) and a 1,000-request Poisson load beside transformers' static-cache generate, compiled (LLM_BENCH_BANDWIDTH_TBS: 3.35, LLM_BENCH_RATE: 20 requests/s, LLM_BENCH_MODEL: /tmp/llama-bench-bf16, LLM_BENCH_EAGER=1 adds eager; staged: scripts/gpu-llm-pack.sh, one call, or scripts/gpu-embed-stage.sh)"
part_llm_bench() {
  # Issue 40's benchmark, about 9 minutes: the bf16 checkpoint at Llama-3.2-1B's shape (random
  # weights, made once into /tmp), LlmBench's decode and load through the engine's scheduler, then
  # transformers on the same directory in the time left. Every line is figure,key=value,...
  local run
  run=$(llm_runner java) || { echo "llm-bench: $run"; return; }
  local model=${LLM_BENCH_MODEL:-/tmp/llama-bench-bf16} bw=${LLM_BENCH_BANDWIDTH_TBS:-3.35}
  local start=$SECONDS
  if [ ! -f "$model/expected.json" ]; then
    rm -rf "$model" # what a cut run left
    timeout 240 python3 llm/reference/make_checkpoint.py --out "$model" --dtype bfloat16 --new-tokens 8 \
      > "$out/llm-bench-checkpoint.log" 2>&1
    echo "llm-bench checkpoint exit $? ($((SECONDS - start)) s)"; tail -2 "$out/llm-bench-checkpoint.log"
  fi
  timeout 150 "$run" -Dcuda.graph.provider=cuda cuda.graph.llm.bench.LlmBench --model "$model" \
    --mode decode --bandwidth-tbs "$bw" --limit-s 40 > "$out/llm-bench-decode.log" 2>&1
  echo "llm-bench decode exit $? ($((SECONDS - start)) s)"
  grep -aE "^(setup|decode|graphs),|Exception|Error" "$out/llm-bench-decode.log" | head -20 | cut -c1-400
  timeout 170 "$run" -Dcuda.graph.provider=cuda cuda.graph.llm.bench.LlmBench --model "$model" \
    --mode load --rate "${LLM_BENCH_RATE:-20}" --limit-s 150 > "$out/llm-bench-load.log" 2>&1
  echo "llm-bench load exit $? ($((SECONDS - start)) s)"
  grep -aE "^(load|graphs),|Exception|Error" "$out/llm-bench-load.log" | head -10 | cut -c1-600
  local left=$((540 - (SECONDS - start))) modes=compile
  [ "${LLM_BENCH_EAGER:-0}" = 1 ] && modes=compile,eager
  if [ "$left" -lt 60 ]; then
    echo "llm-bench torch: skipped, $left s left of the part's 540"
    return
  fi
  timeout "$left" python3 llm/reference/llm_torch.py --model "$model" --modes "$modes" --limit-s 90 \
    --budget-s $((left - 30)) --bandwidth-tbs "$bw" > "$out/llm-torch.log" 2>&1
  echo "llm-bench torch exit $? ($((SECONDS - start)) s)"
  grep -aE "^(decode|compile),|^# |Error" "$out/llm-torch.log" | head -20 | cut -c1-400
}

part llm-sweep "issue 40: the kernel and step tests, then batches 1 and 8 on one engine a tuning of a step of one token, loaded side by side in one process and measured round by round (LLM_SWEEP_TUNINGS: 4:rope,4:inside,4:apart; LLM_SWEEP_ROUNDS: 5), on the bf16 checkpoint of LLM_BENCH_MODEL (made if absent); about 3 minutes (staged: scripts/gpu-llm-pack.sh, one call)"
part_llm_sweep() {
  local run java model=${LLM_BENCH_MODEL:-/tmp/llama-bench-bf16} bw=${LLM_BENCH_BANDWIDTH_TBS:-3.35}
  run=$(llm_runner junit) || { echo "llm-sweep: $run"; return; }
  java=$(llm_runner java) || { echo "llm-sweep: $java"; return; }
  local start=$SECONDS mk=
  mkdir -p target
  if [ ! -f "$model/expected.json" ]; then
    rm -rf "$model"
    timeout 200 python3 -B llm/reference/make_checkpoint.py --out "$model" --dtype bfloat16 --new-tokens 8 \
      > "$out/llm-sweep-checkpoint.log" 2>&1 &
    mk=$!
  fi
  timeout 150 "$run" --disable-ansi-colors --select-class=cuda.graph.llm.internal.engine.LlmKernelsGpuTests \
    --select-class=cuda.graph.llm.internal.engine.BatchStepGpuTests > "$out/llm-sweep-tests.log" 2>&1
  echo "llm-sweep tests exit $? ($((SECONDS - start)) s)"
  grep -aE "tests (successful|failed|aborted)|✘" "$out/llm-sweep-tests.log" | head -12 | cut -c1-600
  [ -z "$mk" ] || { wait "$mk"; echo "llm-sweep checkpoint exit $? ($((SECONDS - start)) s)"; }
  timeout 240 "$java" -Dcuda.graph.provider=cuda cuda.graph.llm.bench.LlmBench --model "$model" \
    --mode decode --batches 1,8 --rounds "${LLM_SWEEP_ROUNDS:-5}" --bandwidth-tbs "$bw" --limit-s 20 \
    --tunings "${LLM_SWEEP_TUNINGS:-4:rope,4:inside,4:apart}" > "$out/llm-sweep.log" 2>&1
  echo "llm-sweep decode exit $? ($((SECONDS - start)) s)"
  grep -aE "^decode" "$out/llm-sweep.log" | grep -oE "tuning=[0-9a-z:]+|batch=[0-9]+|tok_s=[0-9.]+|min=[0-9.]+|max=[0-9.]+" \
    | paste -d' ' - - - - -
}

part timeline "issues 39 and 40: where a replay's time goes, from the kernels' own timestamps (testkit's KernelTimeline; the packs carry the traced PTX under trace/): the trace's GPU tests, a 1 x 32 query's replay (QueryBreakdown --trace, random weights of all-MiniLM's and bge-small's sizes) where .gpu-encoder is staged, and where .gpu-llm is, one step of one token at position TIMELINE_POSITION (default 129) through the engine (LlmBench --mode trace, LLM_BENCH_MODEL, made if absent) and the decode example's traced step at the same position, Llama-3.2-1B's shape; about 4 minutes (staged: scripts/gpu-llm-pack.sh embeddings and/or llm)"
part_timeline() {
  local start=$SECONDS pos=${TIMELINE_POSITION:-129}
  mkdir -p target
  if [ -x .gpu-encoder/java ] && [ -d .gpu-encoder/trace ]; then
    local p=.gpu-encoder/payload
    CP_FIRST=$PWD/.gpu-encoder/trace timeout 100 .gpu-encoder/junit --disable-ansi-colors \
      --select-method=cuda.graph.embeddings.internal.gpu.EncoderKernelsGpuTests#aLaunchBetweenTraceToCallsRecordsEachBlockOnlyWhereThePtxIsBuiltToTrace \
      > "$out/timeline-encoder-test.log" 2>&1
    echo "timeline encoder test exit $? ($((SECONDS - start)) s)"
    grep -aE "tests (successful|failed|aborted)|✘" "$out/timeline-encoder-test.log" | head -4
    CP_FIRST=$PWD/.gpu-encoder/trace timeout 200 .gpu-encoder/java -Dcuda.graph.provider=cuda \
      cuda.graph.embeddings.internal.gpu.QueryBreakdown --random-weights --tokenizer "$p/minilm-tokenizer.json" \
      --sentences "$p/sentences.txt" --models minilm,bge --trace 100 > "$out/timeline-query.log" 2>&1
    echo "timeline query exit $? ($((SECONDS - start)) s)"
    grep -aE "^query_trace|^span" "$out/timeline-query.log" | cut -c1-300
  fi
  if [ -x .gpu-llm/java ] && [ -d .gpu-llm/trace ]; then
    local model=${LLM_BENCH_MODEL:-/tmp/llama-bench-bf16}
    CP_FIRST=$PWD/.gpu-llm/trace timeout 100 .gpu-llm/junit --disable-ansi-colors \
      --select-method=cuda.graph.llm.internal.engine.LlmKernelsGpuTests#aLaunchBetweenTraceToCallsRecordsEachBlockOnlyWhereThePtxIsBuiltToTrace \
      > "$out/timeline-llm-test.log" 2>&1
    echo "timeline llm test exit $? ($((SECONDS - start)) s)"
    grep -aE "tests (successful|failed|aborted)|✘" "$out/timeline-llm-test.log" | head -4
    if [ ! -f "$model/expected.json" ]; then
      rm -rf "$model"
      timeout 200 python3 -B llm/reference/make_checkpoint.py --out "$model" --dtype bfloat16 --new-tokens 8 \
        > "$out/timeline-checkpoint.log" 2>&1
      echo "timeline checkpoint exit $? ($((SECONDS - start)) s)"
    fi
    CP_FIRST=$PWD/.gpu-llm/trace timeout 150 .gpu-llm/java -Dcuda.graph.provider=cuda cuda.graph.llm.bench.LlmBench \
      --model "$model" --mode trace --context "$pos" --steps 50 --warmup 5 > "$out/timeline-engine.log" 2>&1
    echo "timeline engine exit $? ($((SECONDS - start)) s)"
    grep -aE "^trace|^# span" "$out/timeline-engine.log" | cut -c1-300
    # The example traces the step at position tokens + 1.
    CP_FIRST=$PWD/.gpu-llm/trace timeout 150 .gpu-llm/java -Dcuda.graph.provider=cuda cuda.graph.examples.decode.Decode \
      --model llama-3.2-1B --check-steps 2 --tokens $((pos - 1)) --reps 3 --trace "$out/timeline-decode" \
      > "$out/timeline-decode.log" 2>&1
    echo "timeline decode example exit $? ($((SECONDS - start)) s)"
    grep -aE "graph\+pdl|trace of one step" "$out/timeline-decode.log" | head -3 | cut -c1-300
  fi
}

usage() {
  echo "usage: scripts/gpu-run.sh [PART...]   (default: tests bench examples); the parts:"
  for p in "${known[@]}"; do printf '  %-13s %s\n' "$p" "${about[$p]}"; done
}

case ${1:-} in
  --list|help|-h|--help) usage; exit 0 ;;
esac
parts=("$@")
[ $# -gt 0 ] || parts=(tests bench examples)
for p in "${parts[@]}"; do
  [ -n "${about[$p]+set}" ] || { echo "gpu-run.sh: unknown part '$p'; known parts: ${known[*]}" >&2; exit 2; }
done

out=${OUT:-gpu-out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
for lib in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
  [ -d "$lib" ] && export LD_LIBRARY_PATH="$lib:${LD_LIBRARY_PATH:-}"
done
for p in "${parts[@]}"; do
  "part_${p//-/_}"
done
