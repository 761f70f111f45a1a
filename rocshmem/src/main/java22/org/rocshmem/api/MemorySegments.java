package org.rocshmem.api;

import java.lang.foreign.MemorySegment;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.rocshmem.api.hip.CallsNative;

/**
 * {@link MemorySegment} forms of the local-memory operations, on JDK 22 and later (this class is in the jar's
 * {@code META-INF/versions/22}; the Java 17 API is unchanged). A segment passed as local memory must be native
 * memory (e.g. {@code Arena.ofConfined().allocate(bytes)}), since a heap segment's array can move under native
 * code; it is checked against the view's size before any native call.
 */
public final class MemorySegments {
    private MemorySegments() {
    }

    /**
     * This PE's copy of {@code view} as a segment of {@link SymmetricArray#byteSize()} bytes, for direct loads and
     * stores: like {@code asByteBuffer()}, only on the emulator with {@code ROCSHMEM_EMU_HOST_ACCESS=1}, since on a
     * GPU symmetric memory is device memory (move data with putmem/getmem and a native segment there). The
     * segment reads zeros and drops stores once the buffer is freed; it never reaches a later allocation.
     */
    @CallsNative("rocshmem_ptr")
    public static MemorySegment of(SymmetricArray view) {
        HostAccess.check(view.session.backend());
        Pointer window = view.peerWindow(view.myPe);
        return MemorySegment.ofBuffer(new BytePointer(window).capacity(view.byteSize()).asByteBuffer());
    }

    /** {@link Rocshmem#register(java.nio.ByteBuffer)} for a native segment (all of it); not collective. */
    @CallsNative("rocshmem_buffer_register")
    public static RegisteredBuffer register(Rocshmem shmem, MemorySegment segment) {
        requireNative("register: the segment", segment);
        return shmem.register(new SegmentPointer(segment), segment.byteSize());
    }

    /** rocshmem_putmem: {@code view.byteSize()} bytes from the start of {@code source} into PE {@code pe}'s copy. */
    @CallsNative({"rocshmem_putmem", "rocshmem_ctx_putmem"})
    public static void putmem(SymmetricArray view, int pe, MemorySegment source) {
        view.putmemFrom(pe, start("putmem source", source, view.byteSize()));
    }

    /** rocshmem_getmem: PE {@code pe}'s copy of {@code view} into the start of {@code destination}. */
    @CallsNative({"rocshmem_getmem", "rocshmem_ctx_getmem"})
    public static void getmem(SymmetricArray view, int pe, MemorySegment destination) {
        view.getmemInto(pe, start("getmem destination", destination, view.byteSize()));
    }

    /** The address of a native segment that holds {@code bytes} (allocates nothing unless it throws). */
    private static long start(String what, MemorySegment segment, long bytes) {
        requireNative(what, segment);
        if (segment.byteSize() < bytes) {
            throw new IndexOutOfBoundsException(what + ": " + bytes + " bytes do not fit the " + segment.byteSize()
                    + " bytes of " + segment);
        }
        return segment.address();
    }

    private static void requireNative(String what, MemorySegment segment) {
        if (segment == null) {
            throw new IllegalArgumentException(what + " is null");
        }
        if (!segment.isNative()) {
            throw new IllegalArgumentException(what + " must be a native segment (an Arena's allocate): the array"
                    + " of a heap segment can move while native code uses it; got " + segment);
        }
        if (!segment.scope().isAlive()) {
            throw new IllegalStateException(what + " belongs to a closed arena: " + segment);
        }
    }

    /** A pointer at a native segment's first byte, for the registration. */
    private static final class SegmentPointer extends Pointer {
        SegmentPointer(MemorySegment segment) {
            this.address = segment.address();
            this.capacity = segment.byteSize();
            this.limit = segment.byteSize();
        }
    }
}
