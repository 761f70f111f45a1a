/**
 * Starts the N PE processes of a job on one node, torchrun-style.
 *
 * <p>Command line: {@code java -cp CP org.rocshmem.api.launch.Launcher --nproc N [--timeout S] -- Main args...}
 * (see {@link org.rocshmem.api.launch.Launcher}). From code: {@link org.rocshmem.api.launch.PeJob}, which
 * returns per-PE exit statuses and captured output in a {@link org.rocshmem.api.launch.LaunchResult}.
 *
 * <p>Known limit: a PE's grandchildren are stopped with it only while that PE is alive (they are found through
 * {@link java.lang.ProcessHandle#descendants()}); if the launcher JVM itself is SIGKILLed, no hook can run.
 */
package org.rocshmem.api.launch;
