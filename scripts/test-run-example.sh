#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Tests what ./run-example.sh prints around its build, with a fake ./mvnw (it replays a Maven log
# written below in Maven 3.9's batch format and exits with the status asked) and a fake JDK 25, in a
# temporary copy of the script: no JVM, no Maven, no network, a second or two.
#   - a first run (no Maven for the wrapper, no repository): one line per module as the reactor
#     reaches it and what Maven downloads, and none of Maven's other lines; the whole log is kept;
#   - a second run with nothing changed: no build and nothing on stderr;
#   - a rebuild after a change: the one line it always said, nothing more;
#   - a rebuild that downloads after all (a new dependency): the module lines from there on;
#   - a failed build: Maven's output in full, then what failed, and the example does not run.
# One line per case; exits 1 on any failure.
#   bash scripts/test-run-example.sh        (.ci/run runs it before Maven)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/run-example-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The copy: the script, the JDK check it sources, the wrapper's properties, a module with a source.
repo=$tmp/repo
mkdir -p "$repo/scripts" "$repo/.mvn/wrapper" "$repo/examples-embed/src/main/java" "$tmp/lib"
cp "$root/run-example.sh" "$repo/"
cp "$root/scripts/jdk25.sh" "$repo/scripts/"
cp "$root/.mvn/wrapper/maven-wrapper.properties" "$repo/.mvn/wrapper/"
echo '<project/>' > "$repo/pom.xml"
echo 'class EmbedDemo {}' > "$repo/examples-embed/src/main/java/EmbedDemo.java"
: > "$tmp/lib/dependency.jar"
touch -d '2026-01-01' "$repo/pom.xml" "$repo/examples-embed/src/main/java/EmbedDemo.java" \
  "$tmp/lib/dependency.jar"

# The fake Maven: logs its arguments, replays $FAKE_LOG, writes the class path file of the module
# after -pl (as dependency:build-classpath does) and exits with $FAKE_STATUS. The progress lines come
# from Maven's module and transfer lines, which -q and -ntp would hide.
cat > "$repo/mvnw" <<EOF
#!/usr/bin/env bash
echo "\$*" >> "$tmp/mvn-calls"
for a; do
  case \$a in -q | --quiet | -ntp | --no-transfer-progress) echo "fake mvnw: \$a hides the progress" >&2; exit 3 ;; esac
done
while (("\$#")) && [[ \$1 != -pl ]]; do shift; done
cat "\$FAKE_LOG"
[[ \${FAKE_STATUS:-0} != 0 ]] || { mkdir -p "\$2/target" && printf %s "$tmp/lib/dependency.jar" > "\$2/target/run-classpath.txt"; }
exit "\${FAKE_STATUS:-0}"
EOF
chmod +x "$repo/mvnw"

jdk=$tmp/jdk-25
mkdir -p "$jdk/bin"
printf '#!/bin/sh\nfor a; do [ "$a" = -version ] && { echo '\''openjdk version "25.0.1" 2025-09-16'\'' >&2; exit 0; }; done\necho "fake java ran"\n' > "$jdk/bin/java"
printf '#!/bin/sh\n' > "$jdk/bin/javac"
chmod +x "$jdk/bin/java" "$jdk/bin/javac"
echo 'JAVA_VERSION="25.0.1"' > "$jdk/release"

home=$tmp/home
central='https://repo.maven.apache.org/maven2'
# A first build's log (shortened): POMs read before the reactor starts, plugins downloaded in the
# first module, none in the second, a large jar in the third, and the lines Maven prints anyway.
cat > "$tmp/cold.log" <<EOF
[INFO] Scanning for projects...
[INFO] Downloading from central: $central/org/apache/apache/35/apache-35.pom
[INFO] Downloaded from central: $central/org/apache/apache/35/apache-35.pom (5.7 kB at 9.5 kB/s)
[INFO] ------------------------------------------------------------------------
[INFO] Reactor Build Order:
[INFO] 
[INFO] cuda-graph                                                         [pom]
[INFO] cuda-graph SPI                                                     [jar]
[INFO] cuda-graph embedding example                                       [jar]
[INFO] 
[INFO] ---------------< io.github.cudagraph:cuda-graph-parent >----------------
[INFO] Building cuda-graph 0.2.0-SNAPSHOT                                 [1/3]
[INFO]   from pom.xml
[INFO] --------------------------------[ pom ]---------------------------------
[INFO] Downloading from central: $central/org/apache/maven/plugins/maven-enforcer-plugin/3.6.2/maven-enforcer-plugin-3.6.2.pom
[INFO] Downloaded from central: $central/org/apache/maven/plugins/maven-enforcer-plugin/3.6.2/maven-enforcer-plugin-3.6.2.pom (8.2 kB at 69 kB/s)
[INFO] Downloading from central: $central/org/apache/maven/plugins/maven-enforcer-plugin/3.6.2/maven-enforcer-plugin-3.6.2.jar
[INFO] Downloaded from central: $central/org/apache/maven/plugins/maven-enforcer-plugin/3.6.2/maven-enforcer-plugin-3.6.2.jar (1.25 MB at 3.1 MB/s)
[INFO] 
[INFO] --- enforcer:3.6.2:enforce (require-jdk-25) @ cuda-graph-parent ---
[INFO] -----------------< io.github.cudagraph:cuda-graph-spi >-----------------
[INFO] Building cuda-graph SPI 0.2.0-SNAPSHOT                             [2/3]
[INFO] --- compiler:3.15.0:compile (default-compile) @ cuda-graph-spi ---
[INFO] Building jar: /tmp/spi/target/cuda-graph-spi-0.2.0-SNAPSHOT.jar
[INFO] -----------< io.github.cudagraph:cuda-graph-examples-embed >------------
[INFO] Building cuda-graph embedding example 0.2.0-SNAPSHOT               [3/3]
[INFO] Downloading from central: $central/com/example/a-large-library/2.0/a-large-library-2.0.jar
[INFO] Downloaded from central: $central/com/example/a-large-library/2.0/a-large-library-2.0.jar (93 MB at 20 MB/s)
[WARNING] a warning Maven printed
[INFO] BUILD SUCCESS
EOF
# A later build's log: nothing downloaded; then one that downloads a new dependency in module 2.
grep -v 'Download' "$tmp/cold.log" > "$tmp/warm.log"
sed '/Building cuda-graph SPI/a\
[INFO] Downloading from central: '"$central"'/org/example/new/1.0/new-1.0.jar\
[INFO] Downloaded from central: '"$central"'/org/example/new/1.0/new-1.0.jar (512 B at 4 kB/s)' \
  "$tmp/warm.log" > "$tmp/new-dependency.log"
{ grep -v 'BUILD SUCCESS' "$tmp/warm.log"; printf '%s\n' '[ERROR] COMPILATION ERROR :' \
  '[ERROR] /tmp/spi/src/main/java/A.java:[3,1] class, interface, enum, or record expected' \
  '[INFO] BUILD FAILURE'; } > "$tmp/failed.log"

failures=0
# run_case NAME LOG STATUS WANT_RC WANT_STDERR [SETUP]: runs ./run-example.sh in the copy after
# SETUP (shell code), with Maven replaying LOG and exiting STATUS; WANT_STDERR is an extended
# regular expression its whole stderr must match. A status of 0 must also run the example.
run_case() {
  local name=$1 log=$2 status=$3 want_rc=$4 want_err=$5 setup=${6:-} rc=0 out err
  (cd "$repo" && eval "$setup") || echo "FAIL $name: its setup failed: $setup"
  env -i HOME="$home" PATH="$PATH" JAVA_HOME="$jdk" FAKE_LOG="$tmp/$log" FAKE_STATUS="$status" \
    "$repo/run-example.sh" > "$tmp/out" 2> "$tmp/err" || rc=$?
  out=$(cat "$tmp/out"); err=$(cat "$tmp/err")
  if [[ $rc == "$want_rc" && $err =~ ^$want_err$ ]] &&
    { [[ $want_rc != 0 && -z $out ]] || [[ $want_rc == 0 && $out == "fake java ran" ]]; }; then
    echo "ok   $name ($([[ -z $err ]] && echo silent || echo "$(wc -l <<< "$err") line(s) on stderr"))"
  else
    echo "FAIL $name: status $rc (wanted $want_rc)"
    echo "  stdout: $out"
    echo "  stderr:"
    sed 's/^/    /' <<< "$err"
    echo "  wanted:"
    sed 's/^/    /' <<< "$want_err"
    failures=$((failures + 1))
  fi
}
q() { printf '%s' "$1" | sed 's/[][\\.*^$(){}?+|]/\\&/g'; } # a literal in a regular expression

run_case "a first run shows each module and what Maven downloads" cold.log 0 0 \
  "$(q "run-example.sh: building the example; the first run downloads Maven, then the build's plugins and dependencies (a few minutes; later runs take seconds)
  downloading Maven for ./mvnw (apache-maven-")[0-9.]+$(q "-bin.zip)
    downloading from central ...
    downloaded 1 file, 5 kB
  [1/3] cuda-graph-parent
    downloading from central ...
    downloaded 2 files, 1.2 MB
  [2/3] cuda-graph-spi
  [3/3] cuda-graph-examples-embed
    downloading from central ...
    downloaded 1 file, 93.0 MB
  Maven downloaded 4 files, 94.2 MB in all
run-example.sh: built in ")[0-9]+ s \(Maven's output: target/run-example-build\.log\)"
if ! cmp -s "$tmp/cold.log" "$repo/target/run-example-build.log"; then
  echo "FAIL the first run's log: target/run-example-build.log is not Maven's whole output"
  failures=$((failures + 1))
fi
# From here on the wrapper's Maven and a repository are there, as after a real first run.
mkdir -p "$home/.m2/wrapper/dists/apache-maven-3.9.11/1a2b3c/bin" "$home/.m2/repository/org/jspecify"
: > "$home/.m2/wrapper/dists/apache-maven-3.9.11/1a2b3c/bin/mvn"
calls=$(wc -l < "$tmp/mvn-calls")
run_case "a second run with nothing changed builds nothing and says nothing" warm.log 0 0 ''
if [[ $(wc -l < "$tmp/mvn-calls") != "$calls" ]]; then
  echo "FAIL a second run with nothing changed ran Maven: $(tail -1 "$tmp/mvn-calls")"
  failures=$((failures + 1))
fi
changed='touch -d "2026-01-01" examples-embed/target/run-example.built'
run_case "a rebuild after a change says one line" warm.log 0 0 \
  "$(q "run-example.sh: building the example with Maven (about 20 s)")" "$changed"
run_case "a rebuild that downloads shows the modules from there on" new-dependency.log 0 0 \
  "$(q "run-example.sh: building the example with Maven (about 20 s)
  [2/3] cuda-graph-spi
    downloading from central ...
    downloaded 1 file, 512 B
  [3/3] cuda-graph-examples-embed
  Maven downloaded 1 file, 512 B in all")" "$changed"
run_case "a failed build shows Maven's output in full and does not run the example" failed.log 1 1 \
  "$(q "run-example.sh: building the example with Maven (about 20 s)
$(cat "$tmp/failed.log")
run-example.sh: the build failed (exit 1): Maven's output is above, and in target/run-example-build.log")" \
  "$changed"

if ((failures)); then
  echo "test-run-example.sh: $failures case(s) FAILED" >&2
  exit 1
fi
echo "test-run-example.sh: every case passed"
