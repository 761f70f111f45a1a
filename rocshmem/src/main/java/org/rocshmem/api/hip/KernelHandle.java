package org.rocshmem.api.hip;

/**
 * A library object that device code receives by value as a kernel argument: rocSHMEM's {@code Team} (a
 * {@code rocshmem_team_t}, 8 bytes) and {@code Context} (a {@code rocshmem_ctx_t}, 16 bytes). The floor knows the
 * handle only by its C type and its words, so {@link KernelArguments} packs it without importing the library.
 */
public interface KernelHandle {
    /** The C type a kernel parameter declares for it, e.g. {@code rocshmem_team_t}. */
    String cType();

    /** Its size in bytes as device code receives it: 8 or 16. */
    int handleBytes();

    /** Word {@code i} (0, or 1 for a 16-byte handle) of its value; read at every launch, so a closed handle throws. */
    long handleWord(int i);
}
