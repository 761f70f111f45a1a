package org.rocshmem.bench.ops;

import java.util.concurrent.TimeUnit;
import org.bytedeco.pytorch.global.torch.ScalarType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.rocshmem.api.CType;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.bench.Measurements;
import org.rocshmem.bench.Metered;
import org.rocshmem.bench.Pe;
import org.rocshmem.bench.Split;
import org.rocshmem.pytorch.SymmetricTensor;
import org.rocshmem.pytorch.TorchShmem;

/**
 * Stream-ordered put of a symmetric PyTorch tensor ({@code TorchShmem.put}) against the same put between the
 * tensors' symmetric views ({@code SymmetricArray.putmemOnStream}), 1 MiB and 16 MiB, each call followed by
 * {@code hipStreamSynchronize} so that it measures the transfer (issue 28 item 6: a tensor put must cost what a
 * view put costs, 0 B/op). Forms interleaved block by block as in {@link ArrayBenchmarks}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 100, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 100, timeUnit = TimeUnit.MILLISECONDS)
public class TensorBenchmarks {
    static final int[] SIZES = {RmaBenchmarks.MIB1, RmaBenchmarks.MIB16};
    /** The forms, as the records name them; indexes into {@link Transfers#put}. */
    public static final String[] FORMS = {"view", "tensor"};
    static final int FORM_COUNT = 2;
    static final int VIEW = 0;
    static final int TENSOR = 1;

    @State(Scope.Benchmark)
    public static class Transfers extends Metered {
        final Split.Block[][] put = new Split.Block[SIZES.length][FORMS.length];
        private final Split split = new Split(FORMS);
        private final SymmetricTensor[] sources = new SymmetricTensor[SIZES.length];
        private final SymmetricTensor[] destinations = new SymmetricTensor[SIZES.length];
        private HipStream stream;
        private SymmetricBuffer buffer;
        private final SymmetricLongs[] destinationViews = new SymmetricLongs[SIZES.length];
        private String benchmark;

        @Setup(Level.Trial)
        public void setUp(BenchmarkParams params) {
            benchmark = params.getBenchmark();
            split.trial(Measurements.key(params));
            Rocshmem shmem = Pe.session();
            TorchShmem torch = TorchShmem.of(shmem);
            stream = HipStream.create();
            int me = shmem.myPe();
            int peer = Pe.peer();
            // collective: the same trials on every PE; sources then destinations, 1 MiB and 16 MiB each
            buffer = shmem.calloc(2L * (RmaBenchmarks.MIB1 + RmaBenchmarks.MIB16), 1);
            SymmetricLongs longs = buffer.asLongs(CType.INT64);
            long offset = 0;
            for (int i = 0; i < SIZES.length; i++) {
                int n = SIZES[i] / Long.BYTES;
                SymmetricLongs sourceView = longs.slice(offset, n);
                SymmetricLongs destinationView = longs.slice(offset + n, n);
                offset += 2L * n;
                SymmetricTensor source = torch.wrap(sourceView, ScalarType.Long, n);
                SymmetricTensor destination = torch.wrap(destinationView, ScalarType.Long, n);
                sources[i] = source;
                destinations[i] = destination;
                destinationViews[i] = destinationView;
                sourceView.set(n - 1, RmaBenchmarks.marker(me, 7));
                HipStream s = stream;
                put[i][VIEW] = k -> {
                    for (int j = 0; j < k; j++) {
                        destinationView.putmemOnStream(s, peer, sourceView);
                        s.synchronize();
                    }
                };
                put[i][TENSOR] = k -> {
                    for (int j = 0; j < k; j++) {
                        torch.put(destination, source, peer, s);
                        s.synchronize();
                    }
                };
            }
            shmem.barrierAll();
        }

        @Override
        protected void beforeIteration() {
            split.startIteration();
        }

        @Override
        protected void afterIteration(boolean measuring) {
            split.endIteration(measuring);
        }

        void interleave(Split.Block[] forms, int k) {
            operations += (long) forms.length * k;
            split.run(forms, k);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            Rocshmem shmem = Pe.session();
            shmem.barrierAll();
            try {
                String op = benchmark.substring(benchmark.lastIndexOf('.') + 1);
                int i = op.endsWith("_1MiB") ? 0 : 1;
                int n = SIZES[i] / Long.BYTES;
                int writer = (shmem.myPe() - 1 + shmem.nPes()) % shmem.nPes();
                RmaBenchmarks.expect(op, destinationViews[i].get(n - 1), RmaBenchmarks.marker(writer, 7));
            } finally {
                for (int i = SIZES.length - 1; i >= 0; i--) {
                    destinations[i].close();
                    sources[i].close();
                }
                stream.close();
                buffer.close();
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(FORM_COUNT * RmaBenchmarks.M1)
    public void put_tensor_1MiB(Transfers s) {
        s.interleave(s.put[0], RmaBenchmarks.M1);
    }

    @Benchmark
    @OperationsPerInvocation(FORM_COUNT * RmaBenchmarks.M16)
    public void put_tensor_16MiB(Transfers s) {
        s.interleave(s.put[1], RmaBenchmarks.M16);
    }
}
