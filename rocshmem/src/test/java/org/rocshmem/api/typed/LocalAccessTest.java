package org.rocshmem.api.typed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rocshmem.testsupport.Expect.fails;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.Compare;
import org.rocshmem.api.RegisteredBuffer;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.api.WaitTimeoutException;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.DeviceMemory;
import org.rocshmem.api.testing.MultiPe;

/**
 * Issue 17 items 6 and 8: local memory without raw Pointers (a direct ByteBuffer, its registration, RCCL device
 * memory) as the local side of putmem/getmem, and the host-side wait with a timeout. Values prove what moved.
 */
@Tag("emu")
class LocalAccessTest {

    @Test
    @MultiPe(value = 2, timeoutSeconds = 90)
    void typedLocalMemoryAndTimedWaits() {
        try (Rocshmem shmem = Rocshmem.init();
             SymmetricBuffer buffer = shmem.calloc(16, Long.BYTES)) {
            int me = shmem.myPe();
            int other = 1 - me;
            SymmetricLongs inbox = buffer.asLongs().slice(0, 4);

            // a direct ByteBuffer, from its position on
            ByteBuffer direct = ByteBuffer.allocateDirect(48).order(ByteOrder.nativeOrder());
            direct.position(16);
            direct.asLongBuffer().put(new long[] {10 + me, 11 + me, 12 + me, 13 + me});
            inbox.putmem(other, direct);
            assertEquals(16, direct.position(), "the position does not move");
            shmem.barrierAll();
            assertArrayEquals(new long[] {10 + other, 11 + other, 12 + other, 13 + other}, inbox.toArray());
            ByteBuffer back = ByteBuffer.allocateDirect(32).order(ByteOrder.nativeOrder());
            inbox.getmem(other, back);
            assertEquals(10 + me, back.getLong(0), "getmem into a direct ByteBuffer");
            shmem.barrierAll();
            fails(IllegalArgumentException.class, "must be a direct ByteBuffer", () -> inbox.putmem(other,
                    ByteBuffer.allocate(32)));

            // a registered ByteBuffer and registered RCCL device memory
            try (RegisteredBuffer registered = shmem.register(direct);
                 DeviceMemory device = DeviceMemory.allocate(4, DataType.FLOAT64);
                 RegisteredBuffer registeredDevice = shmem.register(device)) {
                direct.asLongBuffer().put(0, 20 + me);
                inbox.putmem(other, registered);
                shmem.barrierAll();
                assertEquals(20 + other, inbox.get(0), "putmem from a registered ByteBuffer");
                shmem.barrierAll();
                device.copyFromHost(1.5 + me, 2.5, 3.5, 4.5);
                buffer.asDoubles().slice(4, 4).putmem(other, registeredDevice);
                shmem.barrierAll();
                assertEquals(1.5 + other, buffer.asDoubles().get(4), "putmem from registered DeviceMemory");
                buffer.asDoubles().slice(4, 4).getmem(other, registeredDevice);
                assertEquals(1.5 + me, device.copyToHost()[0], "getmem into registered DeviceMemory");
                fails(IndexOutOfBoundsException.class, "64 bytes do not fit the 32 registered bytes",
                        () -> buffer.asLongs().slice(0, 8).putmem(other, registered));
                shmem.barrierAll();
            }

            // timed waits: satisfied in time, and a timeout that names the element and its value
            SymmetricLongs flags = buffer.asLongs().slice(8, 2);
            flags.p(other, 0, 7);
            flags.waitUntil(0, Compare.EQ, 7, Duration.ofSeconds(30));
            long start = System.nanoTime();
            WaitTimeoutException timeout = assertThrows(WaitTimeoutException.class,
                    () -> flags.waitUntil(1, Compare.GT, 5, Duration.ofMillis(50)));
            long waitedMs = (System.nanoTime() - start) / 1_000_000;
            assertEquals(1, timeout.index());
            assertTrue(timeout.getMessage().contains("element 1 of SymmetricLongs[") && timeout.getMessage()
                    .contains(" is 0, waited for GT 5"), timeout.getMessage());
            assertTrue(waitedMs >= 50 && waitedMs < 5_000, "waited " + waitedMs + " ms");
            shmem.barrierAll();
        }
    }
}
