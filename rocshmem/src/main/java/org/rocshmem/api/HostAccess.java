package org.rocshmem.api;

/**
 * Whether the host may load and store symmetric memory directly, through {@link SymmetricBuffer#asByteBuffer()}.
 * On a GPU it may not: rocSHMEM's heap is device memory, and a host load from it faults. The emulator, whose heap is
 * host memory, refuses as well, so that a program tested here does not fail on its first GPU run; a program meant
 * only for the emulator opts in with {@value #SETTING}{@code =1}.
 *
 * <p>Symmetric PyTorch tensors (the optional {@code rocshmem-pytorch} artifact, {@code org.rocshmem.pytorch}) and
 * DLPack exports ({@code org.rocshmem.api.dlpack}) are not host access in this sense and are not checked here: they
 * hand the memory to a framework as memory of the device it lives on. On the emulator that device is the CPU
 * (kDLCPU, torch CPU tensors), because emulated device memory is host memory, so torch CPU operations on those
 * tensors are their intended use; on a GPU the same tensors are device tensors (kDLROCM) and the framework's device
 * operations touch them.
 */
final class HostAccess {
    static final String SETTING = "ROCSHMEM_EMU_HOST_ACCESS";

    private HostAccess() {
    }

    /** Throws unless {@code backend} lets the host touch symmetric memory. */
    static void check(Backend backend) {
        if (!backend.emulator()) {
            throw new UnsupportedOperationException("symmetric memory is GPU memory on " + backend
                    + ", which the host cannot load or store; move data with the typed views' copyFrom/copyTo"
                    + " (hipMemcpy) or put/get instead of a ByteBuffer view");
        }
        String value = System.getenv(SETTING);
        if ("1".equals(value)) {
            return;
        }
        if (value != null && !value.equals("0")) {
            throw new IllegalArgumentException(SETTING + " must be 0 or 1, got '" + value + "'");
        }
        throw new UnsupportedOperationException("symmetric memory is GPU memory on a GPU, which the host cannot load or"
                + " store, and the emulator refuses it too; move data with the typed views' copyFrom/copyTo (hipMemcpy)"
                + " or put/get instead of a ByteBuffer view, or set " + SETTING + "=1 in a program meant only for"
                + " the emulator");
    }
}
