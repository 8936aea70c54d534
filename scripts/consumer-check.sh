#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Checks the library as its users get it. Each consumers/NAME/ is a standalone Maven project (its
# own pom.xml, no parent, not a module of this build) that depends on published cuda-graph
# artifacts as an application does. This script installs the artifacts they name, then copies each
# project to a temporary folder and runs its tests there with this build's version, so nothing of
# the checkout (a parent pom, a reactor module, target/ folders) can stand in for the artifacts.
#
#   scripts/consumer-check.sh [-o]      -o: Maven offline (everything already in ~/.m2)
#
# 1. The artifacts: every io.github.cudagraph artifact a consumer's pom names is installed with its
#    dependencies (./mvnw install -pl MODULES -am, tests skipped: CI ran them just before) into a
#    throwaway local repository, deleted on exit. It chains ~/.m2/repository as a read-only tail
#    (Maven's maven.repo.local.tail), so third-party artifacts come from there or from Maven Central,
#    and ~/.m2 never receives a snapshot of this build, which would shadow the reactor's modules in
#    later builds (CONTRIBUTING: always -am).
# 2. Each consumer: `mvn test -Dcuda-graph.version=VERSION` in its copy; it fails unless at least
#    one test ran and none failed.
# 3. The check catches what it is for: a copy of the first consumer with a planted failing test
#    must fail it.
# Any consumer that fails is named, with the end of its log, and the script exits 1.
set -euo pipefail

cd "$(dirname "$0")/.."
offline=()
[ "${1:-}" = "-o" ] && offline=(-o)
fail() { echo "consumer-check: $*" >&2; exit 1; }

. scripts/jdk25.sh

version=$(sed -n 's#^  <version>\(.*\)</version>.*#\1#p' pom.xml | head -1)
[ -n "$version" ] || fail "cannot read the build's version from pom.xml"

consumers=()
for pom in consumers/*/pom.xml; do
  [ -f "$pom" ] && consumers+=("$(dirname "$pom")")
done
[ "${#consumers[@]}" -gt 0 ] || fail "no consumers/*/pom.xml to check"

# The modules that make the artifacts the consumers name: the module whose own artifactId (written
# two spaces in, after its parent's) is the one named.
modules=()
for artifact in $(sed -n 's#.*<artifactId>\(cuda-graph-[^<]*\)</artifactId>.*#\1#p' \
  "${consumers[@]/%//pom.xml}" | sort -u); do
  module=$(grep -l "^  <artifactId>$artifact</artifactId>" -- */pom.xml | head -1 || :)
  [ -n "$module" ] || fail "a consumer names $artifact, which no module of this build makes"
  modules+=("$(dirname "$module")")
done
list=$(IFS=,; echo "${modules[*]}")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repository=(-Dmaven.repo.local="$work/repository"
  -Dmaven.repo.local.tail="${CONSUMER_CHECK_TAIL_REPOSITORY:-$HOME/.m2/repository}")

echo "consumer-check: installing $list (and what they need) at $version into a throwaway repository"
SECONDS=0
./mvnw -B -ntp "${offline[@]}" "${repository[@]}" -pl "$list" -am -DskipTests install \
  > "$work/install.log" 2>&1 || {
  tail -60 "$work/install.log"
  fail "installing the artifacts failed (log above)"
}
echo "consumer-check: installed in ${SECONDS} s"

# run_consumer DIR NAME: copies DIR to $work/NAME and runs its tests; prints one line; 0 if they
# ran and passed.
run_consumer() {
  local source=$1 name=$2 copy=$work/$2 log=$work/$2.log started=$SECONDS
  rm -rf "$copy"
  cp -r "$source" "$copy"
  rm -rf "$copy/target"
  local status=0
  ./mvnw -B -ntp "${offline[@]}" "${repository[@]}" -f "$copy/pom.xml" \
    -Dcuda-graph.version="$version" test dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$copy/target/classpath.txt" > "$log" 2>&1 || status=$?
  # Surefire's totals over every test class: tests, errors, skipped, failures.
  local totals report line attribute
  totals=$(for report in "$copy"/target/surefire-reports/TEST-*.xml; do
    [ -f "$report" ] || continue
    line=$(grep -o '<testsuite [^>]*>' "$report" | head -1)
    for attribute in tests errors skipped failures; do
      printf '%s ' "$(sed -n "s/.* $attribute=\"\([0-9]*\)\".*/\1/p" <<< "$line")"
    done
    echo
  done | awk '{t+=$1; e+=$2; s+=$3; f+=$4} END {print t+0, e+0, s+0, f+0}')
  local tests errors skipped failures
  read -r tests errors skipped failures <<< "$totals"
  if [ "$status" -ne 0 ] || [ "$errors" -ne 0 ] || [ "$failures" -ne 0 ] \
    || [ $((tests - skipped)) -le 0 ]; then
    echo "consumer-check: $name FAILED (exit $status; tests $tests, failures $failures, errors $errors, skipped $skipped)"
    return 1
  fi
  # The tail may hold older snapshots of this build (an install into ~/.m2): each cuda-graph
  # artifact must be one installed above, in the throwaway repository.
  local ours stale
  ours=$(tr ':' '\n' < "$copy/target/classpath.txt" | grep '/io/github/cudagraph/' || :)
  stale=$(grep -v "^$work/repository/" <<< "$ours" || :)
  if [ -z "$ours" ] || [ -n "$stale" ]; then
    echo "consumer-check: $name FAILED: its cuda-graph artifacts are not the ones just installed: $(paste -sd" " <<< "${stale:-none at all}")"
    return 1
  fi
  echo "consumer-check: $name passed in $((SECONDS - started)) s ($tests tests, $skipped skipped;" \
    "$(wc -l <<< "$ours") cuda-graph jars, each the one just installed)"
}

failed=()
for consumer in "${consumers[@]}"; do
  name=$(basename "$consumer")
  if ! run_consumer "$consumer" "$name"; then
    tail -80 "$work/$name.log"
    failed+=("$consumer")
  fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  fail "FAILED: ${failed[*]} (logs above)"
fi

# The check must be able to fail: the first consumer with a planted failing test.
planted=$work/planted-source
cp -r "${consumers[0]}" "$planted"
rm -rf "$planted/src/test/java" "$planted/target"
mkdir -p "$planted/src/test/java/planted"
cat > "$planted/src/test/java/planted/PlantedFailureTests.java" <<'EOJ'
package planted;

class PlantedFailureTests {
  @org.junit.jupiter.api.Test
  void fails() {
    org.junit.jupiter.api.Assertions.fail("planted by scripts/consumer-check.sh");
  }
}
EOJ
if run_consumer "$planted" planted > /dev/null; then
  fail "a consumer with a planted failing test passed the check"
fi
echo "consumer-check: a consumer with a planted failing test is caught"
echo "consumer-check: OK, consumers checked: ${consumers[*]} (${SECONDS} s in all)"
