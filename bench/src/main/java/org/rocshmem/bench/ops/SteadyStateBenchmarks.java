package org.rocshmem.bench.ops;

import static org.rocshmem.global.rocshmem.rocshmem_int64_p;

import java.util.concurrent.TimeUnit;
import org.bytedeco.javacpp.LongPointer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.rocshmem.api.CType;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricBytes;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.bench.NativeLoops;
import org.rocshmem.bench.Pe;

/**
 * Warm-up curve from the very first call: run in fresh PE JVMs with no warm-up iterations, each measurement
 * iteration timing one batch of calls, so the per-batch times show after how many calls the path settles. The
 * report takes the first call count after which a rolling median stays near the final level.
 *
 * <p>Each benchmark method makes {@link #CALLS_PER_INVOCATION} calls in its own short loop, and JMH invokes it
 * {@code batch / CALLS_PER_INVOCATION} times per iteration. With one call per invocation, the loop that makes the
 * calls is JMH's batch loop, which runs once per iteration and reaches C2 only by on-stack replacement after about
 * 40,000 back-edges (HotSpot's Tier4BackEdgeThreshold): the curve then shows the harness, not the API. A benchmark
 * method invoked many times is compiled like application code, by its invocation and loop counters.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SteadyStateBenchmarks {
    /** Calls per benchmark-method invocation; divides {@code BenchMain.STEADY_BATCH}. */
    public static final int CALLS_PER_INVOCATION = 25;

    @State(Scope.Benchmark)
    public static class Fresh {
        SymmetricLongs words;
        SymmetricBytes dest8;
        SymmetricBytes source8;
        LongPointer rawWord;
        int peer;
        long value;
        private SymmetricBuffer buffer;

        @Setup(Level.Trial)
        public void setUp() {
            Rocshmem shmem = Pe.session();
            buffer = shmem.calloc(4, Long.BYTES); // collective
            words = buffer.asLongs(CType.INT64).slice(0, 1);
            dest8 = buffer.asBytes().slice(8, 8);
            source8 = buffer.asBytes().slice(16, 8);
            rawWord = buffer.asLongPointer();
            peer = Pe.peer();
            value = shmem.myPe() + 1;
            shmem.barrierAll();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            Pe.session().barrierAll();
            buffer.close();
        }
    }

    @Benchmark
    public void typed_p(Fresh s) {
        for (int i = 0; i < CALLS_PER_INVOCATION; i++) {
            s.words.p(s.peer, 0, s.value);
        }
    }

    /** The harness alone: the same batch loop around a native that does nothing. */
    @Benchmark
    public void empty_native(Fresh s) {
        for (int i = 0; i < CALLS_PER_INVOCATION; i++) {
            NativeLoops.empty();
        }
    }

    @Benchmark
    public void typed_putmem_8B(Fresh s) {
        for (int i = 0; i < CALLS_PER_INVOCATION; i++) {
            s.dest8.putmem(s.peer, s.source8);
        }
    }

    @Benchmark
    public void raw_p(Fresh s) {
        for (int i = 0; i < CALLS_PER_INVOCATION; i++) {
            rocshmem_int64_p(s.rawWord, s.value, s.peer);
        }
    }
}
