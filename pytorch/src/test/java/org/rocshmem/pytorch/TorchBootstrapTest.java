package org.rocshmem.pytorch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.rocshmem.pytorch.TorchTestSupport.longs;
import static org.rocshmem.pytorch.TorchTestSupport.set;

import org.bytedeco.javacpp.SizeTPointer;
import org.bytedeco.javacpp.chrono.Milliseconds;
import org.bytedeco.pytorch.GlooDeviceVector;
import org.bytedeco.pytorch.PrefixStore;
import org.bytedeco.pytorch.ProcessGroupGloo;
import org.bytedeco.pytorch.TCPStore;
import org.bytedeco.pytorch.TCPStoreOptions;
import org.bytedeco.pytorch.global.torch.ScalarType;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.testing.MultiPe;

/**
 * Init from a PyTorch program: torch's TCPStore takes MASTER_ADDR:MASTER_PORT (as torchrun's agent store and
 * init_process_group("env://") do), and rocSHMEM's unique id travels through it.
 */
class TorchBootstrapTest {
    @Test
    @MultiPe(value = 2, timeoutSeconds = 120)
    void uniqueIdTravelsThroughTorchsStoreOnMasterPort() {
        int rank = Integer.parseInt(System.getenv("RANK"));
        int worldSize = Integer.parseInt(System.getenv("WORLD_SIZE"));
        String host = System.getenv("MASTER_ADDR");
        int port = Integer.parseInt(System.getenv("MASTER_PORT"));
        TCPStoreOptions options = new TCPStoreOptions();
        options.port((short) port).isServer(rank == 0).numWorkers(new SizeTPointer(1).put(worldSize))
                .waitWorkers(false).timeout(new Milliseconds(60_000)).useLibUV(false);
        TCPStore store = new TCPStore(host, options);
        try (Rocshmem shmem = Rocshmem.init(TorchBootstrap.viaStore(store, rank, worldSize));
             HipStream stream = HipStream.create()) {
            assertEquals(rank, shmem.myPe());
            assertEquals(worldSize, shmem.nPes());
            TorchShmem torch = TorchShmem.of(shmem);
            try (SymmetricTensor source = torch.create(ScalarType.Long, 2);
                 SymmetricTensor destination = torch.create(ScalarType.Long, 2)) {
                set(source.tensor(), new long[] {rank, 10 + rank});
                shmem.barrierAll();
                torch.put(destination, source, (rank + 1) % worldSize, stream);
                stream.synchronize();
                shmem.barrierAll();
                int previous = (rank + worldSize - 1) % worldSize;
                assertArrayEquals(new long[] {previous, 10 + previous}, longs(destination.tensor()));
                shmem.barrierAll();
            }
            // the process-group path: a gloo broadcast brings rank 0's bytes to every rank
            ProcessGroupGloo.Options glooOptions = ProcessGroupGloo.Options.create();
            glooOptions.devices(new GlooDeviceVector(ProcessGroupGloo.createDeviceForHostname("127.0.0.1")));
            ProcessGroupGloo gloo = new ProcessGroupGloo(new PrefixStore("gloo", store), rank, worldSize,
                    glooOptions);
            byte[] payload = {7, 1, 2, 3, (byte) 250, 42};
            byte[] received = TorchBootstrap.exchange(gloo).exchange(rank, worldSize,
                    payload::clone);
            assertArrayEquals(payload, received);

            // rank 0 serves the store: it leaves after every other rank is done with it
            if (rank != 0) {
                store.add("done", 1);
            } else {
                while (store.add("done", 0) < worldSize - 1) {
                    Thread.onSpinWait();
                }
            }
        }
    }
}
