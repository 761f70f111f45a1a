package org.rocshmem.rccl;

import java.nio.file.Files;
import java.nio.file.Path;
import org.rocshmem.api.rccl.Rccl;
import org.rocshmem.api.rccl.RcclException;

/**
 * Run in a JVM of its own by {@link RealRcclNoDeviceTest}: loads RCCL as any program would and prints which
 * library was chosen, which librccl file is mapped, and the version, or the load error.
 */
public final class RcclDiscoveryProbe {
    private RcclDiscoveryProbe() {
    }

    public static void main(String[] args) throws Exception {
        try {
            Rccl.load();
            System.out.println("loaded=" + Rccl.library());
            System.out.println("version=" + Rccl.versionCode());
            try (var lines = Files.lines(Path.of("/proc/self/maps"))) {
                lines.filter(l -> l.contains("librccl")).map(l -> l.substring(l.indexOf('/'))).distinct()
                        .forEach(path -> System.out.println("mapped=" + path));
            }
        } catch (RcclException e) {
            System.out.println("error=" + e.getMessage());
        }
    }
}
