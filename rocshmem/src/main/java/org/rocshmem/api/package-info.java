/**
 * rocSHMEM for Java: a typed, checked layer over the generated bindings. Find a call by its concern. (This tour is
 * the API's one overview; the README links here. Every code block below is compiled and run on 2 PEs of the emulator
 * by the test command: dev/readme-snippets.sh.)
 *
 * <h2>Session</h2>
 * {@link org.rocshmem.api.Rocshmem} is the process's rocSHMEM session:
 * {@code try (Rocshmem shmem = Rocshmem.init()) { ... }} initializes from the launcher's, mpirun's or srun's
 * environment (or takes a {@link org.rocshmem.api.Bootstrap}: {@code Bootstrap.exchange(rank, n, exchange)} with your
 * own unique-id transport, {@code Bootstrap.uniqueId(rank, n, id)} with an id every rank already holds) and finalizes
 * at the end of the block, freeing what was forgotten with a warning naming where it was made. The session also
 * answers {@code libraryInfo()}, {@code threadLevel()}, {@code backend()}, {@code dumpStats()} and
 * {@code globalExit(status)}; {@code Rocshmem.init(ThreadLevel.MULTIPLE)} also requires a thread level. {@link org.rocshmem.api.Info} is the diagnosis to run when something does not load.
 *
 * <h2>Memory and views</h2>
 * {@link org.rocshmem.api.Rocshmem#malloc}, {@code calloc} and {@code align} return a
 * {@link org.rocshmem.api.SymmetricBuffer}: a block of the symmetric heap, the same offsets on every PE. Data moves
 * through element-typed views of it: {@link org.rocshmem.api.SymmetricBytes}, {@link org.rocshmem.api.SymmetricShorts},
 * {@link org.rocshmem.api.SymmetricInts}, {@link org.rocshmem.api.SymmetricLongs},
 * {@link org.rocshmem.api.SymmetricFloats} and {@link org.rocshmem.api.SymmetricDoubles}, each standing for one of the
 * library's C element types ({@link org.rocshmem.api.CType}). Views carry their length, so transfers between views
 * need no counts; {@code slice(from, count)} makes a range. Host copies: {@code copyFrom}/{@code copyTo}/{@code
 * toArray}. Unsigned C types travel as the same bits ({@code Long.toUnsignedString}, {@code Integer.toUnsignedLong}).
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
 * {@code view.withContext(ctx)} routes a view's operations through one. Init provisions rocSHMEM's pool of host contexts
 * for the session's own context and 4 of the program's; {@link org.rocshmem.api.InitOptions#hostContexts(int)} asks
 * for more.
 *
 * <h2>Teams and collectives</h2>
 * {@link org.rocshmem.api.Team}: splits ({@link org.rocshmem.api.Team#INVALID} for non-members, on which every
 * collective is a no-op), barrier and sync, and the collectives the library defines on the host: broadcast, the
 * reductions, reduce-scatter (host and stream) and the stream-ordered alltoallmem and broadcastmem.
 *
 * <h2>Streams</h2>
 * A {@link org.rocshmem.api.hip.HipStream} (HIP's, from {@code org.rocshmem.api.hip}) orders work; the
 * stream-ordered rocSHMEM calls are the view's ({@code putmemOnStream}, {@code putmemSignalOnStream},
 * {@code signalWaitUntilOnStream}), the team's (barrier, sync, alltoallmem, broadcastmem, reductions) and the
 * session's ({@code barrierAll(stream)}, {@code syncAll(stream)}, {@code quiet(stream)}), each taking the stream. The
 * stream gives a {@link java.util.concurrent.CompletableFuture} of completion without blocking a thread, and records
 * {@link org.rocshmem.api.hip.HipEvent}s for timing.
 *
 * <pre>{@code
 * try (Rocshmem shmem = Rocshmem.init();
 *      SymmetricBuffer buffer = shmem.calloc(9, Long.BYTES);
 *      HipStream stream = HipStream.create();
 *      HipEvent start = stream.record()) {
 *     SymmetricLongs inbox = buffer.asLongs().slice(0, 4);
 *     SymmetricLongs outbox = buffer.asLongs().slice(4, 4);
 *     SymmetricLongs signals = buffer.asLongs(CType.UINT64).slice(8, 1);
 *     outbox.copyFrom(new long[] {1, 2, 3, shmem.myPe()});
 *     shmem.barrierAll();
 *     int peer = (shmem.myPe() + 1) % shmem.nPes();
 *     inbox.putmemSignalOnStream(stream, peer, outbox, signals, 0, 1, SignalOp.ADD); // rocshmem_putmem_signal_on_stream
 *     signals.signalWaitUntilOnStream(stream, 0, Compare.GE, 1);     // rocshmem_signal_wait_until_on_stream
 *     shmem.barrierAll(stream);                                       // rocshmem_barrier_all_on_stream
 *     stream.completion().thenRun(() -> System.out.println("stream done")); // no thread blocks
 *     stream.synchronize();
 *     try (HipEvent end = stream.record()) {
 *         System.out.println(java.util.Arrays.toString(inbox.toArray()) + " in " + end.millisSince(start) + " ms");
 *     }
 * }
 * }</pre>
 *
 * <h2>Kernels</h2>
 * GPU-initiated communication: a HIP kernel calls rocSHMEM's device API itself. {@link org.rocshmem.api.hip.HipModule}
 * loads a kernel's code object from the class path ({@code HipModule.loadResource("kernels/ring")} picks the
 * emulator's {@code .emuco} or the GPU's {@code .hsaco}, both built by {@link org.rocshmem.api.kernel.KernelCompiler});
 * {@code shmem.initModule(module)} gives it the session; {@link org.rocshmem.api.hip.Kernel#launch} starts it on a
 * {@link org.rocshmem.api.hip.HipStream} with a {@link org.rocshmem.api.hip.Dim3} grid and block. Arguments are views and
 * buffers (their symmetric address), peer tables, {@link org.rocshmem.api.hip.DeviceAddress}es, a
 * {@link org.rocshmem.api.Team} (its {@code rocshmem_team_t}), a {@link org.rocshmem.api.Context} (its
 * {@code rocshmem_ctx_t}) and Java primitives at their C widths, checked against the parameter list the emulator's
 * code object records; {@link org.rocshmem.api.hip.Kernel#arguments()} gives a reusable
 * {@link org.rocshmem.api.hip.KernelArguments} that launches without allocating. The guide is docs/kernels.md; the device
 * functions a kernel can call, with their scopes ({@code _wave}, {@code _wg}), context forms and init rules, are
 * listed in docs/device-api.md (generated from the manifest). The classes' own examples run in the test command
 * (KernelJavadocExamplesTest).
 *
 * <h2>Errors</h2>
 * {@link org.rocshmem.api.RocshmemException} (with the library's status when it returned one),
 * {@link org.rocshmem.api.RocshmemStateException} for lifecycle misuse, {@link org.rocshmem.api.hip.HipException} for HIP
 * errors (a closed HIP object throws {@link java.lang.IllegalStateException}), {@link org.rocshmem.api.NativeLoadException} when the native libraries cannot load; plain
 * {@link java.lang.IllegalArgumentException}/{@link java.lang.IndexOutOfBoundsException} for bad arguments.
 *
 * <h2>Coverage</h2>
 * Every method names the rocSHMEM functions it calls ({@link org.rocshmem.api.hip.CallsNative}); ApiCoverageTest checks
 * that every defined host function of the manifest is reachable from this package (871 of the 876 distinct names,
 * overloads counted once; the 5 internal hooks are listed with their reasons).
 *
 * <p>Launching N PEs on one node: {@link org.rocshmem.api.launch.Launcher}. Bootstrapping with your own transport:
 * {@link org.rocshmem.api.bootstrap.UniqueIdExchange}. HIP (streams, events, modules, kernels, device memory):
 * {@link org.rocshmem.api.hip}, the floor under rocSHMEM and RCCL. RCCL: {@link org.rocshmem.api.rccl}.
 */
package org.rocshmem.api;

import org.rocshmem.api.hip.CallsNative;
import org.rocshmem.api.hip.HipEvent;
import org.rocshmem.api.hip.HipException;
import org.rocshmem.api.hip.HipStream;
