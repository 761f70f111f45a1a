package org.rocshmem.api;

/**
 * Direct load/store access to another PE's copy of a typed view, where rocSHMEM has a direct path to that PE
 * ({@code rocshmem_ptr} is not null: the PEs share a node). The common part of {@link PeerBytes},
 * {@link PeerShorts}, {@link PeerInts}, {@link PeerLongs}, {@link PeerFloats} and {@link PeerDoubles}; made by the
 * views' {@code peer(pe)}, which is empty where there is no direct path (use put/get/p/g there).
 *
 * <p>{@code get(index)}/{@code set(index, value)} allocate nothing, check the index against the view and refuse
 * every access once the buffer is closed or the session finalized ({@link RocshmemStateException}). On the
 * emulator they are plain loads and stores into the peer's memory, through a window that turns inert when the block
 * is freed; on a GPU the peer's copy is device memory the host cannot dereference, so they go through the view's
 * {@code g}/{@code p} to that PE, which rocSHMEM serves over the same direct path. Plain loads and stores order
 * nothing: synchronize with the peer (a barrier, a signal) before reading what it wrote.
 */
public abstract sealed class PeerArray permits PeerBytes, PeerShorts, PeerInts, PeerLongs, PeerFloats, PeerDoubles {
    private final SymmetricArray view;
    final int pe;

    PeerArray(SymmetricArray view, int pe) {
        this.view = view;
        this.pe = pe;
    }

    /** The PE whose copy this view loads from and stores into. */
    public final int pe() {
        return pe;
    }

    /** Number of elements (that of the symmetric view it was made from). */
    public final long length() {
        return view.length;
    }

    /** True once the buffer was closed or the session finalized: every access then throws. */
    public final boolean isClosed() {
        return view.isClosed();
    }

    /** Checks liveness and the index (allocates nothing unless it throws). */
    final void check(long index) {
        view.local(index);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[PE " + pe + "'s copy of " + view + "]";
    }
}
