#!/bin/bash
# Proves the artifacts work as published: a throwaway Maven project outside the reactor, depending only on the
# installed org.rocshmem:rocshmem-platform-emu coordinates in the local repository (nothing of the build tree is on
# its class path: checked below), compiles a 2-PE program and runs it through the launcher.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$top/target/external-consumer"
rm -rf "$work"
mkdir -p "$work/src/main/java/com/example"

version=$(sed -n 's|.*<version>\(3\.[^<]*\)</version>.*|\1|p' "$top/platform/emu/pom.xml" | head -n 1)
cat > "$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>uses-rocshmem</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.rocshmem</groupId>
      <artifactId>rocshmem-platform-emu</artifactId>
      <version>$version</version>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.15.0</version></plugin>
      <plugin><artifactId>maven-dependency-plugin</artifactId><version>3.8.1</version></plugin>
    </plugins>
  </build>
</project>
POM

cat > "$work/src/main/java/com/example/Exchange.java" <<'JAVA'
package com.example;

import org.rocshmem.api.CType;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;

/** A user's program: each PE sends its rank to the other and counts with a remote atomic. */
public class Exchange {
    public static void main(String[] args) {
        try (Rocshmem shmem = Rocshmem.init(); SymmetricBuffer buffer = shmem.calloc(2, Long.BYTES)) {
            SymmetricLongs slots = buffer.asLongs(CType.INT64);
            int other = 1 - shmem.myPe();
            slots.p(other, 0, 100 + shmem.myPe());
            slots.atomicAdd(0, 1, 1);
            shmem.barrierAll();
            long got = slots.g(shmem.myPe(), 0);
            long count = slots.g(0, 1);
            boolean ok = got == 100 + other && count == 2;
            System.out.println("external consumer PE " + shmem.myPe() + ": got " + got + ", count " + count
                    + (ok ? " OK" : " WRONG") + " on " + shmem.backend());
            shmem.barrierAll();
            if (!ok) {
                System.exit(1);
            }
        }
    }
}
JAVA

cd "$work"
mvn -B -ntp -q -Dmaven.repo.local="$top/downloads/m2" compile dependency:build-classpath \
    -Dmdep.outputFile=classpath.txt -Dmdep.includeScope=runtime
classpath="target/classes:$(cat classpath.txt)"
if tr ':' '\n' <<<"$classpath" | grep -q "$top/rocshmem/"; then
    echo "external-consumer: the class path reaches into the build tree" >&2
    exit 1
fi
tr ':' '\n' <<<"$classpath" | grep -q "/org/rocshmem/rocshmem-platform-emu/" \
    || { echo "external-consumer: rocshmem-platform-emu was not resolved from the local repository" >&2; exit 1; }
output=$(java -Dorg.bytedeco.javacpp.platform.extension=-emu -cp "$classpath" \
    org.rocshmem.api.launch.Launcher --nproc 2 --timeout 120 -- com.example.Exchange)
echo "$output"
[[ $(grep -c " OK on " <<<"$output") -eq 2 ]] || { echo "external-consumer: both PEs must report OK" >&2; exit 1; }
echo "external-consumer: a project depending only on rocshmem-platform-emu ran on 2 PEs"
