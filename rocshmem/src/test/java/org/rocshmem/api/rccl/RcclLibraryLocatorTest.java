package org.rocshmem.api.rccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocshmem.presets.RcclLibraryLocator;
import org.rocshmem.presets.RcclLibraryLocator.Candidate;
import org.rocshmem.presets.RcclLibraryLocator.Source;

/** nccl4py's discovery order, without loading anything: the "open" step is a stand-in. */
class RcclLibraryLocatorTest {

    @Test
    void overrideThenSonameThenRocmPath() {
        assertEquals(List.of(new Candidate(Source.SYSTEM_SONAME, "librccl.so.1"),
                        new Candidate(Source.ROCM_PATH, "/opt/rocm/lib/librccl.so.1")),
                RcclLibraryLocator.candidates(Map.of()));
        assertEquals(List.of(new Candidate(Source.SYSTEM_SONAME, "librccl.so.1"),
                        new Candidate(Source.ROCM_PATH, "/opt/rocm-7.2.4/lib/librccl.so.1")),
                RcclLibraryLocator.candidates(Map.of("ROCM_PATH", "/opt/rocm-7.2.4")));
        // An explicit override is the only candidate: a typo must not silently load another RCCL.
        assertEquals(List.of(new Candidate(Source.NCCL_LIBRARY, "/x/librccl.so.1")),
                RcclLibraryLocator.candidates(Map.of("NCCL_LIBRARY", "/x/librccl.so.1", "ROCM_PATH", "/r")));
        assertEquals(List.of(new Candidate(Source.NCCL_LIBRARY, "librccl-debug.so.1")),
                RcclLibraryLocator.candidates(Map.of("NCCL_LIBRARY", " librccl-debug.so.1 ")));
    }

    @Test
    void theFirstCandidateThatOpensWins() {
        List<String> tried = new ArrayList<>();
        Candidate chosen = RcclLibraryLocator.locate(Map.of("ROCM_PATH", "/r"), name -> {
            tried.add(name);
            return name.startsWith("/r/") ? null : new UnsatisfiedLinkError(name + ": cannot open shared object file");
        });
        assertEquals(new Candidate(Source.ROCM_PATH, "/r/lib/librccl.so.1"), chosen);
        assertEquals(List.of("librccl.so.1", "/r/lib/librccl.so.1"), tried);
    }

    @Test
    void failureNamesEveryAttempt() {
        UnsatisfiedLinkError e = assertThrows(UnsatisfiedLinkError.class, () -> RcclLibraryLocator.locate(
                Map.of("ROCM_PATH", "/r"), name -> new UnsatisfiedLinkError(name + ": not here\nsecond line")));
        String m = e.getMessage();
        assertTrue(m.contains("system soname librccl.so.1: librccl.so.1: not here"), m);
        assertTrue(m.contains("$ROCM_PATH/lib: /r/lib/librccl.so.1: /r/lib/librccl.so.1: not here"), m);
        assertTrue(m.contains("set NCCL_LIBRARY"), m);
        assertTrue(!m.contains("second line"), m);
    }
}
