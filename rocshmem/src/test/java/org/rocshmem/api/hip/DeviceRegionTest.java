package org.rocshmem.api.hip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.rocshmem.testsupport.Expect.fails;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.PeerAddressTable;
import org.rocshmem.api.RegisteredBuffer;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.api.testing.MultiPe;

/**
 * Issue 27: what the floor's one interface, DeviceRegion, carries between the libraries. Every kind of device memory
 * is one, with the address and extent its own class reports; a stream copy moves the bytes between any two; a
 * kernel argument passes each one's address; DeviceBuffer.of(region, type) counts its elements.
 */
@Tag("emu")
class DeviceRegionTest {

    @Test
    @MultiPe(value = 2, timeoutSeconds = 90)
    void everyKindOfDeviceMemoryIsARegion() {
        try (Rocshmem shmem = Rocshmem.init();
             SymmetricBuffer buffer = shmem.calloc(8, Long.BYTES);
             DeviceMemory device = DeviceMemory.allocate(4, DataType.INT64);
             HipStream stream = HipStream.create()) {
            int me = shmem.myPe();
            SymmetricLongs view = buffer.asLongs().slice(4, 4);
            ByteBuffer direct = ByteBuffer.allocateDirect(32).order(ByteOrder.nativeOrder());
            try (RegisteredBuffer registered = shmem.register(direct);
                 PeerAddressTable table = buffer.asLongs().peerAddressTable()) {
                DeviceRegion[] regions = {buffer, view, registered, table, device, device.buffer()};
                long[] sizes = {64, 32, 32, 2 * Long.BYTES, 32, 32};
                for (int i = 0; i < regions.length; i++) {
                    assertEquals(sizes[i], regions[i].byteSize(), "byte size of " + regions[i]);
                }
                assertEquals(buffer.address() + 32, view.address(), "a slice starts at its first element");
                assertEquals(device.buffer().address(), device.address());

                // a stream copy between any two regions: device memory -> symmetric view -> registered host memory
                device.copyFromHost(100 + me, 101 + me, 102 + me, 103 + me);
                stream.copy(view, device).copy(registered, view).synchronize();
                assertArrayEquals(new long[] {100 + me, 101 + me, 102 + me, 103 + me}, view.toArray());
                assertEquals(103 + me, direct.getLong(24), "the registered buffer received the view's bytes");
                fails(IllegalArgumentException.class, "the regions differ in size", () -> stream.copy(buffer, view));

                // RCCL's typed buffer counts a region's elements; a kernel argument is each region's address
                assertEquals(4, DeviceBuffer.of(registered, DataType.INT64).elements());
                assertEquals(16, DeviceBuffer.of(buffer, DataType.FLOAT32).elements());
                KernelArguments arguments = new KernelArguments(null, null); // no kernel: no recorded signature
                Object[] args = {view, registered, table, device};
                arguments.startVarargs(args.length);
                for (int i = 0; i < args.length; i++) {
                    arguments.setAny(i, args[i]);
                }
                arguments.pack();
                ByteBuffer packed = arguments.packed();
                long[] addresses = {view.address(), registered.address(), table.address(), device.address()};
                for (int i = 0; i < addresses.length; i++) {
                    assertEquals(addresses[i], packed.getLong(8 * i), "argument " + i);
                }
                arguments.close();
                shmem.barrierAll();
            }
            DeviceMemory freed = DeviceMemory.allocate(2, DataType.FLOAT64);
            freed.close();
            fails(IllegalStateException.class, "this DeviceMemory was freed", freed::address);
            assertEquals(16, freed.byteSize(), "the extent stays known");
        }
    }
}
