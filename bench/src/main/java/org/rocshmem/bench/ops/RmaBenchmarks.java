package org.rocshmem.bench.ops;

import static org.rocshmem.global.rocshmem.rocshmem_getmem;
import static org.rocshmem.global.rocshmem.rocshmem_int64_g;
import static org.rocshmem.global.rocshmem.rocshmem_int64_p;
import static org.rocshmem.global.rocshmem.rocshmem_putmem;
import static org.rocshmem.global.rocshmem.rocshmem_putmem_nbi;
import static org.rocshmem.global.rocshmem.rocshmem_quiet;

import java.util.concurrent.TimeUnit;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.rocshmem.api.CType;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricArray;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricBytes;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.bench.Loop;
import org.rocshmem.bench.Metered;
import org.rocshmem.bench.NativeLoops;
import org.rocshmem.bench.Pe;
import org.rocshmem.bench.Variant;

/**
 * One-sided RMA to the peer PE: p/g of one int64_t, putmem/getmem of 8 B to 16 MiB, putmem_nbi of 8 B. Each PE
 * runs the same loop towards its peer at the same time; the time per call is JMH's average over the invocations.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 100, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 3, time = 100, timeUnit = TimeUnit.MILLISECONDS)
public class RmaBenchmarks {
    static final int SMALL = 1000;
    static final int K64 = 100;
    static final int M1 = 10;
    static final int M16 = 1;

    static final int KIB64 = 64 << 10;
    static final int MIB1 = 1 << 20;
    static final int MIB16 = 16 << 20;

    /** Layout of the symmetric block: puts land in [0, 16M), their source is [16M, 32M), p/g words follow. */
    static final long DEST = 0;
    static final long SOURCE = MIB16;
    static final long WORDS = 2L * MIB16;
    static final long BYTES = WORDS + 64;

    @State(Scope.Benchmark)
    public static class Rma extends Metered {
        @Param({"c", "raw", "typed"})
        public String variant;

        Loop p;
        Loop g;
        Loop putNbi8;
        final Loop[] put = new Loop[4];
        final Loop[] get = new Loop[4];

        private SymmetricBuffer buffer;
        private String benchmark;

        @Setup(Level.Trial)
        public void setUp(BenchmarkParams params) {
            benchmark = params.getBenchmark();
            Rocshmem shmem = Pe.session();
            buffer = shmem.calloc(BYTES, 1); // collective: every PE runs the same trials in the same order
            int me = shmem.myPe();
            SymmetricLongs mine = buffer.asLongs(CType.INT64); // host copies: no host load/store of the heap
            for (int size : new int[] {8, KIB64, MIB1, MIB16}) {
                mine.set((SOURCE + size - 8) / Long.BYTES, marker(me, 7));
                mine.set((DEST + size - 8) / Long.BYTES, marker(me, 3));
            }
            shmem.barrierAll();
            int peer = Pe.peer();
            int[] sizes = {8, KIB64, MIB1, MIB16};
            switch (Variant.of(variant)) {
                case C -> {
                    long base = buffer.address();
                    long word = base + WORDS;
                    long value = me + 1;
                    p = k -> {
                        NativeLoops.int64_p(word, value, peer, k);
                        return 0;
                    };
                    g = k -> NativeLoops.int64_g(word + 8, peer, k);
                    putNbi8 = k -> {
                        NativeLoops.putmem_nbi(base + DEST, base + SOURCE, 8, peer, k);
                        NativeLoops.quiet(1);
                        return 0;
                    };
                    for (int i = 0; i < sizes.length; i++) {
                        put[i] = cPut(base + DEST, base + SOURCE, sizes[i], peer);
                        get[i] = cGet(base + SOURCE, base + DEST, sizes[i], peer);
                    }
                }
                case RAW -> {
                    LongPointer word = buffer.asLongPointer().position(WORDS / 8);
                    LongPointer word1 = buffer.asLongPointer().position(WORDS / 8 + 1);
                    Pointer dest = buffer.asBytePointer().position(DEST);
                    Pointer source = buffer.asBytePointer().position(SOURCE);
                    long value = me + 1;
                    p = k -> {
                        for (int i = 0; i < k; i++) {
                            rocshmem_int64_p(word, value, peer);
                        }
                        return 0;
                    };
                    g = k -> {
                        long sum = 0;
                        for (int i = 0; i < k; i++) {
                            sum += rocshmem_int64_g(word1, peer);
                        }
                        return sum;
                    };
                    putNbi8 = k -> {
                        for (int i = 0; i < k; i++) {
                            rocshmem_putmem_nbi(dest, source, 8, peer);
                        }
                        rocshmem_quiet();
                        return 0;
                    };
                    for (int i = 0; i < sizes.length; i++) {
                        put[i] = rawPut(dest, source, sizes[i], peer);
                        get[i] = rawGet(source, dest, sizes[i], peer);
                    }
                }
                case TYPED -> {
                    SymmetricLongs words = buffer.asLongs(CType.INT64).slice(WORDS / 8, 2);
                    SymmetricBytes bytes = buffer.asBytes();
                    long value = me + 1;
                    p = k -> {
                        for (int i = 0; i < k; i++) {
                            words.p(peer, 0, value);
                        }
                        return 0;
                    };
                    g = k -> {
                        long sum = 0;
                        for (int i = 0; i < k; i++) {
                            sum += words.g(peer, 1);
                        }
                        return sum;
                    };
                    SymmetricBytes dest8 = bytes.slice(DEST, 8);
                    SymmetricBytes source8 = bytes.slice(SOURCE, 8);
                    putNbi8 = k -> {
                        for (int i = 0; i < k; i++) {
                            dest8.putmemNbi(peer, source8);
                        }
                        shmem.quiet();
                        return 0;
                    };
                    for (int i = 0; i < sizes.length; i++) {
                        put[i] = typedPut(bytes.slice(DEST, sizes[i]), bytes.slice(SOURCE, sizes[i]), peer);
                        get[i] = typedGet(bytes.slice(DEST, sizes[i]), bytes.slice(SOURCE, sizes[i]), peer);
                    }
                }
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            Rocshmem shmem = Pe.session();
            shmem.barrierAll();
            try {
                verify(shmem);
            } finally {
                buffer.close(); // collective, like calloc
            }
        }

        /** The data of the benchmark just run really moved (a benchmark that moves nothing measures nothing). */
        private void verify(Rocshmem shmem) {
            SymmetricLongs mine = buffer.asLongs(CType.INT64);
            int me = shmem.myPe();
            int writer = (me - 1 + shmem.nPes()) % shmem.nPes(); // the PE whose peer this PE is
            String op = benchmark.substring(benchmark.lastIndexOf('.') + 1);
            if (op.equals("p")) {
                expect(op, mine.get(WORDS / Long.BYTES), writer + 1);
            } else if (op.startsWith("putmem_")) {
                int size = sizeOf(op);
                expect(op, mine.get((DEST + size - 8) / Long.BYTES), marker(writer, 7));
            } else if (op.startsWith("getmem_")) {
                int size = sizeOf(op);
                expect(op, mine.get((SOURCE + size - 8) / Long.BYTES), marker(Pe.peer(), 3));
            }
        }
    }

    static long marker(int pe, int kind) {
        return 1000L * (pe + 1) + kind;
    }

    static int sizeOf(String op) {
        if (op.endsWith("_8B")) {
            return 8;
        }
        if (op.endsWith("_64KiB")) {
            return KIB64;
        }
        if (op.endsWith("_1MiB")) {
            return MIB1;
        }
        return MIB16;
    }

    static void expect(String op, long actual, long expected) {
        if (actual != expected) {
            throw new IllegalStateException(op + ": the data did not arrive (read " + actual + ", expected " + expected
                    + ")");
        }
    }

    private static Loop cPut(long dest, long source, int size, int peer) {
        return k -> {
            NativeLoops.putmem(dest, source, size, peer, k);
            return 0;
        };
    }

    private static Loop cGet(long dest, long source, int size, int peer) {
        return k -> {
            NativeLoops.getmem(dest, source, size, peer, k);
            return 0;
        };
    }

    private static Loop rawPut(Pointer dest, Pointer source, int size, int peer) {
        return k -> {
            for (int i = 0; i < k; i++) {
                rocshmem_putmem(dest, source, size, peer);
            }
            return 0;
        };
    }

    private static Loop rawGet(Pointer dest, Pointer source, int size, int peer) {
        return k -> {
            for (int i = 0; i < k; i++) {
                rocshmem_getmem(dest, source, size, peer);
            }
            return 0;
        };
    }

    /** putmem of the whole {@code source} view into the peer's copy of {@code dest}. */
    private static Loop typedPut(SymmetricArray dest, SymmetricArray source, int peer) {
        return k -> {
            for (int i = 0; i < k; i++) {
                dest.putmem(peer, source);
            }
            return 0;
        };
    }

    /** getmem of the peer's copy of {@code remote} into the local {@code local}. */
    private static Loop typedGet(SymmetricArray remote, SymmetricArray local, int peer) {
        return k -> {
            for (int i = 0; i < k; i++) {
                remote.getmem(peer, local);
            }
            return 0;
        };
    }

    @Benchmark
    @OperationsPerInvocation(SMALL)
    public long p(Rma s) {
        s.operations += SMALL;
        return s.p.run(SMALL);
    }

    @Benchmark
    @OperationsPerInvocation(SMALL)
    public long g(Rma s) {
        s.operations += SMALL;
        return s.g.run(SMALL);
    }

    /** putmem_nbi of 8 B, with one quiet per k calls (amortized). */
    @Benchmark
    @OperationsPerInvocation(SMALL)
    public long putmem_nbi_8B(Rma s) {
        s.operations += SMALL;
        return s.putNbi8.run(SMALL);
    }

    @Benchmark
    @OperationsPerInvocation(SMALL)
    public long putmem_8B(Rma s) {
        s.operations += SMALL;
        return s.put[0].run(SMALL);
    }

    @Benchmark
    @OperationsPerInvocation(K64)
    public long putmem_64KiB(Rma s) {
        s.operations += K64;
        return s.put[1].run(K64);
    }

    @Benchmark
    @OperationsPerInvocation(M1)
    public long putmem_1MiB(Rma s) {
        s.operations += M1;
        return s.put[2].run(M1);
    }

    @Benchmark
    @OperationsPerInvocation(M16)
    public long putmem_16MiB(Rma s) {
        s.operations += M16;
        return s.put[3].run(M16);
    }

    @Benchmark
    @OperationsPerInvocation(SMALL)
    public long getmem_8B(Rma s) {
        s.operations += SMALL;
        return s.get[0].run(SMALL);
    }

    @Benchmark
    @OperationsPerInvocation(K64)
    public long getmem_64KiB(Rma s) {
        s.operations += K64;
        return s.get[1].run(K64);
    }

    @Benchmark
    @OperationsPerInvocation(M1)
    public long getmem_1MiB(Rma s) {
        s.operations += M1;
        return s.get[2].run(M1);
    }

    @Benchmark
    @OperationsPerInvocation(M16)
    public long getmem_16MiB(Rma s) {
        s.operations += M16;
        return s.get[3].run(M16);
    }
}
