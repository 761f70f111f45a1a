/**
 * Starts the N PE processes of a job on one node, torchrun-style.
 *
 * <p>Command line: {@code java -cp CP org.rocshmem.api.launch.Launcher --nproc N [--nnodes K] [--timeout S] -- Main
 * args...} (see {@link org.rocshmem.api.launch.Launcher}). From code: {@link org.rocshmem.api.launch.PeJob}, which
 * returns per-PE exit statuses and captured output in a {@link org.rocshmem.api.launch.LaunchResult}.
 *
 * <p>Every PE runs through {@link org.rocshmem.api.launch.PeMain}, whose watchdog ends the PE (and its own child
 * processes) within a fraction of a second when the launcher is gone, even when the launcher was SIGKILLed and none
 * of its own clean-up could run. When the PEs are gone, the launcher removes the CPU emulator's shared-memory objects
 * that PEs killed during init could not remove.
 */
package org.rocshmem.api.launch;
