package org.rocshmem.bench;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Const;
import org.bytedeco.javacpp.annotation.Namespace;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Platform;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * The C-in-JVM baseline: each native makes {@code k} calls of one rocSHMEM host function in a C++ loop
 * ({@code src/main/cpp/rocshmem_bench_loops.h}), so the JNI crossing is paid once per {@code k} calls and
 * the per-call figure is what C code in this process would see. Addresses are raw, as in the typed API.
 *
 * <p>The {@code empty*} natives do nothing on the C side: they measure what a crossing costs with the
 * argument shapes of the typed API ({@code long} addresses) and of the raw binding (JavaCPP Pointers).
 */
@Properties(inherit = org.rocshmem.presets.rocshmem.class,
            value = @Platform(include = "rocshmem_bench_loops.h", library = "jnirocshmembench"))
@Namespace("rocshmem_bench")
@NoException
public final class NativeLoops {
    static {
        Loader.load();
    }

    private NativeLoops() {
    }

    // ---- JNI cost probes
    public static native void empty();

    public static native void empty_args(long dest, long source, long bytes, int pe);

    public static native void empty_pointers(Pointer dest, @Const Pointer source, long bytes, int pe);

    // ---- RMA
    public static native void int64_p(long dest, long value, int pe, int k);

    public static native long int64_g(long source, int pe, int k);

    public static native void putmem(long dest, long source, long bytes, int pe, int k);

    public static native void getmem(long dest, long source, long bytes, int pe, int k);

    public static native void putmem_nbi(long dest, long source, long bytes, int pe, int k);

    // ---- atomics, int64_t
    public static native long int64_atomic_fetch(long dest, int pe, int k);

    public static native void int64_atomic_set(long dest, long value, int pe, int k);

    public static native long int64_atomic_swap(long dest, long value, int pe, int k);

    public static native long int64_atomic_compare_swap(long dest, long cond, long value, int pe, int k);

    public static native void int64_atomic_inc(long dest, int pe, int k);

    public static native long int64_atomic_fetch_inc(long dest, int pe, int k);

    public static native void int64_atomic_add(long dest, long value, int pe, int k);

    public static native long int64_atomic_fetch_add(long dest, long value, int pe, int k);

    public static native void int64_atomic_and(long dest, long value, int pe, int k);

    public static native long int64_atomic_fetch_and(long dest, long value, int pe, int k);

    public static native void int64_atomic_or(long dest, long value, int pe, int k);

    public static native long int64_atomic_fetch_or(long dest, long value, int pe, int k);

    public static native void int64_atomic_xor(long dest, long value, int pe, int k);

    public static native long int64_atomic_fetch_xor(long dest, long value, int pe, int k);

    // ---- atomics, int32_t
    public static native int int32_atomic_fetch(long dest, int pe, int k);

    public static native void int32_atomic_set(long dest, int value, int pe, int k);

    public static native int int32_atomic_swap(long dest, int value, int pe, int k);

    public static native int int32_atomic_compare_swap(long dest, int cond, int value, int pe, int k);

    public static native void int32_atomic_inc(long dest, int pe, int k);

    public static native int int32_atomic_fetch_inc(long dest, int pe, int k);

    public static native void int32_atomic_add(long dest, int value, int pe, int k);

    public static native int int32_atomic_fetch_add(long dest, int value, int pe, int k);

    public static native void int32_atomic_and(long dest, int value, int pe, int k);

    public static native int int32_atomic_fetch_and(long dest, int value, int pe, int k);

    public static native void int32_atomic_or(long dest, int value, int pe, int k);

    public static native int int32_atomic_fetch_or(long dest, int value, int pe, int k);

    public static native void int32_atomic_xor(long dest, int value, int pe, int k);

    public static native int int32_atomic_fetch_xor(long dest, int value, int pe, int k);

    // ---- point-to-point synchronization, ordering, completion
    public static native void long_wait_until(long ivar, int cmp, long value, int k);

    public static native int long_test(long ivar, int cmp, long value, int k);

    public static native void quiet(int k);

    public static native void fence(int k);

    // ---- collectives
    public static native void barrier_all(int k);

    public static native void team_sync(long team, int k);

    public static native int ctx_long_sum_reduce(long ctx, long team, long dest, long source, int n, int k);

    public static native void ctx_long_broadcast(long ctx, long team, long dest, long source, int n, int root, int k);

    // ---- stream-ordered put: k enqueues, then hipStreamSynchronize; returns its status
    public static native int putmem_on_stream(long dest, long source, long bytes, int pe, long stream, int k);

    /** k hipModuleLaunchKernel of {@code function} (a (long*, int) kernel, one work-item), then one sync. */
    public static native int module_launch(long function, long stream, long out, int value, int k);
}
