package org.rocshmem.api;

import static org.rocshmem.global.hip.hipDeviceSynchronize;
import static org.rocshmem.global.rocshmem.rocshmem_align;
import static org.rocshmem.global.rocshmem.rocshmem_buffer_register;
import static org.rocshmem.global.rocshmem.rocshmem_buffer_register_symmetric;
import static org.rocshmem.global.rocshmem.rocshmem_buffer_unregister_all;
import static org.rocshmem.global.rocshmem.rocshmem_buffer_unregister_symmetric;
import static org.rocshmem.global.rocshmem.rocshmem_calloc;
import static org.rocshmem.global.rocshmem.rocshmem_free;
import static org.rocshmem.global.rocshmem.rocshmem_malloc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.bytedeco.javacpp.Pointer;
import org.rocshmem.api.hip.HipException;

/**
 * The session's memory: the allocation and registration calls behind {@link Rocshmem}'s public ones (malloc,
 * calloc, align, register, registerSymmetric) with their argument checks, and the bookkeeping of live symmetric
 * blocks in allocation order (every PE allocates in the same order, so finalize frees leftovers in an order that
 * lines up across PEs) and of local registrations: what happens to a block from its allocation to its release.
 */
final class SymmetricHeap {
    private static final System.Logger LOG = System.getLogger(Rocshmem.class.getName());

    private final Rocshmem session;
    private long allocations;
    private final Map<Long, Allocation> liveBlocks = new LinkedHashMap<>();
    private final List<RegisteredBuffer> registrations = new ArrayList<>();

    SymmetricHeap(Rocshmem session) {
        this.session = session;
    }

    SymmetricBuffer malloc(long bytes) {
        Checks.positive("malloc size", bytes);
        return allocate("malloc", bytes, () -> rocshmem_malloc(bytes));
    }

    SymmetricBuffer calloc(long count, long elementSize) {
        Checks.positive("calloc count", count);
        Checks.positive("calloc element size", elementSize);
        long bytes;
        try {
            bytes = Math.multiplyExact(count, elementSize);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("calloc: " + count + " x " + elementSize + " bytes overflows", e);
        }
        return allocate("calloc", bytes, () -> rocshmem_calloc(count, elementSize));
    }

    SymmetricBuffer align(long alignment, long bytes, Backend backend) {
        if (!Checks.isPowerOfTwo(alignment)) {
            throw new IllegalArgumentException("align: alignment " + alignment + " is not a power of two");
        }
        long maxAlignment = Emulator.maxAlignment(backend);
        if (maxAlignment > 0 && alignment > maxAlignment) {
            throw new IllegalArgumentException("align: alignment " + alignment + " is larger than the largest alignment "
                    + backend.name() + " supports (" + maxAlignment + " bytes)");
        }
        Checks.positive("align size", bytes);
        return allocate("align(" + alignment + ")", bytes, () -> rocshmem_align(alignment, bytes));
    }

    SymmetricBuffer registerSymmetric(Pointer address, long bytes) {
        Objects.requireNonNull(address, "address");
        Checks.positive("registerSymmetric length", bytes);
        return allocate(Allocation.REGISTERED_SYMMETRIC, bytes, () -> rocshmem_buffer_register_symmetric(address, bytes));
    }

    /** Runs a collective allocation call and tracks its block; {@code kind} names the call in messages. */
    SymmetricBuffer allocate(String kind, long bytes, Supplier<Pointer> call) {
        session.requireOpen();
        Pointer address = call.get();
        if (address == null || address.isNull()) {
            throw new RocshmemException("rocshmem_" + kind.replaceFirst("\\(.*", "") + " of " + bytes
                    + " bytes returned null (symmetric heap exhausted? the emulator's size is ROCSHMEM_HEAP_SIZE)");
        }
        synchronized (this) {
            Allocation allocation = new Allocation(++allocations, kind, address, bytes);
            liveBlocks.put(allocation.sequence, allocation);
            return SymmetricBuffer.owning(session, allocation);
        }
    }

    /** Collective free of a live block; false if it was already freed. */
    boolean free(Allocation allocation) {
        if (allocation.isReleased()) {
            return false;  // closed before, or freed by finalize
        }
        session.requireOpen();
        if (!allocation.release()) {
            return false;
        }
        synchronized (this) {
            liveBlocks.remove(allocation.sequence);
        }
        // As rocshmem4py: no kernel may still use the block when it goes back to the heap.
        HipException.check(hipDeviceSynchronize(), "hipDeviceSynchronize");
        release(allocation);
        return true;
    }

    /** Gives a block back the way it was obtained: freed, or unregistered when it was registered memory. */
    private static void release(Allocation allocation) {
        if (allocation.kind.equals(Allocation.REGISTERED_SYMMETRIC)) {
            int status = rocshmem_buffer_unregister_symmetric(allocation.address);
            if (status != 0) {
                throw new RocshmemException("rocshmem_buffer_unregister_symmetric of " + allocation.describe()
                        + " failed with status " + status, status);
            }
        } else {
            rocshmem_free(allocation.address);
        }
    }

    /** rocshmem_buffer_register of caller-owned memory; not collective. */
    RegisteredBuffer register(Pointer address, long bytes) {
        Objects.requireNonNull(address, "address");
        Checks.positive("register length", bytes);
        long capacity = PointerExtent.bytes(address);
        if (capacity >= 0 && bytes > capacity) {
            throw new IndexOutOfBoundsException("register: " + bytes + " bytes exceed the " + capacity
                    + " bytes the pointer holds from its position");
        }
        int status = rocshmem_buffer_register(address, bytes);
        if (status != 0) {
            throw new RocshmemException("rocshmem_buffer_register(0x" + Long.toHexString(address.address()) + ", "
                    + bytes + ") failed with status " + status + " (overlapping or invalid range?)");
        }
        RegisteredBuffer registered = new RegisteredBuffer(session, address, bytes);
        synchronized (this) {
            registrations.add(registered);
        }
        return registered;
    }

    void unregisterAll() {
        List<RegisteredBuffer> all;
        synchronized (this) {
            all = new ArrayList<>(registrations);
            registrations.clear();
        }
        all.forEach(RegisteredBuffer::markUnregistered);
        rocshmem_buffer_unregister_all();
    }

    synchronized void forget(RegisteredBuffer registered) {
        registrations.remove(registered);
    }

    /**
     * Finalize: frees the blocks the program did not close, oldest first (the same order on every PE), each with a
     * warning naming its allocation site, then drops the remaining registrations.
     */
    void releaseLeftovers() {
        List<Allocation> leaked;
        List<RegisteredBuffer> registered;
        synchronized (this) {
            leaked = new ArrayList<>(liveBlocks.values());
            liveBlocks.clear();
            registered = new ArrayList<>(registrations);
            registrations.clear();
        }
        for (Allocation allocation : leaked) {
            if (allocation.release()) {
                Warnings.log(LOG, System.Logger.Level.WARNING, "{0} was not closed; freeing it at finalize ({1})",
                        allocation.describe(), LeakReporter.site(allocation.site));
                LeakReporter.debugTrace(LOG, allocation.site);
                release(allocation);
            }
        }
        registered.forEach(RegisteredBuffer::unregisterQuietly);
    }
}
