package org.rocshmem.api.dlpack;

import org.bytedeco.javacpp.LongPointer;
import org.rocshmem.hip.hipHostFn_t;

/**
 * Calls a producer's DLPack deleter, a C {@code void (*)(DLManagedTensor*)}, from Java. JavaCPP calls a function
 * pointer through a {@code FunctionPointer} whose address holds the function's address (its first member), so the
 * deleter's address is put in a one-word cell and called through {@code hipHostFn_t}, the HIP binding's
 * {@code void (*)(void*)}: the same C signature, and JNI code both native variants already have.
 */
final class Deleters {
    private Deleters() {
    }

    /** {@code deleter(self)}; nothing when {@code deleter} is 0 (DLPack allows a producer without one). */
    static void call(long deleter, long self) {
        if (deleter == 0) {
            return;
        }
        try (LongPointer cell = new LongPointer(1)) {
            cell.put(0, deleter);
            new hipHostFn_t(cell).call(new DLTensor.RawAddress(self, 1));
        }
    }
}
