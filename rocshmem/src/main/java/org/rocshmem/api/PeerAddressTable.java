package org.rocshmem.api;

import static org.rocshmem.global.hip.hipFree;
import static org.rocshmem.global.hip.hipMalloc;
import static org.rocshmem.global.hip.hipMemcpy;
import static org.rocshmem.global.hip.hipMemcpyHostToDevice;
import static org.rocshmem.global.hip.hipSuccess;
import static org.rocshmem.global.rocshmem.rocshmem_ptr;

import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;
import org.rocshmem.api.hip.CallsNative;
import org.rocshmem.api.hip.DeviceRegion;
import org.rocshmem.api.hip.HipException;

/**
 * The {@code rocshmem_ptr} address of a view's element 0 on every PE, as a device array of {@code uint64_t} that a
 * kernel indexes by PE to load and store directly ({@code long* peer = (long*) table[pe]}); entry 0 means there is
 * no direct path to that PE (use rocSHMEM's put/get there). Made by {@link SymmetricArray#peerAddressTable()};
 * a kernel argument passes its device address. {@link #close()} frees the device memory ({@code hipFree}).
 */
public final class PeerAddressTable implements DeviceRegion, AutoCloseable {
    private final long[] addresses;
    private final Pointer device;
    private volatile boolean closed;

    private PeerAddressTable(long[] addresses, Pointer device) {
        this.addresses = addresses;
        this.device = device;
    }

    /** rocshmem_ptr of {@code symmetricAddress} for PEs 0 .. nPes-1 (0 where there is no direct path). */
    static long[] peerAddresses(long symmetricAddress, int nPes) {
        Pointer symmetric = new Pointer() {
            {
                address = symmetricAddress; // the inherited field: Pointer has no public constructor from an address
            }
        };
        long[] table = new long[nPes];
        for (int pe = 0; pe < nPes; pe++) {
            Pointer p = rocshmem_ptr(symmetric, pe);
            table[pe] = p == null ? 0 : p.address();
        }
        return table;
    }

    /** Copies {@code addresses} into fresh device memory. */
    @CallsNative({"hipMalloc", "hipMemcpy"})
    static PeerAddressTable upload(long[] addresses) {
        long bytes = (long) addresses.length * Long.BYTES;
        Pointer device = new Pointer();
        HipException.check(hipMalloc(device, bytes), "hipMalloc(" + bytes + " bytes for a peer address table)");
        try (LongPointer host = new LongPointer(addresses)) {
            int status = hipMemcpy(device, host, bytes, hipMemcpyHostToDevice);
            if (status != hipSuccess) {
                hipFree(device);
                HipException.check(status, "hipMemcpy(peer address table)");
            }
        }
        return new PeerAddressTable(addresses, device);
    }

    /** The device address of the table (what a kernel argument passes). */
    @Override
    public long address() {
        if (closed) {
            throw new RocshmemStateException("this PeerAddressTable was closed");
        }
        return device.address();
    }

    /** {@link #size()} entries of 8 bytes. */
    @Override
    public long byteSize() {
        return (long) addresses.length * Long.BYTES;
    }

    /** Number of entries: one per PE. */
    public int size() {
        return addresses.length;
    }

    /** The entries, as the host sees them. */
    public long[] toArray() {
        return addresses.clone();
    }

    public boolean isClosed() {
        return closed;
    }

    /** Frees the device memory (idempotent); synchronize the kernels that read it first. */
    @CallsNative("hipFree")
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        HipException.check(hipFree(device), "hipFree(peer address table)");
    }

    @Override
    public String toString() {
        return "PeerAddressTable[" + addresses.length + " PEs" + (closed ? ", closed" : "") + "]";
    }
}
