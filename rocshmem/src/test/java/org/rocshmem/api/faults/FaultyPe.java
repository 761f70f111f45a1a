package org.rocshmem.api.faults;

import static org.rocshmem.global.rocshmem.ROCSHMEM_TEAM_WORLD;
import static org.rocshmem.global.rocshmem.rocshmem_ctx_create;
import static org.rocshmem.global.rocshmem.rocshmem_ctx_longlong_sum_reduce;
import static org.rocshmem.global.rocshmem.rocshmem_putmem;

import java.util.concurrent.TimeUnit;
import org.bytedeco.javacpp.LongPointer;
import org.rocshmem.api.Bootstrap;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.rocshmem.rocshmem_ctx_t;

/**
 * The PE program of the fault-injection suite: {@code FaultyPe <moment> <fault>}. Every PE runs {@value #ROUNDS}
 * rounds; in round r it puts {@code r * 1000 + rank} into the next PE's inbox, then synchronizes (moment
 * "barrier": barrier_all; "collective": a sum reduction over the world team) and checks what arrived from the previous
 * PE: "PASSED" when it is this round's value, "STALE" when not. The last PE is the victim: in the last round it does
 * not take part but, after 500 ms (so the others are already waiting), commits {@code fault}:
 * <ul>
 * <li>{@code kill}/{@code term}: SIGKILL/SIGTERM to itself; {@code halt}: Runtime.halt(3); {@code exit}:
 *     System.exit(3) with the session open; {@code throw}: an exception out of the try-with-resources block;
 *     {@code none}: no fault at all.</li>
 * </ul>
 * Moment "finalize": the victim faults after the rounds instead of closing, while the others finalize. Moment "init":
 * the fault happens inside init (the test sets ROCSHMEM_EMU_TEST_FAULT). Moments "launcher-running" and
 * "launcher-init": the PEs print their pids and then synchronize forever, or (PE 1) never start init.
 * Lines: "INIT-START t", "FAULT t" (epoch ms), "PASSED ...", "STALE ...", "pid=p".
 */
public final class FaultyPe {
    static final int ROUNDS = 5;

    private FaultyPe() {
    }

    public static void main(String[] args) throws Exception {
        String moment = args[0];
        String fault = args[1];
        int rank = Integer.parseInt(System.getenv("RANK"));
        int nproc = Integer.parseInt(System.getenv("WORLD_SIZE"));
        boolean victim = rank == nproc - 1;
        say("pid=" + ProcessHandle.current().pid());
        if (moment.equals("launcher-init") && rank == 1) {
            Thread.sleep(60_000); // PE 0 waits in init meanwhile
        }
        say("INIT-START " + System.currentTimeMillis());
        // launcher-init: rocSHMEM's own bootstrap (no TCP rendezvous first), so PE 0 waits inside the emulator's init.
        try (Rocshmem shmem = moment.equals("launcher-init") ? Rocshmem.init(Bootstrap.libraryOwn()) : Rocshmem.init();
             SymmetricBuffer inbox = shmem.calloc(1, Long.BYTES);
             SymmetricBuffer outbox = shmem.malloc(Long.BYTES);
             SymmetricBuffer sums = shmem.calloc(2, Long.BYTES)) {
            if (moment.startsWith("launcher-")) {
                say("READY");
                while (true) {
                    shmem.barrierAll();
                    Thread.sleep(20);
                }
            }
            LongPointer in = inbox.asLongPointer();
            LongPointer out = outbox.asLongPointer();
            LongPointer sum = sums.asLongPointer();
            rocshmem_ctx_t ctx = new rocshmem_ctx_t();
            rocshmem_ctx_create(0, ctx);
            int next = (rank + 1) % nproc;
            int previous = (rank + nproc - 1) % nproc;
            for (int round = 1; round <= ROUNDS; round++) {
                if (victim && round == ROUNDS && !moment.equals("finalize")) {
                    commit(fault);
                }
                out.put(0, round * 1000L + rank);
                rocshmem_putmem(in, out, Long.BYTES, next);
                long expectedSum = 0;
                if (moment.equals("collective")) {
                    sum.put(1, round);
                    rocshmem_ctx_longlong_sum_reduce(ctx, ROCSHMEM_TEAM_WORLD(), sum, sum.getPointer(1), 1);
                    expectedSum = (long) round * nproc;
                } else {
                    shmem.barrierAll();
                }
                long got = in.get(0);
                boolean fresh = got == round * 1000L + previous && (expectedSum == 0 || sum.get(0) == expectedSum);
                say((fresh ? "PASSED " : "STALE ") + moment + " round " + round + " data " + got);
                shmem.barrierAll(); // nobody overwrites the inbox before its owner read it
            }
            if (victim && moment.equals("finalize")) {
                commit(fault);
            }
        }
        say("DONE");
    }

    private static void commit(String fault) throws Exception {
        if (fault.equals("none")) {
            return;
        }
        Thread.sleep(500);
        say("FAULT " + System.currentTimeMillis());
        long self = ProcessHandle.current().pid();
        switch (fault) {
            case "kill", "term" -> {
                new ProcessBuilder("kill", fault.equals("kill") ? "-KILL" : "-TERM", Long.toString(self)).start();
                Thread.sleep(TimeUnit.MINUTES.toMillis(1));
            }
            case "halt" -> Runtime.getRuntime().halt(3);
            case "exit" -> System.exit(3);
            case "throw" -> throw new IllegalStateException("deliberate fault of the victim PE");
            default -> throw new IllegalArgumentException("unknown fault " + fault);
        }
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
