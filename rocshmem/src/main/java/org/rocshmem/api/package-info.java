/**
 * rocSHMEM for Java: a typed, checked layer over the generated bindings. Find a call by its concern:
 *
 * <h2>Session</h2>
 * {@link org.rocshmem.api.Rocshmem} is the process's rocSHMEM session:
 * {@code try (Rocshmem shmem = Rocshmem.init()) { ... }} initializes from the launcher's, mpirun's or srun's
 * environment (or takes a {@link org.rocshmem.api.Bootstrap}, e.g. your own unique-id exchange) and finalizes at the
 * end of the block, freeing what was forgotten with a warning naming where it was made. {@link org.rocshmem.api.Info}
 * is the diagnosis to run when something does not load.
 *
 * <h2>Memory and views</h2>
 * {@link org.rocshmem.api.Rocshmem#malloc}, {@code calloc} and {@code align} return a
 * {@link org.rocshmem.api.SymmetricBuffer}: a block of the symmetric heap, the same offsets on every PE. Data moves
 * through element-typed views of it: {@link org.rocshmem.api.SymmetricBytes}, {@link org.rocshmem.api.SymmetricShorts},
 * {@link org.rocshmem.api.SymmetricInts}, {@link org.rocshmem.api.SymmetricLongs},
 * {@link org.rocshmem.api.SymmetricFloats} and {@link org.rocshmem.api.SymmetricDoubles}, each standing for one of the
 * library's C element types ({@link org.rocshmem.api.CType}). Views carry their length, so transfers between views
 * need no counts; {@code slice(from, count)} makes a range. Host copies: {@code copyFrom}/{@code copyTo}/{@code
 * toArray}.
 *
 * <pre>{@code
 * try (Rocshmem shmem = Rocshmem.init();
 *      SymmetricBuffer buffer = shmem.calloc(1024, Long.BYTES)) {
 *     SymmetricLongs counters = buffer.asLongs(CType.INT64);
 *     long ticket = counters.atomicFetchAdd(0, 0, 1);      // on PE 0, element 0
 *     SymmetricLongs inbox = counters.slice(8, 16);
 *     inbox.put((shmem.myPe() + 1) % shmem.nPes(), new long[16]);
 *     shmem.barrierAll();
 * }
 * }</pre>
 *
 * <h2>One-sided operations</h2>
 * On the views: put and get (with a view or a Java array), put_nbi and get_nbi (with a view), p and g; the whole
 * atomic matrix ({@code atomicFetchAdd}, {@code atomicCompareSwap}, the bitwise ones for every integer type wider
 * than a byte: a C type the library lacks an operation for is served by one of its width); the untyped
 * {@code putmem}/{@code getmem} family on {@link org.rocshmem.api.SymmetricArray}. Every index, count and PE is checked
 * before native code; hot paths allocate nothing.
 *
 * <h2>Synchronization</h2>
 * Point-to-point: {@code waitUntil}, {@code waitUntilAll/Any/Some} and their vector forms, and {@code test}, with a
 * {@link org.rocshmem.api.Compare}. Completion and order: {@link org.rocshmem.api.Rocshmem#quiet()},
 * {@link org.rocshmem.api.Rocshmem#fence()}, {@link org.rocshmem.api.Rocshmem#barrierAll()},
 * {@link org.rocshmem.api.Rocshmem#syncAll()}.
 *
 * <h2>Contexts</h2>
 * {@link org.rocshmem.api.Context}: independent streams of one-sided operations with their own quiet and fence;
 * {@code view.withContext(ctx)} routes a view's operations through one.
 *
 * <h2>Teams and collectives</h2>
 * {@link org.rocshmem.api.Team}: splits ({@link org.rocshmem.api.Team#INVALID} for non-members, on which every
 * collective is a no-op), barrier and sync, and the collectives the library defines on the host: broadcast, the
 * reductions, reduce-scatter (host and stream) and the stream-ordered alltoallmem and broadcastmem.
 *
 * <h2>Streams</h2>
 * {@link org.rocshmem.api.HipStream} strings stream-ordered calls together (put, put with signal, signal wait,
 * barriers, quiet, collectives), gives a {@link java.util.concurrent.CompletableFuture} of completion without
 * blocking a thread, and records {@link org.rocshmem.api.HipEvent}s for timing.
 *
 * <h2>Errors</h2>
 * {@link org.rocshmem.api.RocshmemException} (with the library's status when it returned one),
 * {@link org.rocshmem.api.RocshmemStateException} for lifecycle misuse, {@link org.rocshmem.api.HipException} for HIP
 * errors, {@link org.rocshmem.api.NativeLoadException} when the native libraries cannot load; plain
 * {@link java.lang.IllegalArgumentException}/{@link java.lang.IndexOutOfBoundsException} for bad arguments.
 *
 * <p>Launching N PEs on one node: {@link org.rocshmem.api.launch.Launcher}. Bootstrapping with your own transport:
 * {@link org.rocshmem.api.bootstrap.UniqueIdExchange}.
 */
package org.rocshmem.api;
