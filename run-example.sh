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
# the last build; the first build shows each module as Maven reaches it and what it downloads, and
# a failed one Maven's whole output, kept in target/run-example-build.log), then runs it on the
# GPU when the cuda provider finds one and on the CUDA simulator otherwise; the first line says
# which. It runs on a JDK 25, which scripts/jdk25.sh finds (JAVA_HOME, the java on PATH, the usual
# install places) or says how to get.
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
# progress ON: reads Maven's output (batch mode, transfers logged) and prints on stderr only what
# tells how far the build is: "[3/11] cuda-graph-simulator" as the reactor reaches each module
# (from the start when ON is set, else from the first download on) and, where Maven downloads, a
# note, then how many files and bytes it fetched. Maven writes sizes in SI units (kB, MB).
progress() {
  local on=$1 line id= reached= noted= files=0 bytes=0 all_files=0 all_bytes=0 frac scale
  while IFS= read -r line; do
    if [[ $line =~ ^\[INFO\]\ -+\<\ [^:\ ]+:([^\ ]+)\ \>-+$ ]]; then
      id=${BASH_REMATCH[1]}
    elif [[ $line =~ ^\[INFO\]\ Building\ .*\ (\[[0-9]+/[0-9]+\])$ ]]; then
      downloaded
      reached="${BASH_REMATCH[1]} $id" noted=
      [[ -z $on ]] || echo "  $reached" >&2
    elif [[ $line =~ ^\[INFO\]\ Downloading\ from\ ([^:\ ]+): ]] && [[ -z $noted ]]; then
      if [[ -z $on ]]; then # a warm build that downloads after all (a new dependency)
        on=yes
        [[ -z $reached ]] || echo "  $reached" >&2
      fi
      echo "    downloading from ${BASH_REMATCH[1]} ..." >&2
      noted=yes
    elif [[ $line =~ ^\[INFO\]\ Downloaded\ from\ .*\ \(([0-9]+)(\.([0-9]+))?\ ([kMG]?)B\ at\ [^\)]*\)$ ]]; then
      frac=${BASH_REMATCH[3]}
      case ${BASH_REMATCH[4]} in k) scale=1000 ;; M) scale=1000000 ;; G) scale=1000000000 ;; *) scale=1 ;; esac
      files=$((files + 1)) bytes=$((bytes + 10#${BASH_REMATCH[1]} * scale))
      [[ -z $frac ]] || bytes=$((bytes + 10#$frac * scale / 10 ** ${#frac}))
    fi
  done
  downloaded
  ((all_files == 0)) || echo "  Maven downloaded $(count "$all_files"), $(size "$all_bytes") in all" >&2
}
# downloaded: progress's note of the files fetched since its last one, if any (its variables).
downloaded() {
  ((files)) || return 0
  echo "    downloaded $(count "$files"), $(size "$bytes")" >&2
  all_files=$((all_files + files)) all_bytes=$((all_bytes + bytes)) files=0 bytes=0 noted=
}
count() { if (($1 == 1)); then echo "1 file"; else echo "$1 files"; fi; }
size() {
  if (($1 < 1000)); then
    echo "$1 B"
  elif (($1 < 1000000)); then
    echo "$(($1 / 1000)) kB"
  else
    echo "$(($1 / 1000000)).$(($1 / 100000 % 10)) MB"
  fi
}

if [[ -n $stale ]]; then
  # The first build on this machine downloads Maven (for ./mvnw) and everything the build uses: it
  # shows a line per module and what it downloads. Later builds say one line; the same lines
  # appear if one downloads after all. Maven's whole output is in the log, shown in full when the
  # build fails.
  first=
  if ! compgen -G "${MAVEN_USER_HOME:-$HOME/.m2}/wrapper/dists/apache-maven-*/*/bin/mvn" > /dev/null; then
    first=yes
    echo "run-example.sh: building the example; the first run downloads Maven, then the build's" \
      "plugins and dependencies (a few minutes; later runs take seconds)" >&2
    echo "  downloading Maven for ./mvnw ($(sed -n 's#^distributionUrl=.*/##p' \
      .mvn/wrapper/maven-wrapper.properties | tr -d '[:space:]'))" >&2
  elif [[ ! -d $HOME/.m2/repository/org/jspecify ]]; then
    first=yes
    echo "run-example.sh: building the example; the first run downloads the build's plugins and" \
      "dependencies (a few minutes; later runs take seconds)" >&2
  else
    echo "run-example.sh: building the example with Maven (about 20 s)" >&2
  fi
  mkdir -p target
  log=target/run-example-build.log
  started=$(mktemp)
  SECONDS=0
  # What the example runs on, without the tests, the format check and the source and javadoc jars
  # (./mvnw verify checks those): one reactor build, so the class path names this checkout's jars,
  # and nothing is installed into your Maven repository.
  status=0
  ./mvnw -B -pl "$module" -am -DskipTests -Dspotless.check.skip=true \
    -Dpublication.skip=true package dependency:build-classpath -DincludeScope=runtime \
    -Dmdep.outputFile=target/run-classpath.txt 2>&1 | tee "$log" | progress "$first" || status=$?
  if ((status != 0)); then
    rm -f "$started"
    cat "$log" >&2
    echo "run-example.sh: the build failed (exit $status): Maven's output is above, and in $log" >&2
    exit "$status"
  fi
  [[ -z $first ]] || echo "run-example.sh: built in $SECONDS s (Maven's output: $log)" >&2
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
