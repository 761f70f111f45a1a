package org.rocshmem.api.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.Bootstrap;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.RocshmemStateException;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.Team;
import org.rocshmem.api.ThreadLevel;
import org.rocshmem.api.bootstrap.UniqueIdExchange;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.api.testing.Pe;

/** Init paths and finalize; each test gets fresh PE JVMs because rocSHMEM can be initialized once per process. */
@Tag("emu")
class SessionLifecycleTest {
    /** java.util.logging holds loggers weakly; keep ours (and their handlers) alive across System.gc(). */
    private static final List<Logger> CAPTURING = new ArrayList<>();

    @Test
    @MultiPe(1)
    void finalizeFreesLeftoversThenEverythingRefusesToRun() throws InterruptedException {
        List<LogRecord> warnings = captureWarnings(Rocshmem.class.getName());
        List<LogRecord> gcReports = captureWarnings("org.rocshmem.api.LeakReporter");
        Rocshmem shmem = Rocshmem.init(Bootstrap.libraryOwn());
        assertEquals(0, shmem.myPe());
        assertEquals(1, shmem.nPes());
        shmem.malloc(64); // dropped at once: the GC must report it (but not free it)
        for (int i = 0; i < 50 && gcReports.isEmpty(); i++) {
            System.gc();
            Thread.sleep(20);
        }
        String gcReport = gcReports.stream().map(LogRecord::getMessage).findFirst()
                .orElseThrow(() -> new AssertionError("no GC leak report"));
        assertTrue(gcReport.contains("became unreachable without close()")
                && gcReport.contains("finalizeFreesLeftoversThenEverythingRefusesToRun"), gcReport);
        assertFalse(gcReport.contains("\n"), "one line per leaked object, with its creation site: " + gcReport);
        SymmetricBuffer leaked = shmem.malloc(128);
        Team team = shmem.world().splitStrided(0, 1, 1);

        shmem.close();

        assertFalse(Rocshmem.isInitialized());
        assertTrue(team.isClosed(), "finalize destroys tracked teams");
        assertTrue(leaked.isClosed(), "finalize frees leaked buffers");
        List<String> freedAtFinalize = warnings.stream().map(LogRecord::getMessage)
                .filter(m -> m.contains("was not closed; freeing it at finalize")).toList();
        assertEquals(2, freedAtFinalize.size(), "the GC-reported block and `leaked`: " + freedAtFinalize);
        assertTrue(freedAtFinalize.get(0).contains("of 64 bytes"), "freed in allocation order");
        assertTrue(freedAtFinalize.get(1).contains("malloc symmetric buffer of 128 bytes")
                && freedAtFinalize.get(1).contains("finalizeFreesLeftoversThenEverythingRefusesToRun"),
                freedAtFinalize.get(1));

        List<String> teamsAtFinalize = warnings.stream().map(LogRecord::getMessage)
                .filter(m -> m.contains("was not closed; destroying it at finalize")).toList();
        assertEquals(1, teamsAtFinalize.size(), teamsAtFinalize.toString());
        assertTrue(teamsAtFinalize.get(0).contains("creation site of a team split")
                && teamsAtFinalize.get(0).contains("finalizeFreesLeftoversThenEverythingRefusesToRun"),
                teamsAtFinalize.get(0));
        assertTrue(freedAtFinalize.stream().noneMatch(m -> m.contains("\n"))
                && !teamsAtFinalize.get(0).contains("\n"), "one line per leftover: " + freedAtFinalize);

        String finalized = "rocSHMEM was finalized";
        shmem.close(); // a second close is a no-op, like every close() of the API
        assertTrue(assertThrows(RocshmemStateException.class, Rocshmem::current).getMessage().startsWith(finalized));
        assertTrue(assertThrows(RocshmemStateException.class, () -> Rocshmem.init(Bootstrap.libraryOwn()))
                .getMessage().startsWith(finalized));
        assertThrows(RocshmemStateException.class, () -> shmem.malloc(8));
        assertThrows(RocshmemStateException.class, shmem::barrierAll);
        assertThrows(RocshmemStateException.class, leaked::asBytes);
        leaked.close(); // already freed by finalize: nothing to do, no collective call
    }

    @Test
    @MultiPe(1)
    void environmentInitOnOnePeAndUniqueIds() {
        byte[] first = Rocshmem.createUniqueId();
        byte[] second = Rocshmem.createUniqueId();
        assertEquals(128, first.length);
        assertNotEquals(HexFormat.of().formatHex(first), HexFormat.of().formatHex(second));
        try (Rocshmem shmem = Rocshmem.init()) {
            assertEquals(0, shmem.myPe());
            assertEquals(1, shmem.nPes());
            assertThrows(RocshmemStateException.class, () -> Rocshmem.init(Bootstrap.uniqueId(0, 1, first)));
        }
    }

    /** The pluggable exchange: ids travel through the harness's shared directory instead of TCP. */
    @Test
    @MultiPe(2)
    void initWithARequestedThreadLevelChecksWhatTheLibraryProvides() {
        // rocSHMEM's host side (and the emulator's) provides MULTIPLE: the strongest request is met.
        try (Rocshmem shmem = Rocshmem.init(ThreadLevel.MULTIPLE)) {
            assertEquals(ThreadLevel.MULTIPLE, shmem.threadLevel());
            shmem.barrierAll();
        }
        assertThrows(NullPointerException.class, () -> Rocshmem.init((ThreadLevel) null));
        assertFalse(Rocshmem.isInitialized(), "a refused request leaves no session behind");
    }

    @Test
    @MultiPe(2)
    void customUniqueIdExchangeInitializesBothPes() throws Exception {
        List<Boolean> createdHere = new ArrayList<>();
        UniqueIdExchange viaFiles = (rank, nranks, createOnRoot) -> {
            if (rank == 0) {
                createdHere.add(true);
                Pe.publish("uid", HexFormat.of().formatHex(createOnRoot.get()));
            } else {
                Pe.publish("uid", "");
            }
            try {
                return HexFormat.of().parseHex(Pe.collect("uid", Duration.ofSeconds(30)).get(0));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        };
        int rank = Pe.rank();
        try (Rocshmem shmem = Rocshmem.init(Bootstrap.exchange(rank, 2, viaFiles));
             SymmetricBuffer box = shmem.calloc(2, Long.BYTES)) {
            assertEquals(rank, shmem.myPe());
            assertEquals(rank == 0, !createdHere.isEmpty(), "only rank 0 creates the id");
            try (SymmetricBuffer mine = shmem.malloc(Long.BYTES)) {
                mine.asLongs().copyFrom(new long[] {0xC0FFEE00L + rank});
                box.asLongs().slice(rank, 1).put(1 - rank, mine.asLongs());
                shmem.barrierAll();
            }
            long[] got = box.asLongs().toArray();
            long[] expected = new long[2];
            expected[1 - rank] = 0xC0FFEE00L + (1 - rank);
            assertArrayEquals(expected, got);
        }
    }

    /** Records WARNING+ of one java.util.logging logger (the default System.Logger backend), messages formatted. */
    private static List<LogRecord> captureWarnings(String loggerName) {
        List<LogRecord> records = java.util.Collections.synchronizedList(new ArrayList<>());
        Logger logger = Logger.getLogger(loggerName);
        CAPTURING.add(logger);
        logger.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    String text = record.getParameters() == null ? record.getMessage()
                            : java.text.MessageFormat.format(record.getMessage(), record.getParameters());
                    record.setMessage(text);
                    records.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
        return records;
    }
}
