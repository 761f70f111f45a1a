package org.rocshmem.api;

import java.lang.ref.WeakReference;
import java.nio.Buffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import org.bytedeco.javacpp.Pointer;

/**
 * The raw views ({@code as*Pointer}, {@code asByteBuffer}) of one symmetric block, shared by the buffer and its peer
 * views. Guarantee: a view can never reach memory of a later allocation.
 * <ul>
 * <li>On the emulator every view lives in a window of its own (rocshmem_emu_view): a second mapping of the block
 *     that the emulator turns into inert scratch memory when the block is freed (or at finalize). A view kept too
 *     long, and anything derived from it (pointer copies, slices, duplicates), then reads zeros and its stores
 *     vanish; it never faults and never touches the heap again. rocSHMEM calls accept window addresses.</li>
 * <li>Additionally, when the buffer is closed, the view objects handed out die loudly: pointers become null
 *     (JavaCPP throws on access), ByteBuffers get limit 0 (every get/put throws). On a GPU this is the only
 *     protection: a copy of a device address is a plain number, as in C.</li>
 * </ul>
 */
final class RawViews {
    private static final Map<Allocation, RawViews> BY_ALLOCATION = Collections.synchronizedMap(new WeakHashMap<>());

    /** One window per mapping (the block itself, or a peer's copy), keyed by its base address. */
    private final Map<Long, Pointer> windows = new HashMap<>();
    private final List<WeakReference<Object>> handedOut = new ArrayList<>();
    private boolean dead;

    private RawViews() {
    }

    static RawViews of(Allocation allocation) {
        return BY_ALLOCATION.computeIfAbsent(allocation, a -> new RawViews());
    }

    /** The address views of the mapping at {@code base} start from (created on first use). */
    synchronized Pointer window(Backend backend, Pointer base, long bytes) {
        Pointer window = windows.get(base.address());
        if (window == null) {
            window = Emulator.view(backend, base, bytes);
            windows.put(base.address(), window);
        }
        return window;
    }

    /** Remembers a view so that it can be killed when the block dies; returns it. */
    synchronized <T> T track(T view) {
        handedOut.removeIf(ref -> ref.get() == null);
        handedOut.add(new WeakReference<>(view));
        return view;
    }

    /** The block is being freed: every view object handed out stops working. Idempotent. */
    synchronized void die() {
        if (dead) {
            return;
        }
        dead = true;
        for (WeakReference<Object> ref : handedOut) {
            Object view = ref.get();
            if (view instanceof Pointer pointer) {
                pointer.setNull();
                pointer.position(0).limit(0).capacity(0);
            } else if (view instanceof Buffer buffer) {
                buffer.position(0).limit(0);
            }
        }
        handedOut.clear();
        windows.clear();
    }
}
