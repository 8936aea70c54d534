#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Tests scripts/jdk25.sh, the one JDK check, on every branch, with fake JDKs (shell scripts that
# answer -version and -XshowSettings like a JDK), a temporary HOME with a space in it and a PATH
# without the machine's own java: it needs no JDK and starts no JVM. Each case sources the check
# under bash (set -euo pipefail, IFS=$'\n\t') and under sh (set -euf, as ./mvnw does); the last cases
# go through ./mvnw (with a fake Maven) and ./run-example.sh. One line per case; exits 1 on any failure.
#   bash scripts/test-jdk25.sh        (.ci/run runs it before Maven)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
check=$root/scripts/jdk25.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jdk25-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
home="$tmp/home with space"

# A fake JDK: DIR VERSION [jre: no javac] [norelease: no release file].
fake_jdk() {
  local dir=$1 version=$2
  mkdir -p "$dir/bin"
  cat > "$dir/bin/java" <<EOF
#!/bin/sh
for a; do [ "\$a" = -XshowSettings:properties ] && echo "    java.home = $dir" >&2; done
for a; do [ "\$a" = -version ] && { echo 'openjdk version "$version" 2025-09-16' >&2; exit 0; }; done
echo "fake java $version ran: \$*"
EOF
  chmod +x "$dir/bin/java"
  [[ " ${*:3} " == *" jre "* ]] || { printf '#!/bin/sh\n' > "$dir/bin/javac" && chmod +x "$dir/bin/javac"; }
  [[ " ${*:3} " == *" norelease "* ]] || echo "JAVA_VERSION=\"$version\"" > "$dir/release"
}
jdks=$tmp/jdks
fake_jdk "$jdks/jdk-17" 17.0.12
fake_jdk "$jdks/jdk-25" 25.0.1
fake_jdk "$jdks/jre-25" 25.0.1 jre
fake_jdk "$jdks/jdk-8" 1.8.0_452
sdkman25="$home/.sdkman/candidates/java/25.0.1-tem"
fake_jdk "$sdkman25" 25.0.1 norelease # no release file: its java is asked
mac25="$home/Library/Java/JavaVirtualMachines/temurin-25.jdk/Contents/Home"
fake_jdk "$mac25" 25
# Search places without a JDK 25 (only a 17, an 8 and a 25 runtime), and with one (after those).
no25="$jdks/jdk-17:$jdks/jdk-8:$jdks/jre-25:$tmp/nowhere/*"
with25="$no25:$home/.sdkman/candidates/java/*"
mac="$home/Library/Java/JavaVirtualMachines/*/Contents/Home"

# A PATH without java: links to the few tools the scripts use. PATH java 25 is a link, as
# /usr/bin/java is to an alternatives entry, so its home must come from java.home.
tools=$tmp/tools
mkdir -p "$tools" "$tmp/path25"
for t in bash sh sed dirname basename readlink uname tr cat mkdir rm ln env; do
  t_path=$(command -v "$t") && ln -s "$t_path" "$tools/$t"
done
ln -s "$jdks/jdk-25/bin/java" "$tmp/path25/java"
path17="$jdks/jdk-17/bin:$tools"
path25="$tmp/path25:$tools"

failures=0
# run_case NAME RC HOME STDERR [VAR=VALUE...]: sources the check in a clean environment under bash
# and sh; RC is the status wanted, HOME the JAVA_HOME wanted (when RC is 0), STDERR an extended
# regular expression its whole stderr must match ('' for silence).
run_case() {
  local name=$1 want_rc=$2 want_home=$3 want_err=$4 shell prelude after out err rc shown=
  shift 4
  for shell in bash sh; do
    if [[ $shell == bash ]]; then
      prelude=$'set -euo pipefail; IFS=$\'\\n\\t\'; '
      after=$'[[ $IFS == $\'\\n\\t\' ]] || echo IFS-changed; '
    else
      prelude='set -euf; '
      after='case $- in *f*) ;; *) echo noglob-dropped ;; esac; '
    fi
    rc=0
    env -i HOME="$home" "$@" "$shell" -c "$prelude"'. "$1"; '"$after"'echo "JAVA_HOME=$JAVA_HOME"' \
      jdk25-test "$check" > "$tmp/out" 2> "$tmp/err" || rc=$?
    out=$(cat "$tmp/out"); err=$(cat "$tmp/err")
    if [[ $rc != "$want_rc" ]] || { [[ $want_rc == 0 ]] && [[ $out != "JAVA_HOME=$want_home" ]]; } ||
      { [[ $want_rc != 0 ]] && [[ -n $out ]]; } || ! [[ $err =~ ^$want_err$ ]]; then
      echo "FAIL $name ($shell): status $rc (wanted $want_rc)"
      echo "  stdout: $out"
      echo "  wanted: JAVA_HOME=$want_home"
      echo "  stderr: $err"
      echo "  wanted: $want_err"
      failures=$((failures + 1))
      return 0
    fi
    shown=${err%%$'\n'*}
  done
  echo "ok   $name: ${shown:-(silent)}"
}
q() { printf '%s' "$1" | sed 's/[][\\.*^$(){}?+|]/\\&/g'; } # a literal in a regular expression

run_case "JAVA_HOME a JDK 25" 0 "$jdks/jdk-25" '' \
  JAVA_HOME="$jdks/jdk-25" PATH="$path17" JDK25_SEARCH="$with25"
run_case "JAVA_HOME unset, PATH java 25" 0 "$jdks/jdk-25" '' \
  PATH="$path25" JDK25_SEARCH="$with25"
run_case "JAVA_HOME unset, PATH java 17, a JDK 25 in the search places" 0 "$sdkman25" \
  "jdk25-test: JAVA_HOME is not set and the java on PATH is Java 17 \($(q "$jdks/jdk-17")\); using the JDK 25 at $(q "$sdkman25")" \
  PATH="$path17" JDK25_SEARCH="$with25"
run_case "JAVA_HOME unset, no java on PATH, a JDK 25 in ~/Library" 0 "$mac25" \
  "jdk25-test: JAVA_HOME is not set and there is no java on PATH; using the JDK 25 at $(q "$mac25")" \
  PATH="$tools" JDK25_SEARCH="$mac"
run_case "JAVA_HOME 17, PATH java 17, a JDK 25 in the search places" 0 "$sdkman25" \
  "jdk25-test: JAVA_HOME is Java 17 \($(q "$jdks/jdk-17")\); using the JDK 25 at $(q "$sdkman25") instead" \
  JAVA_HOME="$jdks/jdk-17" PATH="$path17" JDK25_SEARCH="$with25"
run_case "JAVA_HOME 17, PATH java 25" 0 "$jdks/jdk-25" \
  "jdk25-test: JAVA_HOME is Java 17 \($(q "$jdks/jdk-17")\); using the JDK 25 of the java on PATH instead: $(q "$jdks/jdk-25")" \
  JAVA_HOME="$jdks/jdk-17" PATH="$path25" JDK25_SEARCH="$with25"
run_case "JAVA_HOME bogus" 0 "$sdkman25" \
  "jdk25-test: JAVA_HOME is not a JDK \($(q "$tmp/bogus") has no bin/java\); using the JDK 25 at $(q "$sdkman25") instead" \
  JAVA_HOME="$tmp/bogus" PATH="$path17" JDK25_SEARCH="$with25"
run_case "JAVA_HOME a Java 25 runtime without javac" 0 "$sdkman25" \
  "jdk25-test: JAVA_HOME is a Java 25 runtime without javac \($(q "$jdks/jre-25") is not a JDK\); using the JDK 25 at $(q "$sdkman25") instead" \
  JAVA_HOME="$jdks/jre-25" PATH="$path17" JDK25_SEARCH="$with25"
how='Install a JDK 25, e.g. with SDKMAN \(https://sdkman\.io\): sdk install java 25-tem, or Temurin 25
from https://adoptium\.net/temurin/releases/\?version=25 \(or your package manager\), then point
JAVA_HOME at it \(export JAVA_HOME=/path/to/jdk-25\) and run '
found_only="  and found only:
    Java 17 \($(q "$jdks/jdk-17")\)
    Java 8 \($(q "$jdks/jdk-8")\)
    a Java 25 runtime without javac \($(q "$jdks/jre-25") is not a JDK\)"
run_case "no JDK 25 (JAVA_HOME unset, PATH java 17)" 1 "" \
  "jdk25-test: cuda-graph needs a JDK 25 \(Java 25 with javac\), and there is none here:
  JAVA_HOME is not set;
  the java on PATH is Java 17 \($(q "$jdks/jdk-17")\);
  searched \(JDK25_SEARCH\): $(q "$no25")
$found_only
${how}jdk25-test again\." \
  PATH="$path17" JDK25_SEARCH="$no25"
run_case "no JDK 25 (JAVA_HOME 17, no java on PATH)" 1 "" \
  "jdk25-test: cuda-graph needs a JDK 25 \(Java 25 with javac\), and there is none here:
  JAVA_HOME is Java 17 \($(q "$jdks/jdk-17")\);
  there is no java on PATH;
  searched \(JDK25_SEARCH\): $(q "$no25")
$found_only
${how}jdk25-test again\." \
  JAVA_HOME="$jdks/jdk-17" PATH="$tools" JDK25_SEARCH="$no25"
# The usual places themselves (this machine's /usr/lib/jvm and the like may hold a real JDK 25 that
# comes first; either way one is found, or the message says there is none).
rc=0
env -i HOME="$home" PATH="$tools" bash -c 'set -euo pipefail; mkdir -p "$HOME/.jdks"; ln -s "$1" "$HOME/.jdks/jdk-25"; . "$2"; echo "$JAVA_HOME"' \
  jdk25-test "$jdks/jdk-25" "$check" > "$tmp/out" 2> "$tmp/err" || rc=$?
if [[ $rc == 0 && $(cat "$tmp/err") == "jdk25-test: JAVA_HOME is not set and there is no java on PATH; using the JDK 25 at $(cat "$tmp/out")" ]] ||
  [[ $rc == 1 && $(cat "$tmp/err") == *"needs a JDK 25"* ]]; then
  echo "ok   the usual places (no JDK25_SEARCH): $(head -1 "$tmp/err")"
else
  echo "FAIL the usual places (no JDK25_SEARCH): status $rc, stdout $(cat "$tmp/out"), stderr $(cat "$tmp/err")"
  failures=$((failures + 1))
fi
rm -f "$home/.jdks/jdk-25"

# Through the callers: ./mvnw with a fake Maven distribution where the wrapper looks for it (so
# nothing is downloaded), and the two callers without any JDK 25 (they stop before Maven).
url=$(sed -n 's/^distributionUrl=//p' "$root/.mvn/wrapper/maven-wrapper.properties" | tr -d '[:space:]')
h=0
for ((i = 0; i < ${#url}; i++)); do
  h=$(((h * 31 + $(LC_CTYPE=C printf %d "'${url:i:1}")) % 4294967296))
done
name=${url##*/}; name=${name%.*}; name=${name%-bin}
fake_mvn="$tmp/m2/wrapper/dists/$name/$(printf %x "$h")/bin/mvn"
mkdir -p "$(dirname "$fake_mvn")"
printf '#!/bin/sh\necho "fake mvn: JAVA_HOME=$JAVA_HOME MAVEN_OPTS=$MAVEN_OPTS"\n' > "$fake_mvn"
chmod +x "$fake_mvn"
# caller_case NAME RC STDOUT STDERR COMMAND...: STDOUT and STDERR are extended regular expressions.
caller_case() {
  local name=$1 want_rc=$2 want_out=$3 want_err=$4 rc=0 out err
  shift 4
  "$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
  out=$(cat "$tmp/out"); err=$(cat "$tmp/err")
  if [[ $rc == "$want_rc" && $out =~ ^$want_out$ && $err =~ ^$want_err$ ]]; then
    echo "ok   $name: ${err%%$'\n'*}"
  else
    echo "FAIL $name: status $rc (wanted $want_rc)"
    echo "  stdout: $out"
    echo "  wanted: $want_out"
    echo "  stderr: $err"
    echo "  wanted: $want_err"
    failures=$((failures + 1))
  fi
}
caller_case "./mvnw, JAVA_HOME 17" 0 \
  "fake mvn: JAVA_HOME=$(q "$sdkman25") MAVEN_OPTS=--sun-misc-unsafe-memory-access=allow -Dx=1" \
  "$(q "$root/mvnw"): JAVA_HOME is Java 17 \($(q "$jdks/jdk-17")\); using the JDK 25 at $(q "$sdkman25") instead" \
  env -i HOME="$home" MAVEN_USER_HOME="$tmp/m2" MAVEN_OPTS=-Dx=1 JAVA_HOME="$jdks/jdk-17" PATH="$path17" \
  JDK25_SEARCH="$with25" "$root/mvnw" -v
caller_case "./mvnw, no JDK 25" 1 "" "$(q "$root/mvnw"): cuda-graph needs a JDK 25 .*" \
  env -i HOME="$home" MAVEN_USER_HOME="$tmp/m2" PATH="$path17" JDK25_SEARCH="$no25" "$root/mvnw" -v
caller_case "./run-example.sh, no JDK 25" 1 "" "$(q "$root/run-example.sh"): cuda-graph needs a JDK 25 .*" \
  env -i HOME="$home" MAVEN_USER_HOME="$tmp/m2" PATH="$path17" JDK25_SEARCH="$no25" "$root/run-example.sh"

if ((failures)); then
  echo "test-jdk25.sh: $failures case(s) FAILED" >&2
  exit 1
fi
echo "test-jdk25.sh: every case passed"
