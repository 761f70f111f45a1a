package org.rocshmem.api.rccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.api.testing.Pe;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.DeviceMemory;

/**
 * Rank 0 starts an all-reduce that rank 1 never joins: its stream hangs until rank 0 aborts the communicator.
 * Rank 1 then sees its peer gone (REMOTE_ERROR) instead of hanging in turn.
 */
@Tag("emu")
class AbortHungTest {

    @Test
    @MultiPe(value = 2, timeoutSeconds = 90)
    void abortReleasesAHungCommunicatorAndThePeerGetsARemoteError() throws Exception {
        Communicator comm = Communicator.init();
        try (HipStream stream = HipStream.create(); DeviceMemory data = DeviceMemory.allocate(8, DataType.FLOAT32)) {
            if (comm.rank() == 0) {
                comm.allReduce(data.buffer(), data.buffer(), 8, RedOp.SUM, stream);
                Thread.sleep(300);
                assertFalse(stream.isIdle(), "the all-reduce must be waiting for rank 1");
                assertEquals(RcclResult.SUCCESS, comm.asyncError(), "a hung operation is not an error yet");
                long start = System.nanoTime();
                comm.abort();
                stream.synchronize();  // the cancelled operation let go of the stream
                assertTrue(System.nanoTime() - start < Duration.ofSeconds(2).toNanos(), "abort took too long");
                assertThrows(IllegalStateException.class, comm::asyncError);
                comm.abort();  // idempotent
                Pe.publish("aborted", "yes");
            } else {
                Pe.publish("aborted", "waiting");
                assertEquals("yes", Pe.collect("aborted", Duration.ofSeconds(60)).get(0));
                comm.allReduce(data.buffer(), data.buffer(), 8, RedOp.SUM, stream);
                stream.synchronize();
                assertEquals(RcclResult.REMOTE_ERROR, comm.asyncError());
                RcclException e = assertThrows(RcclException.class, comm::checkAsyncError);
                assertEquals(RcclResult.REMOTE_ERROR, e.result());
                assertTrue(e.getMessage().contains("ncclRemoteError"), e.getMessage());
                assertTrue(e.lastError().contains("aborted"), e.lastError());
                // Later calls fail at once, naming the earlier failure.
                RcclException again = assertThrows(RcclException.class,
                        () -> comm.allReduce(data.buffer(), data.buffer(), 8, RedOp.SUM, stream));
                assertTrue(again.lastError().contains("failed earlier"), again.lastError());
                comm.close();  // a failed communicator is aborted, not finalized: no wait for the gone peer
                assertTrue(comm.isClosed());
            }
        }
    }
}
