package org.rocshmem.api;

import java.util.concurrent.atomic.AtomicBoolean;
import org.bytedeco.javacpp.Pointer;

/**
 * One symmetric-heap block as the session tracks it. Kept apart from {@link SymmetricBuffer} so the session can
 * hold it (to free leftovers at finalize) without keeping the buffer object reachable, which would stop the
 * {@link LeakReporter} from ever noticing an unclosed, forgotten buffer.
 */
final class Allocation {
    /** The kind of a block made symmetric by rocshmem_buffer_register_symmetric (unregistered, not freed). */
    static final String REGISTERED_SYMMETRIC = "registered";
    final long sequence;
    final String kind;
    final Pointer address;
    final long byteSize;
    /** Where the block was allocated: printed when it leaks. */
    final Throwable site;
    private final AtomicBoolean released = new AtomicBoolean();

    Allocation(long sequence, String kind, Pointer address, long byteSize) {
        this.sequence = sequence;
        this.kind = kind;
        this.address = address;
        this.byteSize = byteSize;
        this.site = new Throwable("allocation site of " + describe(kind, byteSize, address));
        site.setStackTrace(callerFrames(site.getStackTrace()));
    }

    /** Drops this API's own frames so the trace starts at the application's malloc/calloc/align call. */
    private static StackTraceElement[] callerFrames(StackTraceElement[] frames) {
        int first = 0;
        while (first < frames.length - 1 && (frames[first].getClassName().equals(Allocation.class.getName())
                || frames[first].getClassName().equals(Rocshmem.class.getName()))) {
            first++;
        }
        return java.util.Arrays.copyOfRange(frames, first, frames.length);
    }

    /** Marks the block freed; true only for the first caller, so a block is never freed twice. */
    boolean release() {
        return released.compareAndSet(false, true);
    }

    boolean isReleased() {
        return released.get();
    }

    String describe() {
        return describe(kind, byteSize, address);
    }

    private static String describe(String kind, long byteSize, Pointer address) {
        return kind + " symmetric buffer of " + byteSize + " bytes at 0x" + Long.toHexString(address.address());
    }
}
