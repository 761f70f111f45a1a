package org.rocshmem.api;

import static org.rocshmem.global.rocshmem.*;

import org.rocshmem.api.hip.CallsNative;

/**
 * What a {@link Rocshmem} session says about the library and the few calls that control it as a whole: thread
 * level, transport, statistics, queue pairs, global exit. Every one needs the open session.
 */
abstract sealed class LibraryControl permits Rocshmem {
    /** Throws RocshmemStateException unless the session is open. */
    abstract void requireOpen();

    abstract int nPesUnchecked();

    /** The thread level rocSHMEM provides (rocshmem_query_thread). */
    @CallsNative("rocshmem_query_thread")
    public ThreadLevel threadLevel() {
        requireOpen();
        int[] provided = {-1};
        rocshmem_query_thread(provided);
        return ThreadLevel.of(provided[0]);
    }

    /**
     * Which transport the library runs on (rocshmem_query_backend_type): {@code GDA_BACKEND}, {@code RO_BACKEND} or
     * {@code IPC_BACKEND} (the emulator says IPC_BACKEND).
     */
    @CallsNative("rocshmem_query_backend_type")
    public String backendType() {
        requireOpen();
        // JavaCPP returns a native enum as a fresh instance carrying only its value (name() null, ordinal() 0):
        // intern() maps it to the constant.
        return rocshmem_query_backend_type().intern().name();
    }

    /** Prints the library's operation counters (rocshmem_dump_stats; on stderr for the emulator). */
    @CallsNative("rocshmem_dump_stats")
    public void dumpStats() {
        requireOpen();
        rocshmem_dump_stats();
    }

    /** Zeroes the library's operation counters (rocshmem_reset_stats). */
    @CallsNative("rocshmem_reset_stats")
    public void resetStats() {
        requireOpen();
        rocshmem_reset_stats();
    }

    /**
     * Ends the whole job now with {@code status} (rocshmem_global_exit): every PE's process exits, without finalize.
     * Use it when one PE cannot go on and the others must not wait for it. Does not return.
     */
    @CallsNative("rocshmem_global_exit")
    public void globalExit(int status) {
        requireOpen();
        rocshmem_global_exit(status);
        throw new IllegalStateException("rocshmem_global_exit returned"); // the library ends the process
    }

    /**
     * Whether the transport exposes NIC queue pairs for introspection and from which vendor
     * (rocshmem_qp_introspect_available / _provider); empty when it has none (IPC, the emulator).
     */
    @CallsNative({"rocshmem_qp_introspect_available", "rocshmem_qp_introspect_provider"})
    public java.util.Optional<String> queuePairProvider() {
        requireOpen();
        return rocshmem_qp_introspect_available()
                ? java.util.Optional.of(rocshmem_qp_introspect_provider().intern().name()) : java.util.Optional.empty();
    }

    /**
     * The queue pair of context {@code contextId} towards {@code peer} (rocshmem_query_qp_info), for GPU-initiated
     * networking code that drives the NIC itself; empty when the library has none to show.
     */
    @CallsNative("rocshmem_query_qp_info")
    public java.util.Optional<QueuePairInfo> queuePairInfo(int peer, int contextId) {
        requireOpen();
        Checks.pe(peer, nPesUnchecked());
        try (org.rocshmem.rocshmem.QpInfo info = new org.rocshmem.rocshmem.QpInfo()) {
            info.zero();
            return rocshmem_query_qp_info(peer, contextId, info) ? java.util.Optional.of(QueuePairInfo.of(info))
                    : java.util.Optional.empty();
        }
    }
}
