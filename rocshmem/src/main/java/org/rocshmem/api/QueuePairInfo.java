package org.rocshmem.api;

import org.rocshmem.rocshmem.QpInfo;

/**
 * A NIC queue pair as rocSHMEM describes it (rocshmem_query_qp_info), for code that posts work requests to the NIC
 * itself (GPU-initiated networking). Addresses are device-visible addresses of the queues and doorbells.
 *
 * @param vendor   the NIC family ({@code IONIC}, {@code BNXT}, {@code MLX5}...), which decides the doorbell fields
 * @param qpn      queue-pair number
 * @param sqBuffer send-queue buffer address
 * @param sqProducer send-queue producer index address
 * @param cqBuffer completion-queue buffer address
 * @param heapBase base of the registered symmetric heap
 * @param sqDepth  send-queue depth
 * @param cqDepth  completion-queue depth
 * @param lkey     local memory key
 * @param rkey     remote memory key
 */
public record QueuePairInfo(String vendor, int qpn, long sqBuffer, long sqProducer, long cqBuffer, long heapBase,
                            int sqDepth, int cqDepth, int lkey, int rkey) {

    static QueuePairInfo of(QpInfo info) {
        // intern(): the enum JavaCPP returns carries only the value (see Rocshmem.backendType())
        return new QueuePairInfo(info.vendor().intern().name(), info.qpn(), info.sq_buf(), info.sq_prod(),
                info.cq_buf(), info.base_heap(), info.sq_depth(), info.cq_depth(), info.lkey(), info.rkey());
    }
}
