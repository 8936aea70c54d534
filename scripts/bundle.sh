#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Packs what a JVM test or benchmark run needs onto a GPU machine that has no JDK and no Maven:
# a trimmed Java 25 runtime (jlink), your class path, and the JUnit console launcher.
#
#   bundle.sh DEST CLASSPATH          CLASSPATH: jars and class folders joined by ':'
#
# scripts/gpu-bundle.sh calls it for this repository. DEST is a self-contained folder: copy it to the
# GPU host (keep it inside the checkout and ignored by git, as .gitignore does for /.gpu/, when the
# checkout is what travels). There, run
#   DEST/java  [java args]            the bundled runtime, class path preset, native access on
#   DEST/junit [console launcher args] e.g. DEST/junit --select-package=my.pkg  (or --scan-classpath)
# The runtime is ~45 MiB; keep the whole folder under 64 MiB when it must travel light.
# JDK25 names the JDK 25 whose jlink makes the runtime; without it, scripts/jdk25.sh finds one.
set -euo pipefail
dest=${1:?usage: bundle.sh DEST CLASSPATH}; cp_in=${2:?usage: bundle.sh DEST CLASSPATH}
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${JDK25:-}" ]; then
  . "$here/jdk25.sh"
  JDK25=$JAVA_HOME
fi
jdk=$JDK25
junit_version=${JUNIT_PLATFORM_VERSION:-$("$here/pom-version.sh" junit-platform.version)}
mods=${JLINK_MODULES:-java.base,java.logging,java.management,java.xml,jdk.jfr,jdk.unsupported}
mkdir -p "$dest"
if [ ! -x "$dest/jre/bin/java" ] || [ "$(cat "$dest/jre/.mods" 2>/dev/null)" != "$mods" ]; then
  rm -rf "$dest/jre"
  "$jdk/bin/jlink" --add-modules "$mods" --strip-debug --no-header-files --no-man-pages \
    --compress=zip-9 --output "$dest/jre"
  echo "$mods" > "$dest/jre/.mods"
fi
rm -rf "$dest/cp"; mkdir -p "$dest/cp"
i=0; rel=()
IFS=':' read -ra entries <<< "$cp_in"
for e in "${entries[@]}"; do
  [ -e "$e" ] || { echo "bundle.sh: no such class path entry: $e" >&2; exit 2; }
  # the console launcher already holds the JUnit Platform and Jupiter: a second copy breaks engine discovery
  case "$(basename "$e")" in junit-jupiter-*.jar|junit-jupiter-[0-9]*.jar|junit-platform-*.jar|opentest4j-*.jar|apiguardian-api-*.jar) continue;; esac
  i=$((i+1)); name=$(printf '%03d-%s' "$i" "$(basename "$e")")
  cp -r "$e" "$dest/cp/$name"; rel+=("cp/$name")
done
launcher="$HOME/.m2/repository/org/junit/platform/junit-platform-console-standalone/$junit_version/junit-platform-console-standalone-$junit_version.jar"
[ -f "$launcher" ] || "$here/../mvnw" -q -N dependency:get -Dartifact="org.junit.platform:junit-platform-console-standalone:$junit_version" >&2
cp "$launcher" "$dest/junit-console.jar"
cpline=$(IFS=':'; echo "${rel[*]}")
cat > "$dest/java" <<EOS
#!/usr/bin/env bash
here=\$(cd "\$(dirname "\$0")" && pwd)
cp=\$(echo "$cpline" | sed "s#cp/#\$here/cp/#g")
exec "\$here/jre/bin/java" --enable-native-access=ALL-UNNAMED -cp "\$cp" "\$@"
EOS
cat > "$dest/junit" <<EOS
#!/usr/bin/env bash
here=\$(cd "\$(dirname "\$0")" && pwd)
cp=\$(echo "$cpline" | sed "s#cp/#\$here/cp/#g")
exec "\$here/jre/bin/java" --enable-native-access=ALL-UNNAMED \${JAVA_OPTS:-} -jar "\$here/junit-console.jar" execute -cp "\$cp" --details=tree --disable-banner "\$@"
EOS
chmod +x "$dest/java" "$dest/junit"
du -sh "$dest" | awk '{print "bundle.sh: " $2 " is " $1}'
